// Request signing: the one module that defines the cloud signature scheme (docs/decisions.md, "cloud signature").
// Client and reference server both use it, so they cannot drift apart. Replace this module when the
// vendor's exact scheme becomes known.
import { nodeCrypto } from './builtins.js';
import { NONCE_LENGTH, SIGNATURE_WINDOW_SECONDS } from './constants.js';

/** Header names of the signature (lowercase, as HTTP/2 and Node's `headers` object present them). */
export const SIGNATURE_HEADERS = {
  serial: 'x-device-serial',
  timestamp: 'x-timestamp',
  nonce: 'x-nonce',
  signature: 'x-signature',
} as const;

/** SHA-256 of the empty body, used for GET requests. */
export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export interface CanonicalInput {
  /** HTTP method, any case; uppercased in the canonical string. */
  method: string;
  /** Path and query exactly as sent (`/a/b?x=1`), as `URL.pathname + URL.search` serialises it. */
  pathAndQuery: string;
  /** Unix time in seconds. */
  timestamp: number;
  nonce: string;
  salt: string;
  /** Lowercase hex SHA-256 of the raw body bytes. */
  bodySha256: string;
}

/** `METHOD\npath?query\ntimestamp\nnonce\nsalt\nsha256hex(body)` — the bytes the HMAC covers. */
export function canonicalString(input: CanonicalInput): string {
  return [
    input.method.toUpperCase(),
    input.pathAndQuery,
    String(input.timestamp),
    input.nonce,
    input.salt,
    input.bodySha256,
  ].join('\n');
}

/** The canonical string with the salt line replaced, safe to log or to put in an error report. */
export function redactCanonical(canonical: string): string {
  const lines = canonical.split('\n');
  if (lines.length === 6) lines[4] = lines[4] === '' ? '' : '[salt]';
  return lines.join('\n');
}

/** Lowercase hex SHA-256 of body bytes (a string is hashed as UTF-8). */
export function sha256Hex(body: Uint8Array | string = ''): string {
  return nodeCrypto().createHash('sha256').update(body).digest('hex');
}

/** Hex HMAC-SHA256 of a canonical string keyed with the device secret (UTF-8 bytes of the secret). */
export function computeSignature(deviceSecret: string, canonical: string): string {
  return nodeCrypto().createHmac('sha256', deviceSecret).update(canonical, 'utf8').digest('hex');
}

/** A nonce of `length` lowercase letters from a CSPRNG (rejection sampling, no modulo bias). */
export function createNonce(
  length = NONCE_LENGTH,
  random: (n: number) => Uint8Array = nodeCrypto().randomBytes,
): string {
  let out = '';
  while (out.length < length) {
    for (const b of random(length * 2)) {
      if (b >= 234) continue; // 234 = 26 * 9: keep every letter equally likely
      out += String.fromCharCode(97 + (b % 26));
      if (out.length === length) break;
    }
  }
  return out;
}

export interface SignInput {
  serial: string;
  /** HMAC key: `device_secret` from registration (or the factory secret for the registration call). */
  deviceSecret: string;
  /** `salt` from registration ('' for the registration call). */
  salt: string;
  method: string;
  pathAndQuery: string;
  /** Lowercase hex SHA-256 of the body (`sha256Hex(body)`). */
  bodySha256: string;
  /** Unix time in seconds. */
  timestamp: number;
  nonce: string;
}

export interface SignedHeaders {
  headers: Record<string, string>;
  /** The exact string that was signed (contains the salt: redact before logging). */
  canonical: string;
}

/** Builds the four signature headers of one request. */
export function signRequest(input: SignInput): SignedHeaders {
  const canonical = canonicalString(input);
  return {
    canonical,
    headers: {
      [SIGNATURE_HEADERS.serial]: input.serial,
      [SIGNATURE_HEADERS.timestamp]: String(input.timestamp),
      [SIGNATURE_HEADERS.nonce]: input.nonce,
      [SIGNATURE_HEADERS.signature]: computeSignature(input.deviceSecret, canonical),
    },
  };
}

/** Constant-time comparison of two hex strings (false for different lengths, without early exit on content). */
export function timingSafeEqualHex(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) {
    nodeCrypto().timingSafeEqual(ab, ab);
    return false;
  }
  return nodeCrypto().timingSafeEqual(ab, bb);
}

/**
 * What the nonce cache says about a nonce: `fresh` (now recorded), `replay` (seen and not expired),
 * `full` (the cache holds its maximum of unexpired nonces, so this one cannot be checked) or
 * `serial-full` (this serial holds its share of the cache).
 */
export type NonceVerdict = 'fresh' | 'replay' | 'full' | 'serial-full';

/**
 * Remembers nonces seen inside the window. Bounded, and it never forgets an unexpired nonce: when
 * it is full, new nonces are refused (`full`) until entries expire, so a flood can deny service but
 * never open the door to a replay.
 */
export interface NonceCache {
  remember(serial: string, nonce: string, nowSeconds: number): NonceVerdict;
  readonly size: number;
  /** Seconds until the oldest entry expires (0 when empty): a `Retry-After` for `full`. */
  retryAfter(nowSeconds: number): number;
}

export function createNonceCache({
  ttlSeconds = 2 * SIGNATURE_WINDOW_SECONDS,
  maxEntries = 100_000,
  maxPerSerial = Math.max(1, Math.floor(maxEntries / 10)),
}: {
  ttlSeconds?: number;
  maxEntries?: number;
  /** Share of one serial (default a tenth of `maxEntries`), so one device cannot fill the cache alone. */
  maxPerSerial?: number;
} = {}): NonceCache {
  const seen = new Map<string, { expires: number; serial: string }>(); // insertion order = age
  const perSerial = new Map<string, number>();
  const sweep = (now: number) => {
    for (const [k, e] of seen) {
      if (e.expires > now) break;
      seen.delete(k);
      const n = (perSerial.get(e.serial) ?? 1) - 1;
      if (n <= 0) perSerial.delete(e.serial);
      else perSerial.set(e.serial, n);
    }
  };
  return {
    remember(serial, nonce, now) {
      sweep(now);
      const key = `${serial}\n${nonce}`;
      const entry = seen.get(key);
      if (entry !== undefined && entry.expires > now) return 'replay';
      if (seen.size >= maxEntries) return 'full';
      const mine = perSerial.get(serial) ?? 0;
      if (mine >= maxPerSerial) return 'serial-full';
      seen.set(key, { expires: now + ttlSeconds, serial });
      perSerial.set(serial, mine + 1);
      return 'fresh';
    },
    get size() {
      return seen.size;
    },
    retryAfter(now) {
      const first = seen.values().next().value;
      return first ? Math.max(1, first.expires - now) : 0;
    },
  };
}

export type VerifyFailure =
  | 'SIGNATURE_MISSING'
  | 'TIMESTAMP_SKEW'
  | 'SIGNATURE_MISMATCH'
  | 'NONCE_REPLAY'
  | 'NONCE_CACHE_FULL'
  | 'NONCE_RATE_LIMITED';

export type VerifyResult =
  | { ok: true; canonical: string }
  | { ok: false; code: VerifyFailure; canonical?: string; message: string };

export interface VerifyInput {
  method: string;
  pathAndQuery: string;
  bodySha256: string;
  /** Header lookup, case-insensitive (a `Headers` instance or a lowercase-keyed record). */
  headers: Headers | Record<string, string | string[] | undefined>;
  deviceSecret: string;
  salt: string;
  /** Server time, Unix seconds. */
  nowSeconds: number;
  windowSeconds?: number;
  nonces?: NonceCache;
}

function header(headers: VerifyInput['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Reads the four signature headers; undefined when one is missing or malformed. */
export function readSignatureHeaders(
  headers: VerifyInput['headers'],
): { serial: string; timestamp: number; nonce: string; signature: string } | undefined {
  const serial = header(headers, SIGNATURE_HEADERS.serial);
  const ts = header(headers, SIGNATURE_HEADERS.timestamp);
  const nonce = header(headers, SIGNATURE_HEADERS.nonce);
  const signature = header(headers, SIGNATURE_HEADERS.signature);
  if (!serial || !ts || !nonce || !signature) return undefined;
  if (!/^\d{1,12}$/.test(ts) || !/^[a-z]{16}$/.test(nonce) || !/^[0-9a-f]{64}$/.test(signature))
    return undefined;
  return { serial, timestamp: Number(ts), nonce, signature };
}

/**
 * Server side: checks the window (±300 s by default), the HMAC (constant time) and then the nonce
 * (a nonce is only recorded for requests whose signature is valid, so forged requests cannot fill
 * the cache; a full cache refuses rather than forgets).
 */
export function verifySignature(input: VerifyInput): VerifyResult {
  const h = readSignatureHeaders(input.headers);
  if (!h) return { ok: false, code: 'SIGNATURE_MISSING', message: 'signature headers missing or malformed' };
  const window = input.windowSeconds ?? SIGNATURE_WINDOW_SECONDS;
  if (Math.abs(input.nowSeconds - h.timestamp) > window) {
    return {
      ok: false,
      code: 'TIMESTAMP_SKEW',
      message: `X-Timestamp ${h.timestamp} is more than ${window} s from server time ${input.nowSeconds}`,
    };
  }
  const canonical = canonicalString({
    method: input.method,
    pathAndQuery: input.pathAndQuery,
    timestamp: h.timestamp,
    nonce: h.nonce,
    salt: input.salt,
    bodySha256: input.bodySha256,
  });
  if (!timingSafeEqualHex(computeSignature(input.deviceSecret, canonical), h.signature)) {
    return { ok: false, code: 'SIGNATURE_MISMATCH', canonical, message: 'X-Signature does not match' };
  }
  const verdict = input.nonces?.remember(h.serial, h.nonce, input.nowSeconds) ?? 'fresh';
  if (verdict === 'replay') return { ok: false, code: 'NONCE_REPLAY', message: 'X-Nonce was already used' };
  if (verdict === 'full') {
    return { ok: false, code: 'NONCE_CACHE_FULL', message: 'the replay cache is full: try again later' };
  }
  if (verdict === 'serial-full') {
    return {
      ok: false,
      code: 'NONCE_RATE_LIMITED',
      message: 'too many requests from this serial: slow down',
    };
  }
  return { ok: true, canonical };
}
