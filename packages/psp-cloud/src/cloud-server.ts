// Reference cloud server (h3): the same route table as the client, signature verification, devices,
// tokens, update descriptors and packages with Range, resumable uploads, notices and de-duplicated
// telemetry. Every piece of its state has a bound.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { closeServer, listenServer, readLimitedBody } from '@waved/internal';
import { H3, type H3Event, toNodeHandler } from 'h3';
import type { Clock, Logger } from './clock.js';
import { ANALYTICS_APP_ID, SIGNATURE_WINDOW_SECONDS, UPLOAD_CHUNK_BYTES } from './constants.js';
import { UPDATE_KINDS, type UpdateDescriptor, type UpdateKind } from './descriptor.js';
import { CloudError } from './errors.js';
import { parseRange } from './http-range.js';
import {
  type RouteName,
  type RouteOverrides,
  type RouteSpec,
  type RouteTable,
  resolveRoutes,
} from './routes.js';
import {
  createNonceCache,
  readSignatureHeaders,
  redactCanonical,
  timingSafeEqualHex,
  type VerifyFailure,
  verifySignature,
} from './signature.js';
import type { TelemetryEvent } from './telemetry-events.js';

/** A release the server offers for `psp_firmware` or `psp_model`. */
export interface OtaRelease {
  version: string;
  /** The package bytes (a `.swu`), served with Range support. */
  data: Uint8Array;
  forced?: boolean;
  descriptions?: Record<string, { html_note: string }>;
  /** File name in the download URL (default `<kind>-<version>.swu`). */
  fileName?: string;
}

/** What `intercept` sees of a request before the server handles it. */
export interface InterceptedRequest {
  route: RouteName;
  method: string;
  pathAndQuery: string;
  headers: Headers;
  /** 1 for the first request to this route, 2 for the second... */
  count: number;
}

/** Bounds of the server's state; every one has a default. */
export interface CloudServerLimits {
  /** Registered devices (default 10 000); registration beyond answers 503 `SERVER_FULL`. */
  devices?: number;
  /** Live tokens per device (default 4); a new one revokes the oldest. */
  tokensPerDevice?: number;
  /** Nonces remembered (default 100 000); beyond, signed requests answer 503 `NONCE_CACHE_FULL`. */
  nonces?: number;
  /** Nonces one serial may hold (default a tenth of `nonces`); beyond, 429 `NONCE_RATE_LIMITED`. */
  noncesPerSerial?: number;
  /** Telemetry events kept for `telemetry()` and remembered for de-duplication (default 100 000). */
  telemetryEvents?: number;
  /** Notices kept for `notices()` (default 10 000), oldest dropped first. */
  notices?: number;
  /** Largest JSON body (default 1 MiB). */
  jsonBytes?: number;
  /** Largest meeting file (default 256 MiB). */
  uploadBytes?: number;
  /** Bytes of uploads held, finished and reserved by open ones (default 256 MiB); oldest finished dropped first. */
  storedUploadBytes?: number;
  /** Finished uploads kept (default 10 000), oldest dropped first. */
  uploads?: number;
  /** Open uploads (default 64); beyond, 503 `UPLOAD_CAPACITY`. */
  openUploads?: number;
  /** Chunk size the server asks for and accepts (default 4 MiB). */
  chunkBytes?: number;
  /** An open upload without a chunk for this long is dropped (default 24 h). */
  uploadIdleSeconds?: number;
  /** Concurrent connections per listening socket (default 512). */
  connections?: number;
}

export interface CloudServerOptions {
  routes?: RouteOverrides;
  /** Server clock (signature window, token expiry); only `now` is used. */
  clock?: Pick<Clock, 'now'>;
  logger?: Logger;
  /** Accepted timestamp distance in seconds (default 300). */
  windowSeconds?: number;
  /**
   * Devices known in advance with their factory secrets; with `deviceSecret` and `salt` they start
   * out registered (fixtures, signature vectors). Known serials register without an enrolment key.
   */
  devices?: ReadonlyArray<{ serial: string; secret: string; deviceSecret?: string; salt?: string }>;
  /** New serials register when they send this key in `X-Enrolment-Key`. */
  enrolmentKey?: string;
  /** Any serial registers on first use, no key needed (default false: a simulator's choice). */
  openRegistration?: boolean;
  /** Device token lifetime (default 3600 s). */
  tokenTtlSeconds?: number;
  /** Refuse update checks that are not signed with `device_secret` (default false: the vendor's plain GET). */
  requireSignedUpdateChecks?: boolean;
  /** Releases to serve from the start. */
  ota?: Partial<Record<UpdateKind, OtaRelease>>;
  /** Put the server's canonical string (salt redacted) in SIGNATURE_MISMATCH answers (default true). */
  revealCanonicalOnMismatch?: boolean;
  /** Keep finished uploads as files (mode 0600) in this directory instead of memory. */
  uploadDir?: string;
  limits?: CloudServerLimits;
  /** Test hook: return a Response to answer a request instead of the server (fault injection). */
  intercept?(request: InterceptedRequest): Response | undefined | Promise<Response | undefined>;
  /** Test hook: awaited after a telemetry batch was stored and before the answer is sent. */
  onTelemetryBatch?(info: { serial: string; accepted: number; duplicates: number }): void | Promise<void>;
}

export interface RegisteredDevice {
  serial: string;
  registeredAt: number;
  clientVersion: string;
  /** valid tokens issued to it */
  tokens: number;
}

export interface ReceivedUpload {
  serial: string;
  meetingId: string;
  fileName: string;
  size: number;
  sha256: string;
  /** The bytes, when the server keeps uploads in memory. */
  data?: Uint8Array;
  /** The file, when the server was given `uploadDir`. */
  path?: string;
}

export interface UploadStats {
  /** Chunks appended to an upload. */
  chunks: number;
  /** Bytes appended: with resumes, still each byte of each file once. */
  bytes: number;
  /** Chunks refused because their offset was not where the upload stood. */
  misplaced: number;
  /** Open uploads. */
  open: number;
}

export interface ReceivedNotice {
  route: 'uploadComplete' | 'transcriptionStart' | 'asrNotice' | 'syncWords' | 'dotNotice';
  serial: string;
  body: Record<string, unknown>;
}

export interface ListenOptions {
  port?: number;
  host?: string;
  /** PEM key and certificate: serve HTTPS. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface ListeningServer {
  address: string;
  port: number;
  /** `http://127.0.0.1:<port>/` (https with `tls`), IPv6 addresses in brackets. */
  url: string;
  /** Stops this listener and drops its connections. Idempotent. */
  close(): Promise<void>;
}

export interface CloudServer {
  readonly app: H3;
  readonly routes: RouteTable;
  /** WHATWG fetch handler (for in-process use without a socket). */
  fetch(request: Request): Promise<Response>;
  listen(options?: ListenOptions): Promise<ListeningServer>;
  /** Closes every listener. Idempotent. */
  close(): Promise<void>;
  /** Offers a release; returns the descriptor devices will get (relative download path). */
  publishUpdate(kind: UpdateKind, release: OtaRelease): { fileName: string; md5: string };
  withdrawUpdate(kind: UpdateKind): void;
  devices(): RegisteredDevice[];
  /** Unique telemetry events, in arrival order (the newest `limits.telemetryEvents`). */
  telemetry(): TelemetryEvent[];
  telemetryStats(): { batches: number; received: number; duplicates: number; dropped: number };
  uploads(): ReceivedUpload[];
  uploadStats(): UploadStats;
  notices(): ReceivedNotice[];
  /** The last password-recovery code sent to a device (the "SMS" a test reads). */
  passwordCode(serial: string): string | undefined;
  /** Rejections by code (SIGNATURE_MISMATCH, TIMESTAMP_SKEW, NONCE_REPLAY, ...). */
  rejections(): Record<string, number>;
  /** Invalidates every token of a device (the next token call gets 401 TOKEN_INVALID). */
  revokeTokens(serial: string): void;
}

export type CloudServerErrorCode =
  | VerifyFailure
  | 'UNKNOWN_DEVICE'
  | 'ENROLMENT_REQUIRED'
  | 'TOKEN_MISSING'
  | 'TOKEN_INVALID'
  | 'TOKEN_EXPIRED'
  | 'BAD_REQUEST'
  | 'PAYLOAD_TOO_LARGE'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'SERVER_FULL'
  | 'UPLOAD_CAPACITY'
  | 'UPLOAD_UNKNOWN'
  | 'OFFSET_MISMATCH'
  | 'UPLOAD_HASH_MISMATCH';

class RequestError extends Error {
  readonly status: number;
  readonly code: CloudServerErrorCode;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    code: CloudServerErrorCode,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}

interface DeviceRecord {
  serial: string;
  factorySecret: string;
  deviceSecret: string;
  salt: string;
  clientVersion: string;
  registeredAt: number;
  analyticsId: string;
}

interface PackageRecord {
  kind: UpdateKind;
  release: OtaRelease;
  fileName: string;
  md5: string;
  etag: string;
}

interface OpenUpload {
  id: string;
  key: string;
  serial: string;
  meetingId: string;
  fileName: string;
  size: number;
  sha256: string;
  received: number;
  hash: crypto.Hash;
  chunks: Buffer[];
  path?: string;
  touched: number;
}

interface FinishedUpload extends ReceivedUpload {
  id: string;
  key: string;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

async function readLimited(
  req: Request,
  limit: number,
  onChunk?: (c: Uint8Array) => void,
): Promise<Uint8Array> {
  const r = await readLimitedBody(req, limit, onChunk);
  if (r.ok) return r.body;
  if (r.reason === 'too-large')
    throw new RequestError(413, 'PAYLOAD_TOO_LARGE', `body larger than ${limit} bytes`);
  throw new RequestError(400, 'BAD_REQUEST', 'the body was cut short');
}

/** Drops the oldest entries of an insertion-ordered collection beyond `max`. */
function trim<T>(list: T[], max: number): number {
  const over = list.length - max;
  if (over > 0) list.splice(0, over);
  return Math.max(0, over);
}

export function createCloudServer(options: CloudServerOptions = {}): CloudServer {
  const routes = resolveRoutes(options.routes);
  const clock = options.clock ?? { now: () => Date.now() };
  const log = options.logger ?? {};
  const windowSeconds = options.windowSeconds ?? SIGNATURE_WINDOW_SECONDS;
  const lim = options.limits ?? {};
  const maxDevices = lim.devices ?? 10_000;
  const tokensPerDevice = Math.max(1, lim.tokensPerDevice ?? 4);
  const maxNonces = lim.nonces ?? 100_000;
  const nonces = createNonceCache({
    ttlSeconds: 2 * windowSeconds,
    maxEntries: maxNonces,
    maxPerSerial: lim.noncesPerSerial ?? Math.max(1, Math.floor(maxNonces / 10)),
  });
  const maxEvents = lim.telemetryEvents ?? 100_000;
  const maxNotices = lim.notices ?? 10_000;
  const maxJson = lim.jsonBytes ?? 1024 * 1024;
  const maxUpload = lim.uploadBytes ?? 256 * 1024 * 1024;
  const maxStored = lim.storedUploadBytes ?? 256 * 1024 * 1024;
  const maxOpenUploads = lim.openUploads ?? 64;
  const maxFinished = Math.max(1, lim.uploads ?? 10_000);
  const chunkBytes = lim.chunkBytes ?? UPLOAD_CHUNK_BYTES;
  const uploadIdleMs = (lim.uploadIdleSeconds ?? 86_400) * 1000;
  const maxConnections = lim.connections ?? 512;
  const openRegistration = options.openRegistration ?? false;
  const enrolmentKey = options.enrolmentKey;
  const tokenTtl = options.tokenTtlSeconds ?? 3600;
  const revealCanonical = options.revealCanonicalOnMismatch ?? true;
  const uploadDir = options.uploadDir;
  if (uploadDir) fs.mkdirSync(uploadDir, { recursive: true, mode: 0o700 });

  const factory = new Map((options.devices ?? []).map((d) => [d.serial, d.secret]));
  const devices = new Map<string, DeviceRecord>();
  // token -> owner; insertion order = issue order, and every token lives tokenTtl: the front expires first
  const tokens = new Map<string, { serial: string; expiresAt: number }>();
  const tokensOf = new Map<string, string[]>();
  const packages = new Map<UpdateKind, PackageRecord>();
  const telemetry: TelemetryEvent[] = [];
  const seenEvents = new Set<string>();
  const tstats = { batches: 0, received: 0, duplicates: 0, dropped: 0 };
  const open = new Map<string, OpenUpload>(); // by upload id
  const openByKey = new Map<string, string>();
  const finished: FinishedUpload[] = [];
  const ustats = { chunks: 0, bytes: 0, misplaced: 0 };
  const notices: ReceivedNotice[] = [];
  const codes = new Map<string, { code: string; expiresAt: number; attempts: number }>();
  const rejections: Record<string, number> = {};
  const counts = new Map<RouteName, number>();
  const nowSeconds = () => Math.floor(clock.now() / 1000);
  for (const d of options.devices ?? []) {
    if (d.deviceSecret === undefined || d.salt === undefined) continue;
    devices.set(d.serial, {
      serial: d.serial,
      factorySecret: d.secret,
      deviceSecret: d.deviceSecret,
      salt: d.salt,
      clientVersion: 'preset',
      registeredAt: clock.now(),
      analyticsId: crypto.randomUUID(),
    });
  }

  function publishUpdate(kind: UpdateKind, release: OtaRelease) {
    if (!UPDATE_KINDS.includes(kind)) throw new CloudError('CLOUD_OPTIONS', `unknown update kind ${kind}`);
    const fileName = release.fileName ?? `${kind}-${release.version}.swu`;
    if (!/^[A-Za-z0-9._-]{1,128}$/.test(fileName)) {
      throw new CloudError('CLOUD_OPTIONS', `bad package file name ${fileName}`);
    }
    const md5 = crypto.createHash('md5').update(release.data).digest('hex');
    packages.set(kind, { kind, release, fileName, md5, etag: `"${md5}"` });
    log.info?.('update published', { kind, version: release.version, bytes: release.data.length });
    return { fileName, md5 };
  }
  for (const kind of UPDATE_KINDS) {
    const r = options.ota?.[kind];
    if (r) publishUpdate(kind, r);
  }

  function reject(
    code: CloudServerErrorCode,
    status: number,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    rejections[code] = (rejections[code] ?? 0) + 1;
    return new RequestError(status, code, message, extra, headers);
  }

  interface Authed {
    serial: string;
    body: Uint8Array;
    json: Record<string, unknown>;
    url: URL;
    req: Request;
  }

  function expireTokens() {
    const now = nowSeconds();
    for (const [t, v] of tokens) {
      if (v.expiresAt > now) break;
      dropToken(t);
    }
  }
  function dropToken(t: string) {
    const v = tokens.get(t);
    if (!v) return;
    tokens.delete(t);
    const list = tokensOf.get(v.serial);
    if (!list) return;
    const i = list.indexOf(t);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) tokensOf.delete(v.serial);
  }

  async function authenticate(name: RouteName, spec: RouteSpec, req: Request, url: URL): Promise<Authed> {
    const pathAndQuery = url.pathname + url.search;
    const descriptorRoute = name === 'firmwareDescriptor' || name === 'modelDescriptor';
    if (descriptorRoute && spec.auth === 'none' && !options.requireSignedUpdateChecks) {
      // the vendor's plain GET: the serial and the firmware version in two headers, nothing signed
      const serial = req.headers.get('x-device-serial');
      if (!serial || serial.length > 128) throw reject('BAD_REQUEST', 400, 'X-Device-Serial is required');
      if (!req.headers.get('x-device-version'))
        throw reject('BAD_REQUEST', 400, 'X-Device-Version is required');
      return { serial, body: new Uint8Array(0), json: {}, url, req };
    }
    const h = readSignatureHeaders(req.headers);
    if (!h) throw reject('SIGNATURE_MISSING', 401, 'signature headers missing or malformed');
    if (Math.abs(nowSeconds() - h.timestamp) > windowSeconds) {
      // checked before reading the body: a stale request costs nothing
      throw reject('TIMESTAMP_SKEW', 401, `X-Timestamp is more than ${windowSeconds} s from server time`, {
        server_time: nowSeconds(),
      });
    }
    let key: string | undefined;
    let salt = '';
    const isChunk = name === 'uploadChunk';
    if (spec.auth !== 'factory') {
      const d = devices.get(h.serial);
      if (!d) throw reject('UNKNOWN_DEVICE', 401, 'the device is not registered');
      key = d.deviceSecret;
      salt = d.salt;
    } else {
      key = factory.get(h.serial) ?? devices.get(h.serial)?.factorySecret;
      if (key === undefined) {
        // a new serial: admitted with the enrolment key, or by an open server
        const offered = req.headers.get('x-enrolment-key');
        const admitted =
          openRegistration ||
          (enrolmentKey !== undefined && offered !== null && timingSafeEqualHex(offered, enrolmentKey));
        if (!admitted) {
          throw reject(
            'ENROLMENT_REQUIRED',
            403,
            'this serial is unknown: registration needs an enrolment key',
          );
        }
        if (devices.size >= maxDevices) {
          throw reject('SERVER_FULL', 503, 'the server holds its maximum of devices');
        }
      }
    }
    const hash = crypto.createHash('sha256');
    const body = await readLimited(req, isChunk ? chunkBytes : maxJson, (c) => hash.update(c));
    const bodySha256 = hash.digest('hex');
    let parsed: Record<string, unknown> = {};
    if (!isChunk && body.length > 0) {
      try {
        const v = JSON.parse(Buffer.from(body).toString('utf8')) as unknown;
        if (!isObject(v)) throw new Error('not an object');
        parsed = v;
      } catch {
        throw reject('BAD_REQUEST', 400, 'the body is not a JSON object');
      }
    }
    if (key === undefined) {
      // a new serial signs its registration with the factory secret it sends
      if (typeof parsed.secret !== 'string') throw reject('BAD_REQUEST', 400, 'secret must be a string');
      key = parsed.secret;
    }
    const result = verifySignature({
      method: req.method,
      pathAndQuery,
      bodySha256,
      headers: req.headers,
      deviceSecret: key,
      salt,
      nowSeconds: nowSeconds(),
      windowSeconds,
      nonces,
    });
    if (!result.ok) {
      const extra: Record<string, unknown> = {};
      if (result.code === 'TIMESTAMP_SKEW') extra.server_time = nowSeconds();
      if (result.code === 'SIGNATURE_MISMATCH' && revealCanonical && result.canonical) {
        extra.canonical = redactCanonical(result.canonical);
      }
      if (result.code === 'NONCE_CACHE_FULL' || result.code === 'NONCE_RATE_LIMITED') {
        const retry = { 'retry-after': String(nonces.retryAfter(nowSeconds())) };
        throw reject(result.code, result.code === 'NONCE_CACHE_FULL' ? 503 : 429, result.message, {}, retry);
      }
      throw reject(result.code, 401, result.message, extra);
    }
    if (spec.auth === 'token') {
      const auth = req.headers.get('authorization') ?? '';
      const m = /^Bearer ([A-Za-z0-9_-]{16,128})$/.exec(auth);
      if (!m) throw reject('TOKEN_MISSING', 401, 'Authorization: Bearer <device token> is required');
      expireTokens();
      const t = tokens.get(m[1]!);
      if (!t || t.serial !== h.serial) throw reject('TOKEN_INVALID', 401, 'unknown device token');
      if (t.expiresAt <= nowSeconds()) {
        dropToken(m[1]!);
        throw reject('TOKEN_EXPIRED', 401, 'the device token expired');
      }
    }
    return { serial: h.serial, body, json: parsed, url, req };
  }

  const str = (v: unknown, what: string, max = 256): string => {
    if (typeof v !== 'string' || v.length === 0 || v.length > max) {
      throw reject('BAD_REQUEST', 400, `${what} must be a non-empty string`);
    }
    return v;
  };

  function descriptorFor(kind: UpdateKind, origin: string): UpdateDescriptor | undefined {
    const p = packages.get(kind);
    if (!p) return undefined;
    return {
      version: p.release.version,
      download_url: `${origin}${routes.otaPackage.path.replace(':name', p.fileName)}`,
      file_md5: p.md5,
      descriptions: p.release.descriptions ?? {},
      forced: p.release.forced ?? false,
    };
  }

  // ---- uploads: bounded bytes (finished + reserved by open uploads), bounded open uploads ----
  const heldBytes = () =>
    finished.reduce((n, f) => n + f.size, 0) + [...open.values()].reduce((n, u) => n + u.size, 0);

  async function dropOpen(u: OpenUpload) {
    open.delete(u.id);
    if (openByKey.get(u.key) === u.id) openByKey.delete(u.key);
    u.chunks = [];
    if (u.path) await fs.promises.rm(u.path, { force: true });
  }
  async function dropFinished(i: number) {
    const [f] = finished.splice(i, 1);
    if (f?.path) await fs.promises.rm(f.path, { force: true });
  }
  async function sweepUploads() {
    const now = clock.now();
    for (const u of [...open.values()]) if (now - u.touched > uploadIdleMs) await dropOpen(u);
  }

  async function uploadStart(a: Authed): Promise<Response> {
    const meetingId = str(a.json.meeting_id, 'meeting_id');
    const fileName = str(a.json.file_name, 'file_name');
    const size = a.json.size;
    const sha256 = a.json.sha256;
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
      throw reject('BAD_REQUEST', 400, 'size must be a whole number of bytes');
    }
    if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) {
      throw reject('BAD_REQUEST', 400, 'sha256 must be 64 lowercase hex digits');
    }
    if (size > maxUpload)
      throw reject('PAYLOAD_TOO_LARGE', 413, `a meeting file is at most ${maxUpload} bytes`);
    const key = `${a.serial}\n${meetingId}\n${fileName}`;
    const done = finished.find((f) => f.key === key);
    if (done && done.size === size && done.sha256 === sha256) {
      return json(200, {
        upload_id: done.id,
        received: size,
        chunk_bytes: chunkBytes,
        complete: true,
        file_id: `${meetingId}/${fileName}`,
        size,
        sha256,
      });
    }
    await sweepUploads();
    const existingId = openByKey.get(key);
    const existing = existingId ? open.get(existingId) : undefined;
    if (existing && existing.size === size && existing.sha256 === sha256) {
      existing.touched = clock.now();
      return json(200, { upload_id: existing.id, received: existing.received, chunk_bytes: chunkBytes });
    }
    if (existing) await dropOpen(existing); // the same name with other content: start over
    if (open.size >= maxOpenUploads) {
      throw reject('UPLOAD_CAPACITY', 503, 'too many open uploads', {}, { 'retry-after': '60' });
    }
    // make room: the oldest finished uploads go first
    while (heldBytes() + size > maxStored && finished.length > 0) await dropFinished(0);
    if (heldBytes() + size > maxStored) {
      throw reject(
        'UPLOAD_CAPACITY',
        503,
        'the server holds its maximum of upload bytes',
        {},
        { 'retry-after': '60' },
      );
    }
    const id = crypto.randomBytes(16).toString('hex');
    const u: OpenUpload = {
      id,
      key,
      serial: a.serial,
      meetingId,
      fileName,
      size,
      sha256,
      received: 0,
      hash: crypto.createHash('sha256'),
      chunks: [],
      touched: clock.now(),
    };
    if (uploadDir) {
      u.path = path.join(uploadDir, `${id}.part`);
      await fs.promises.writeFile(u.path, new Uint8Array(0), { mode: 0o600 });
    }
    open.set(id, u);
    openByKey.set(key, id);
    log.info?.('meeting file upload started', { serial: a.serial, meetingId, size });
    return json(200, { upload_id: id, received: 0, chunk_bytes: chunkBytes });
  }

  async function uploadChunk(a: Authed): Promise<Response> {
    const id = str(a.url.searchParams.get('upload_id'), 'upload_id', 64);
    const offsetText = a.url.searchParams.get('offset') ?? '';
    if (!/^\d{1,15}$/.test(offsetText)) throw reject('BAD_REQUEST', 400, 'offset must be a whole number');
    const offset = Number(offsetText);
    const u = open.get(id);
    if (!u || u.serial !== a.serial)
      throw reject('UPLOAD_UNKNOWN', 404, 'no such open upload: start it again');
    u.touched = clock.now();
    if (offset !== u.received) {
      ustats.misplaced++;
      throw reject('OFFSET_MISMATCH', 409, `the upload stands at ${u.received}`, { received: u.received });
    }
    const bytes = a.body;
    if (bytes.length === 0 || u.received + bytes.length > u.size) {
      throw reject('BAD_REQUEST', 400, `a chunk holds 1..${u.size - u.received} bytes here`);
    }
    if (u.path) await fs.promises.appendFile(u.path, bytes);
    else u.chunks.push(Buffer.from(bytes));
    u.hash.update(bytes);
    u.received += bytes.length;
    ustats.chunks++;
    ustats.bytes += bytes.length;
    if (u.received < u.size) return json(200, { received: u.received });
    const sha256 = u.hash.digest('hex');
    if (sha256 !== u.sha256) {
      await dropOpen(u);
      throw reject('UPLOAD_HASH_MISMATCH', 422, 'the file does not match its sha256: upload it again');
    }
    open.delete(u.id);
    openByKey.delete(u.key);
    const previous = finished.findIndex((f) => f.key === u.key);
    if (previous >= 0) await dropFinished(previous);
    const rec: FinishedUpload = {
      id: u.id,
      key: u.key,
      serial: u.serial,
      meetingId: u.meetingId,
      fileName: u.fileName,
      size: u.size,
      sha256,
    };
    if (u.path) {
      rec.path = u.path.slice(0, -'.part'.length);
      await fs.promises.rename(u.path, rec.path);
    } else {
      rec.data = Buffer.concat(u.chunks, u.size);
    }
    finished.push(rec);
    while (finished.length > maxFinished) await dropFinished(0);
    log.info?.('meeting file received', { serial: u.serial, meetingId: u.meetingId, bytes: u.size });
    return json(200, {
      received: u.size,
      complete: true,
      file_id: `${u.meetingId}/${u.fileName}`,
      size: u.size,
      sha256,
    });
  }

  const handlers: Record<Exclude<RouteName, 'otaPackage'>, (a: Authed) => Response | Promise<Response>> = {
    register(a) {
      const clientVersion = str(a.json.client_version, 'client_version', 64);
      if (str(a.json.serial, 'serial') !== a.serial)
        throw reject('BAD_REQUEST', 400, 'serial differs from the header');
      if (typeof a.json.timestamp !== 'number')
        throw reject('BAD_REQUEST', 400, 'timestamp must be a number');
      const secret = str(a.json.secret, 'secret', 512);
      const expected = factory.get(a.serial) ?? devices.get(a.serial)?.factorySecret ?? secret;
      if (!timingSafeEqualHex(secret, expected)) throw reject('UNKNOWN_DEVICE', 403, 'wrong device secret');
      let d = devices.get(a.serial);
      if (!d) {
        if (devices.size >= maxDevices)
          throw reject('SERVER_FULL', 503, 'the server holds its maximum of devices');
        d = {
          serial: a.serial,
          factorySecret: secret,
          deviceSecret: crypto.randomBytes(32).toString('hex'),
          salt: crypto.randomBytes(16).toString('hex'),
          clientVersion,
          registeredAt: clock.now(),
          analyticsId: crypto.randomUUID(),
        };
        devices.set(a.serial, d);
        log.info?.('device registered', { serial: a.serial, clientVersion });
      }
      return json(200, { device_secret: d.deviceSecret, salt: d.salt });
    },
    refreshToken(a) {
      const d = devices.get(a.serial)!;
      if (str(a.json.serial, 'serial') !== a.serial)
        throw reject('BAD_REQUEST', 400, 'serial differs from the header');
      if (typeof a.json.nonce !== 'string' || !/^[a-z]{16}$/.test(a.json.nonce)) {
        throw reject('BAD_REQUEST', 400, 'nonce must be 16 lowercase letters');
      }
      str(a.json.area_url, 'area_url', 2048);
      const ok =
        timingSafeEqualHex(str(a.json.device_secret, 'device_secret', 512), d.deviceSecret) &&
        timingSafeEqualHex(str(a.json.salt, 'salt', 512), d.salt) &&
        timingSafeEqualHex(str(a.json.secret, 'secret', 512), d.factorySecret);
      if (!ok) throw reject('UNKNOWN_DEVICE', 403, 'credentials do not match the registration');
      expireTokens();
      const token = crypto.randomBytes(32).toString('base64url');
      tokens.set(token, { serial: a.serial, expiresAt: nowSeconds() + tokenTtl });
      const list = tokensOf.get(a.serial) ?? [];
      list.push(token);
      tokensOf.set(a.serial, list);
      while (list.length > tokensPerDevice) dropToken(list[0]!);
      log.info?.('device token issued', { serial: a.serial, ttl: tokenTtl });
      return json(200, { token, expires_in: tokenTtl });
    },
    firmwareDescriptor: (a) => descriptorResponse('psp_firmware', a),
    modelDescriptor: (a) => descriptorResponse('psp_model', a),
    passwordSendCode(a) {
      const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
      codes.set(a.serial, { code, expiresAt: nowSeconds() + 600, attempts: 0 });
      log.info?.('password recovery code sent', { serial: a.serial });
      return json(200, { sent: true });
    },
    passwordVerifyCode(a) {
      const code = str(a.json.code, 'code', 16);
      const expected = codes.get(a.serial);
      let verified = false;
      if (expected && expected.expiresAt > nowSeconds()) {
        verified = timingSafeEqualHex(code, expected.code);
        expected.attempts++;
        // five guesses per code: a six-digit code cannot be walked
        if (verified || expected.attempts >= 5) codes.delete(a.serial);
      } else {
        codes.delete(a.serial);
      }
      return json(200, { verified });
    },
    uploadStart,
    uploadChunk,
    uploadComplete(a) {
      const meetingId = str(a.json.meeting_id, 'meeting_id');
      if (!Array.isArray(a.json.files) || a.json.files.length > 1000) {
        throw reject('BAD_REQUEST', 400, 'files must be an array of at most 1000 names');
      }
      const missing = a.json.files.filter(
        (f) => !finished.some((u) => u.meetingId === meetingId && u.fileName === f && u.serial === a.serial),
      );
      if (missing.length > 0) throw reject('CONFLICT', 409, `files not uploaded: ${missing.length}`);
      addNotice({ route: 'uploadComplete', serial: a.serial, body: a.json });
      return json(200, { ok: true });
    },
    transcriptionStart(a) {
      str(a.json.meeting_id, 'meeting_id');
      addNotice({ route: 'transcriptionStart', serial: a.serial, body: a.json });
      return json(200, { task_id: crypto.randomUUID() });
    },
    asrNotice: (a) => notice('asrNotice', a),
    syncWords: (a) => notice('syncWords', a),
    dotNotice: (a) => notice('dotNotice', a),
    async telemetry(a) {
      const b = a.json;
      if (b.app_id !== ANALYTICS_APP_ID)
        throw reject('BAD_REQUEST', 400, `app_id must be ${ANALYTICS_APP_ID}`);
      if (b.user_unique_id !== a.serial)
        throw reject('BAD_REQUEST', 400, 'user_unique_id differs from the serial');
      if (!Array.isArray(b.events) || b.events.length > 1000)
        throw reject('BAD_REQUEST', 400, 'events: 0..1000');
      let accepted = 0;
      let duplicates = 0;
      for (const e of b.events as unknown[]) {
        if (
          !isObject(e) ||
          typeof e.uuid !== 'string' ||
          e.uuid.length > 64 ||
          typeof e.event !== 'string' ||
          !isObject(e.params)
        ) {
          throw reject(
            'BAD_REQUEST',
            400,
            'every event needs uuid (at most 64 characters), event and params',
          );
        }
      }
      for (const e of b.events as TelemetryEvent[]) {
        if (seenEvents.has(e.uuid)) {
          duplicates++;
          continue;
        }
        seenEvents.add(e.uuid);
        telemetry.push(e);
        accepted++;
      }
      // the newest events stay; the de-duplication window is the same size
      const dropped = trim(telemetry, maxEvents);
      if (dropped > 0) {
        tstats.dropped += dropped;
        for (const uuid of seenEvents) {
          if (seenEvents.size <= maxEvents) break;
          seenEvents.delete(uuid);
        }
      }
      tstats.batches++;
      tstats.received += accepted;
      tstats.duplicates += duplicates;
      log.debug?.('telemetry batch', { serial: a.serial, accepted, duplicates });
      await options.onTelemetryBatch?.({ serial: a.serial, accepted, duplicates });
      return json(200, { accepted, duplicates, device_id: devices.get(a.serial)?.analyticsId });
    },
  };

  function addNotice(n: ReceivedNotice) {
    notices.push(n);
    trim(notices, maxNotices);
  }

  function notice(route: 'asrNotice' | 'syncWords' | 'dotNotice', a: Authed) {
    str(a.json.meeting_id, 'meeting_id');
    addNotice({ route, serial: a.serial, body: a.json });
    return json(200, { ok: true });
  }

  function descriptorResponse(kind: UpdateKind, a: Authed): Response {
    // X-Device-Version is the firmware version on both checks: it can only rule out the
    // firmware release the device already runs; the device compares the model version itself
    const firmwareVersion = a.req.headers.get('x-device-version');
    const d = descriptorFor(kind, a.url.origin);
    if (!d || (kind === 'psp_firmware' && d.version === firmwareVersion))
      return new Response(null, { status: 204 });
    return json(200, d);
  }

  function servePackage(req: Request, name: string): Response {
    const p = [...packages.values()].find((x) => x.fileName === name);
    if (!p) throw new RequestError(404, 'NOT_FOUND', 'no such package');
    const data = p.release.data;
    const size = data.length;
    const base = {
      'accept-ranges': 'bytes',
      etag: p.etag,
      'content-type': 'application/octet-stream',
    };
    const r = parseRange(req.headers.get('range'), size, req.headers.get('if-range'), p.etag);
    const head = req.method === 'HEAD';
    if (r.kind === 'unsatisfiable') {
      return new Response(null, { status: 416, headers: { ...base, 'content-range': `bytes */${size}` } });
    }
    if (r.kind === 'partial') {
      const slice = data.subarray(r.start, r.end + 1);
      return new Response(head ? null : slice, {
        status: 206,
        headers: {
          ...base,
          'content-range': `bytes ${r.start}-${r.end}/${size}`,
          'content-length': String(slice.length),
        },
      });
    }
    return new Response(head ? null : data, {
      status: 200,
      headers: { ...base, 'content-length': String(size) },
    });
  }

  function errorResponse(error: unknown, name: RouteName): Response {
    if (error instanceof RequestError) {
      if (error.status === 401 || error.status === 403) {
        log.warn?.('request rejected', { route: name, code: error.code });
      }
      return json(
        error.status,
        { error: { code: error.code, message: error.message, ...error.extra } },
        error.headers,
      );
    }
    log.error?.('request failed', { route: name, error: (error as Error)?.message });
    return json(500, { error: { code: 'INTERNAL', message: 'internal error' } });
  }

  const app = new H3();
  for (const name of Object.keys(routes) as RouteName[]) {
    const spec = routes[name];
    const handle = async (event: H3Event): Promise<Response> => {
      const req = event.req as Request;
      const url = new URL(req.url);
      const count = (counts.get(name) ?? 0) + 1;
      counts.set(name, count);
      try {
        const intercepted = await options.intercept?.({
          route: name,
          method: req.method,
          pathAndQuery: url.pathname + url.search,
          headers: req.headers,
          count,
        });
        if (intercepted) return intercepted;
        if (name === 'otaPackage') {
          const file = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
          return servePackage(req, file);
        }
        const authed = await authenticate(name, spec, req, url);
        return await handlers[name](authed);
      } catch (error) {
        return errorResponse(error, name);
      }
    };
    app.on(spec.method, spec.path, handle);
    if (spec.method === 'GET') app.on('HEAD', spec.path, handle);
  }
  app.all('/**', () => json(404, { error: { code: 'NOT_FOUND', message: 'no such route' } }));

  const listeners = new Set<ListeningServer>();

  return {
    app,
    routes,
    fetch: async (request) => app.fetch(request),
    async listen(opts = {}) {
      const handler = toNodeHandler(app);
      const server = opts.tls
        ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler)
        : http.createServer(handler);
      server.maxConnections = maxConnections;
      const where = await listenServer(server, {
        host: opts.host ?? '127.0.0.1',
        port: opts.port ?? 0,
        protocol: opts.tls ? 'https' : 'http',
      });
      log.info?.('cloud server listening', { url: where.url });
      let closing: Promise<void> | undefined;
      const listening: ListeningServer = {
        ...where,
        close() {
          listeners.delete(listening);
          closing ??= closeServer(server);
          return closing;
        },
      };
      listeners.add(listening);
      return listening;
    },
    async close() {
      await Promise.all([...listeners].map((l) => l.close()));
    },
    publishUpdate,
    withdrawUpdate(kind) {
      packages.delete(kind);
    },
    devices: () => {
      expireTokens();
      return [...devices.values()].map((d) => ({
        serial: d.serial,
        registeredAt: d.registeredAt,
        clientVersion: d.clientVersion,
        tokens: tokensOf.get(d.serial)?.length ?? 0,
      }));
    },
    telemetry: () => [...telemetry],
    telemetryStats: () => ({ ...tstats }),
    uploads: () => finished.map(({ id: _id, key: _key, ...u }) => ({ ...u })),
    uploadStats: () => ({ ...ustats, open: open.size }),
    notices: () => [...notices],
    passwordCode: (serial) => codes.get(serial)?.code,
    rejections: () => ({ ...rejections }),
    revokeTokens(serial) {
      for (const t of [...(tokensOf.get(serial) ?? [])]) dropToken(t);
    },
  };
}
