// Reference cloud server (h3): the same route table as the client, signature verification, devices,
// tokens, update descriptors and packages with Range, uploads, notices and de-duplicated telemetry.
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { H3, type H3Event, toNodeHandler } from 'h3';
import { type Clock, type Logger, systemClock } from './clock.js';
import { ANALYTICS_APP_ID, SIGNATURE_WINDOW_SECONDS } from './constants.js';
import { UPDATE_KINDS, type UpdateDescriptor, type UpdateKind } from './descriptor.js';
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

export interface CloudServerOptions {
  routes?: RouteOverrides;
  /** Server clock (signature window, token expiry). */
  clock?: Pick<Clock, 'now'>;
  logger?: Logger;
  /** Accepted timestamp distance in seconds (default 300). */
  windowSeconds?: number;
  /** Bound of the nonce replay cache (default 100 000 entries; the oldest are evicted first). */
  nonceCacheSize?: number;
  /**
   * Devices known in advance with their factory secrets; with `deviceSecret` and `salt` they start
   * out registered (fixtures, signature vectors).
   */
  devices?: ReadonlyArray<{ serial: string; secret: string; deviceSecret?: string; salt?: string }>;
  /** Accept registration from serials not in `devices` (default true). */
  openRegistration?: boolean;
  /** Device token lifetime (default 3600 s). */
  tokenTtlSeconds?: number;
  /** Releases to serve from the start. */
  ota?: Partial<Record<UpdateKind, OtaRelease>>;
  /** Put the server's canonical string (salt redacted) in SIGNATURE_MISMATCH answers (default true). */
  revealCanonicalOnMismatch?: boolean;
  /** Largest JSON body (default 1 MiB). */
  maxJsonBytes?: number;
  /** Largest uploaded meeting file (default 256 MiB). */
  maxUploadBytes?: number;
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
  data: Uint8Array;
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
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface CloudServer {
  readonly app: H3;
  readonly routes: RouteTable;
  /** WHATWG fetch handler (for in-process use without a socket). */
  fetch(request: Request): Promise<Response>;
  listen(options?: ListenOptions): Promise<ListeningServer>;
  /** Offers a release; returns the descriptor devices will get (relative download path). */
  publishUpdate(kind: UpdateKind, release: OtaRelease): { fileName: string; md5: string };
  withdrawUpdate(kind: UpdateKind): void;
  devices(): RegisteredDevice[];
  /** Unique telemetry events, in arrival order. */
  telemetry(): TelemetryEvent[];
  telemetryStats(): { batches: number; received: number; duplicates: number };
  uploads(): ReceivedUpload[];
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
  | 'TOKEN_MISSING'
  | 'TOKEN_INVALID'
  | 'TOKEN_EXPIRED'
  | 'BAD_REQUEST'
  | 'PAYLOAD_TOO_LARGE'
  | 'NOT_FOUND'
  | 'CONFLICT';

class RequestError extends Error {
  readonly status: number;
  readonly code: CloudServerErrorCode;
  readonly extra: Record<string, unknown>;
  constructor(
    status: number,
    code: CloudServerErrorCode,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
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
  const declared = Number(req.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > limit) {
    throw new RequestError(413, 'PAYLOAD_TOO_LARGE', `body larger than ${limit} bytes`);
  }
  if (!req.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > limit) throw new RequestError(413, 'PAYLOAD_TOO_LARGE', `body larger than ${limit} bytes`);
    onChunk?.(chunk);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

export function createCloudServer(options: CloudServerOptions = {}): CloudServer {
  const routes = resolveRoutes(options.routes);
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? {};
  const windowSeconds = options.windowSeconds ?? SIGNATURE_WINDOW_SECONDS;
  const nonces = createNonceCache({
    ttlSeconds: 2 * windowSeconds,
    maxEntries: options.nonceCacheSize ?? 100_000,
  });
  const openRegistration = options.openRegistration ?? true;
  const tokenTtl = options.tokenTtlSeconds ?? 3600;
  const maxJson = options.maxJsonBytes ?? 1024 * 1024;
  const maxUpload = options.maxUploadBytes ?? 256 * 1024 * 1024;
  const revealCanonical = options.revealCanonicalOnMismatch ?? true;

  const factory = new Map((options.devices ?? []).map((d) => [d.serial, d.secret]));
  const devices = new Map<string, DeviceRecord>();
  const tokens = new Map<string, { serial: string; expiresAt: number }>();
  const packages = new Map<UpdateKind, PackageRecord>();
  const telemetry: TelemetryEvent[] = [];
  const seenEvents = new Set<string>();
  const tstats = { batches: 0, received: 0, duplicates: 0 };
  const uploads: ReceivedUpload[] = [];
  const notices: ReceivedNotice[] = [];
  const codes = new Map<string, string>();
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
    if (!UPDATE_KINDS.includes(kind)) throw new TypeError(`unknown update kind ${kind}`);
    const fileName = release.fileName ?? `${kind}-${release.version}.swu`;
    if (!/^[A-Za-z0-9._-]{1,128}$/.test(fileName)) throw new TypeError(`bad package file name ${fileName}`);
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
  ) {
    rejections[code] = (rejections[code] ?? 0) + 1;
    return new RequestError(status, code, message, extra);
  }

  interface Authed {
    serial: string;
    body: Uint8Array;
    json: Record<string, unknown>;
    url: URL;
    req: Request;
    upload?: { sha256: string };
  }

  async function authenticate(name: RouteName, spec: RouteSpec, req: Request, url: URL): Promise<Authed> {
    const pathAndQuery = url.pathname + url.search;
    const h = readSignatureHeaders(req.headers);
    if (!h) throw reject('SIGNATURE_MISSING', 401, 'signature headers missing or malformed');
    if (Math.abs(nowSeconds() - h.timestamp) > windowSeconds) {
      // checked before reading the body: a stale request costs nothing
      throw reject('TIMESTAMP_SKEW', 401, `X-Timestamp is more than ${windowSeconds} s from server time`, {
        server_time: nowSeconds(),
      });
    }
    const isUpload = name === 'meetingUpload';
    const hash = crypto.createHash('sha256');
    const body = await readLimited(req, isUpload ? maxUpload : maxJson, (c) => hash.update(c));
    const bodySha256 = hash.digest('hex');
    let parsed: Record<string, unknown> = {};
    if (!isUpload && body.length > 0) {
      try {
        const v = JSON.parse(Buffer.from(body).toString('utf8')) as unknown;
        if (!isObject(v)) throw new Error('not an object');
        parsed = v;
      } catch {
        throw reject('BAD_REQUEST', 400, 'the body is not a JSON object');
      }
    }
    let key: string | undefined;
    let salt = '';
    if (spec.auth === 'factory') {
      key = factory.get(h.serial) ?? devices.get(h.serial)?.factorySecret;
      if (key === undefined && openRegistration && typeof parsed.secret === 'string') key = parsed.secret;
      if (key === undefined) throw reject('UNKNOWN_DEVICE', 403, 'this serial may not register');
    } else {
      const d = devices.get(h.serial);
      if (!d) throw reject('UNKNOWN_DEVICE', 401, 'the device is not registered');
      key = d.deviceSecret;
      salt = d.salt;
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
      throw reject(result.code, 401, result.message, extra);
    }
    if (spec.auth === 'token') {
      const auth = req.headers.get('authorization') ?? '';
      const m = /^Bearer ([A-Za-z0-9_-]{16,128})$/.exec(auth);
      if (!m) throw reject('TOKEN_MISSING', 401, 'Authorization: Bearer <device token> is required');
      const t = tokens.get(m[1]!);
      if (!t || t.serial !== h.serial) throw reject('TOKEN_INVALID', 401, 'unknown device token');
      if (t.expiresAt <= nowSeconds()) {
        tokens.delete(m[1]!);
        throw reject('TOKEN_EXPIRED', 401, 'the device token expired');
      }
    }
    return {
      serial: h.serial,
      body,
      json: parsed,
      url,
      req,
      ...(isUpload ? { upload: { sha256: bodySha256 } } : {}),
    };
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
      const token = crypto.randomBytes(32).toString('base64url');
      tokens.set(token, { serial: a.serial, expiresAt: nowSeconds() + tokenTtl });
      log.info?.('device token issued', { serial: a.serial, ttl: tokenTtl });
      return json(200, { token, expires_in: tokenTtl });
    },
    firmwareDescriptor: (a) => descriptorResponse('psp_firmware', a),
    modelDescriptor: (a) => descriptorResponse('psp_model', a),
    passwordSendCode(a) {
      const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
      codes.set(a.serial, code);
      log.info?.('password recovery code sent', { serial: a.serial });
      return json(200, { sent: true });
    },
    passwordVerifyCode(a) {
      const code = str(a.json.code, 'code', 16);
      const expected = codes.get(a.serial);
      const verified = expected !== undefined && timingSafeEqualHex(code, expected);
      if (verified) codes.delete(a.serial);
      return json(200, { verified });
    },
    meetingUpload(a) {
      const meetingId = str(a.url.searchParams.get('meeting_id'), 'meeting_id');
      const fileName = str(a.url.searchParams.get('file_name'), 'file_name');
      const sha256 = a.upload!.sha256;
      const existing = uploads.findIndex((u) => u.meetingId === meetingId && u.fileName === fileName);
      const rec = { serial: a.serial, meetingId, fileName, size: a.body.length, sha256, data: a.body };
      if (existing >= 0) uploads[existing] = rec;
      else uploads.push(rec);
      log.info?.('meeting file received', { serial: a.serial, meetingId, bytes: a.body.length });
      return json(200, { file_id: `${meetingId}/${fileName}`, size: a.body.length, sha256 });
    },
    uploadComplete(a) {
      const meetingId = str(a.json.meeting_id, 'meeting_id');
      if (!Array.isArray(a.json.files)) throw reject('BAD_REQUEST', 400, 'files must be an array');
      const missing = a.json.files.filter(
        (f) => !uploads.some((u) => u.meetingId === meetingId && u.fileName === f && u.serial === a.serial),
      );
      if (missing.length > 0) throw reject('CONFLICT', 409, `files not uploaded: ${missing.length}`);
      notices.push({ route: 'uploadComplete', serial: a.serial, body: a.json });
      return json(200, { ok: true });
    },
    transcriptionStart(a) {
      str(a.json.meeting_id, 'meeting_id');
      notices.push({ route: 'transcriptionStart', serial: a.serial, body: a.json });
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
          typeof e.event !== 'string' ||
          !isObject(e.params)
        ) {
          throw reject('BAD_REQUEST', 400, 'every event needs uuid, event and params');
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
      tstats.batches++;
      tstats.received += accepted;
      tstats.duplicates += duplicates;
      log.debug?.('telemetry batch', { serial: a.serial, accepted, duplicates });
      await options.onTelemetryBatch?.({ serial: a.serial, accepted, duplicates });
      return json(200, { accepted, duplicates, device_id: devices.get(a.serial)?.analyticsId });
    },
  };

  function notice(route: 'asrNotice' | 'syncWords' | 'dotNotice', a: Authed) {
    str(a.json.meeting_id, 'meeting_id');
    notices.push({ route, serial: a.serial, body: a.json });
    return json(200, { ok: true });
  }

  function descriptorResponse(kind: UpdateKind, a: Authed): Response {
    const version = a.req.headers.get('x-device-version');
    const d = descriptorFor(kind, a.url.origin);
    if (!d || d.version === version) return new Response(null, { status: 204 });
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
      return json(error.status, { error: { code: error.code, message: error.message, ...error.extra } });
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

  return {
    app,
    routes,
    fetch: async (request) => app.fetch(request),
    async listen(opts = {}) {
      const handler = toNodeHandler(app);
      const server = opts.tls
        ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler)
        : http.createServer(handler);
      const host = opts.host ?? '127.0.0.1';
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(opts.port ?? 0, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const port = (server.address() as AddressInfo).port;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      const url = `${opts.tls ? 'https' : 'http'}://${urlHost}:${port}`;
      log.info?.('cloud server listening', { url });
      return {
        url,
        port,
        close: () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      };
    },
    publishUpdate,
    withdrawUpdate(kind) {
      packages.delete(kind);
    },
    devices: () =>
      [...devices.values()].map((d) => ({
        serial: d.serial,
        registeredAt: d.registeredAt,
        clientVersion: d.clientVersion,
        tokens: [...tokens.values()].filter((t) => t.serial === d.serial && t.expiresAt > nowSeconds())
          .length,
      })),
    telemetry: () => [...telemetry],
    telemetryStats: () => ({ ...tstats }),
    uploads: () => [...uploads],
    notices: () => [...notices],
    passwordCode: (serial) => codes.get(serial),
    rejections: () => ({ ...rejections }),
    revokeTokens(serial) {
      for (const [t, v] of tokens) if (v.serial === serial) tokens.delete(t);
    },
  };
}
