// The signed cloud client.
import { nodeCrypto } from './builtins.js';
import { type Clock, type Logger, sleep, systemClock } from './clock.js';
import {
  CLIENT_VERSION,
  CLOUD_TIMEOUT_MS,
  DATABASE_ENTRY,
  DEFAULT_TOKEN_TTL_SECONDS,
  MAX_RESPONSE_BYTES,
  TRANSCRIPTION_RETRY_DELAY_MS,
  type TranscriptionMode,
  UPLOAD_CHUNK_BYTES,
  USER_AGENT,
} from './constants.js';
import { type CredentialStore, loadCredentials, saveRegistration } from './credentials.js';
import { parseUpdateDescriptor, type UpdateDescriptor, type UpdateKind } from './descriptor.js';
import { CloudError, isCloudError } from './errors.js';
import {
  type BaseUrlOverrides,
  type BaseUrls,
  type CloudArea,
  type Environment,
  type Region,
  resolveCloudArea,
} from './region.js';
import {
  type RouteAuth,
  type RouteName,
  type RouteOverrides,
  type RouteTable,
  resolveRoutes,
  routePath,
} from './routes.js';
import { createNonce, redactCanonical, sha256Hex, signRequest } from './signature.js';
import type { TelemetryAck, TelemetryBatch } from './telemetry-events.js';
import {
  type CloudTlsOptions,
  createNodeTransport,
  fetchTransport,
  type HttpResponse,
  type HttpTransport,
} from './transport.js';
import type { UploadSource } from './upload-source.js';

/** Headers the vendor's devices send on every cloud POST (requests without a body leave out `Content-Type`). */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  'user-agent': USER_AGENT,
  accept: '*/*',
  'cache-control': 'no-cache',
  'accept-encoding': 'gzip, deflate, br',
  connection: 'keep-alive',
};

/** Header carrying the fleet enrolment key on registration (a server may require it for new serials). */
export const ENROLMENT_KEY_HEADER = 'x-enrolment-key';

export interface RetryOptions {
  /** Extra attempts after the first, for idempotent routes (default 3). */
  retries?: number;
  /** Delay before the first retry (default 500 ms); doubles each time. */
  baseDelayMs?: number;
  /** Cap of one delay (default 30 s). `Retry-After` from the server is honoured up to this cap. */
  maxDelayMs?: number;
}

export interface UploadOptions {
  /** Bytes per chunk (default 4 MiB); the server's `chunk_bytes` wins when it is smaller. */
  chunkBytes?: number;
  /** Failed chunk attempts in a row without progress before the upload gives up (default `retry.retries`, 3). */
  retries?: number;
  /** Delay before the first retry of a chunk (default 1 s); doubles per failure. */
  baseDelayMs?: number;
  /** Cap of one delay (default 60 s). */
  maxDelayMs?: number;
}

export type { CloudTlsOptions } from './transport.js';

export interface CloudClientOptions {
  credentials: CredentialStore;
  /** Where requests go, from `resolveCloudArea()`; wins over the five routing options below. */
  area?: CloudArea;
  /** ISO country code: CN → cn, US → us, others → eu (ignored when `region` is given). */
  countryCode?: string;
  region?: Region;
  /** `'production' | 'test'`, or the global OTA environment flag (1 = test). */
  environment?: Environment | number | boolean;
  /** Points all three services at one URL (the reference server). */
  baseUrl?: string;
  /** Per environment and region overrides of the base URLs. */
  baseUrls?: BaseUrlOverrides;
  routes?: RouteOverrides;
  /** Timestamps, token expiry and backoff (`{ now, setTimeout, clearTimeout }`). */
  clock?: Clock;
  logger?: Logger;
  /** A WHATWG fetch to send requests with; by default node:http/https with the `tls` options. */
  fetch?: typeof globalThis.fetch;
  tls?: CloudTlsOptions | undefined;
  /** Cap on a whole JSON request (default 100 s, the vendor's transfer timeout). Uploads have none. */
  timeoutMs?: number;
  /** Connection set-up, TCP and TLS (default 100 s, the vendor's connect timeout). */
  connectTimeoutMs?: number;
  /** No byte sent or received for this long fails a request (default 100 s). */
  stallTimeoutMs?: number;
  /** Largest response body, after decompression (default 1 MiB): a bigger one is refused. */
  maxResponseBytes?: number;
  retry?: RetryOptions | undefined;
  upload?: UploadOptions;
  /** CSPRNG used for nonces (injectable for vectors). */
  random?: (n: number) => Uint8Array;
  /** The firmware version: `X-Device-Version` on both update checks. */
  firmwareVersion?: string;
  /**
   * Sign the update checks with `device_secret` (needs registration). Default false: the vendor's
   * plain GET with `X-Device-Serial` and `X-Device-Version`, which works before registration.
   */
  signedUpdateChecks?: boolean;
  /** Sent as `X-Enrolment-Key` on registration, for servers that admit new serials only with it. */
  enrolmentKey?: string;
  /**
   * When the server rejects a request for clock skew, adopt the server's time (from its `Date`
   * header or `server_time`) and retry once. Default true: a device without RTC can sign right
   * after boot.
   */
  syncClockFromServer?: boolean;
}

export interface MeetingUploadResult {
  file_id: string;
  size: number;
  sha256: string;
  /** Bytes the server already held when this call started (0 for a fresh upload). */
  resumedFrom: number;
}

/** A device token and when to refresh it. */
export interface DeviceToken {
  token: string;
  /** Lifetime the server gave (`expires_in`, s), or `DEFAULT_TOKEN_TTL_SECONDS` when it gave none. */
  expiresIn: number;
  /** Expiry, Unix ms on the client's clock. */
  expiresAt: number;
  /** When to refresh: min(5 min, 20 % of the lifetime) before expiry. */
  refreshAt: number;
  /** `refreshAt - now` at the time of the refresh, clamped to 1 s .. 24 h: what a scheduler waits. */
  refreshInMs: number;
}

export interface CloudClient {
  readonly region: Region;
  readonly environment: Environment;
  readonly baseUrls: BaseUrls;
  readonly routes: RouteTable;
  /** Registers the device (factory secret, entry 0xe7) and stores `device_secret`/`salt` (0x11a/0x11b, slots 0xe/0xf). */
  register(): Promise<void>;
  /** Refreshes the device token (16-letter CSPRNG nonce) and stores it in entry 0xe8. */
  refreshToken(): Promise<DeviceToken>;
  /** The token from the last refresh of this client, with its expiry. */
  readonly token: DeviceToken | undefined;
  /**
   * Update descriptor for `psp_firmware` or `psp_model`; null when the server has none (204). A
   * plain GET with `X-Device-Serial` and `X-Device-Version` = the firmware version, on both checks.
   */
  getUpdateDescriptor(
    kind: UpdateKind,
    options?: {
      /** Overrides the client's `firmwareVersion` for this check. */
      firmwareVersion?: string;
      /** @deprecated Same as `firmwareVersion` (it is always the firmware version). */
      version?: string;
    },
  ): Promise<UpdateDescriptor | null>;
  sendPasswordRecoveryCode(): Promise<{ sent: boolean }>;
  verifyPasswordRecoveryCode(code: string): Promise<{ verified: boolean }>;
  /**
   * Uploads one meeting file in chunks. Resumes where the server's copy ends (after a cut, or in a
   * later call); a failed chunk is sent again with backoff, and the upload gives up after
   * `upload.retries` failures in a row without progress (`CLOUD_UPLOAD_INCOMPLETE`).
   */
  uploadMeetingFile(input: {
    meetingId: string;
    fileName: string;
    source: UploadSource;
    /** Called after each acknowledged chunk with the bytes the server holds. */
    onProgress?: (received: number, size: number) => void;
  }): Promise<MeetingUploadResult>;
  completeUpload(input: { meetingId: string; files: string[] }): Promise<{ ok: boolean }>;
  /** Starts cloud transcription; one retry after 100 ms on failure. */
  startTranscription(input: {
    meetingId: string;
    language: string;
    mode: TranscriptionMode;
  }): Promise<{ task_id: string }>;
  sendAsrNotice(notice: { meeting_id: string } & Record<string, unknown>): Promise<void>;
  syncWords(words: { meeting_id: string } & Record<string, unknown>): Promise<void>;
  sendDotNotice(notice: { meeting_id: string } & Record<string, unknown>): Promise<void>;
  sendTelemetry(batch: TelemetryBatch): Promise<TelemetryAck>;
  /** Offset (ms) the client adds to its clock after a server time sync. */
  readonly clockOffsetMs: number;
  /** Closes pooled connections. Idempotent. */
  close(): Promise<void>;
}

interface CallInput {
  json?: unknown;
  /** An `application/octet-stream` body. */
  bytes?: Uint8Array;
  query?: Record<string, string>;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  /** Overrides the route's authentication. */
  auth?: RouteAuth;
  /** Overrides the retries of an idempotent route. */
  retries?: number;
  /** Apply `timeoutMs` to the whole request (default true; uploads rely on the stall timeout). */
  wholeTimeout?: boolean;
  /** Statuses returned to the caller rather than thrown. */
  pass?: readonly number[];
}

interface CallResult {
  status: number;
  data: unknown;
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const RETRYABLE_CODES = new Set(['CLOUD_NETWORK', 'CLOUD_TIMEOUT']);
const MAX_SCHEDULE_MS = 24 * 3600_000;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function positive(v: number | undefined, fallback: number, what: string): number {
  if (v === undefined) return fallback;
  if (!Number.isFinite(v) || v <= 0)
    throw new CloudError('CLOUD_OPTIONS', `${what} must be a positive number`);
  return v;
}

export function createCloudClient(options: CloudClientOptions): CloudClient {
  if (!options?.credentials)
    throw new CloudError('CLOUD_OPTIONS', 'credentials (a CredentialStore) are required');
  const area =
    options.area ??
    resolveCloudArea({
      country: options.countryCode,
      ...(options.region ? { region: options.region } : {}),
      environment: options.environment,
      ...(options.baseUrls ? { hosts: options.baseUrls } : {}),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    });
  const { region, environment, urls: baseUrls } = area;
  const signedChecks = options.signedUpdateChecks ?? false;
  const routes = resolveRoutes(options.routes);
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? {};
  const store = options.credentials;
  const random = options.random ?? nodeCrypto().randomBytes;
  const timeout = positive(options.timeoutMs, CLOUD_TIMEOUT_MS, 'timeoutMs');
  const connectTimeout = positive(options.connectTimeoutMs, CLOUD_TIMEOUT_MS, 'connectTimeoutMs');
  const stallTimeout = positive(options.stallTimeoutMs, CLOUD_TIMEOUT_MS, 'stallTimeoutMs');
  const maxResponseBytes = positive(options.maxResponseBytes, MAX_RESPONSE_BYTES, 'maxResponseBytes');
  const retries = options.retry?.retries ?? 3;
  const baseDelay = options.retry?.baseDelayMs ?? 500;
  const maxDelay = options.retry?.maxDelayMs ?? 30_000;
  const chunkBytes = positive(options.upload?.chunkBytes, UPLOAD_CHUNK_BYTES, 'upload.chunkBytes');
  const uploadRetries = options.upload?.retries ?? retries;
  const uploadBaseDelay = options.upload?.baseDelayMs ?? 1_000;
  const uploadMaxDelay = options.upload?.maxDelayMs ?? 60_000;
  const syncClock = options.syncClockFromServer ?? true;
  let clockOffsetMs = 0;
  let tokenInfo: DeviceToken | undefined;

  let transport: HttpTransport;
  let closeTransport = () => {};
  if (options.fetch) {
    transport = fetchTransport(options.fetch);
  } else {
    if (options.tls?.rejectUnauthorized === false) {
      log.warn?.('TLS certificate verification is disabled for cloud requests', { region, environment });
    }
    const node = createNodeTransport(options.tls ? { tls: options.tls } : {});
    transport = node;
    closeTransport = () => node.close();
  }

  const backoff = (retry: number) => Math.min(maxDelay, baseDelay * 2 ** (retry - 1));
  const nowSeconds = () => Math.floor((clock.now() + clockOffsetMs) / 1000);

  function serverNowMs(headers: Record<string, string>, data: unknown): number | undefined {
    if (isObject(data) && isObject(data.error) && typeof data.error.server_time === 'number') {
      return data.error.server_time * 1000;
    }
    const date = headers.date;
    const t = date ? Date.parse(date) : Number.NaN;
    return Number.isNaN(t) ? undefined : t;
  }

  async function currentToken(): Promise<string> {
    if (tokenInfo && clock.now() < tokenInfo.refreshAt) return tokenInfo.token;
    if (tokenInfo) {
      log.debug?.('device token due for refresh', { expiresAt: tokenInfo.expiresAt });
      return (await refreshToken()).token;
    }
    // a token stored by an earlier run: its expiry is unknown, a 401 refreshes it once
    const stored = (await loadCredentials(store)).token;
    return stored ?? (await refreshToken()).token;
  }

  async function call(name: RouteName, input: CallInput = {}): Promise<CallResult> {
    const spec = routes[name];
    const auth = input.auth ?? spec.auth;
    let url = baseUrls[spec.base] + routePath(spec, input.params);
    if (input.query) url += `?${new URLSearchParams(input.query).toString()}`;
    const parsed = new URL(url);
    const pathAndQuery = parsed.pathname + parsed.search;
    const body =
      input.bytes ?? (input.json === undefined ? undefined : Buffer.from(JSON.stringify(input.json), 'utf8'));
    const bodySha256 = sha256Hex(body ?? '');
    const maxAttempts = spec.idempotent ? (input.retries ?? retries) + 1 : 1;
    let attempt = 0;
    let refreshed = false;
    let synced = false;

    for (;;) {
      attempt++;
      const headers: Record<string, string> = { ...COMMON_HEADERS, ...input.headers };
      if (body === undefined) delete headers['content-type'];
      else if (input.bytes) headers['content-type'] = 'application/octet-stream';
      let canonical: string | undefined;
      if (auth !== 'none') {
        const creds = await loadCredentials(store);
        let key: string;
        let salt: string;
        if (auth === 'factory') {
          if (!creds.registrationSecret) {
            throw new CloudError(
              'CLOUD_CREDENTIAL_MISSING',
              'the factory device secret (database entry 0xe7) is not set',
              { details: { route: name } },
            );
          }
          key = creds.registrationSecret;
          salt = '';
        } else {
          if (!creds.deviceSecret || !creds.salt) {
            throw new CloudError(
              'CLOUD_NOT_REGISTERED',
              'the device is not registered: call register() first',
              {
                details: { route: name },
              },
            );
          }
          key = creds.deviceSecret;
          salt = creds.salt;
        }
        if (auth === 'token') headers.authorization = `Bearer ${await currentToken()}`;
        const signed = signRequest({
          serial: creds.serial,
          deviceSecret: key,
          salt,
          method: spec.method,
          pathAndQuery,
          bodySha256,
          timestamp: nowSeconds(),
          nonce: createNonce(16, random),
        });
        canonical = signed.canonical;
        Object.assign(headers, signed.headers);
      }

      const started = clock.now();
      let response: HttpResponse;
      try {
        response = await transport(
          { method: spec.method, url, headers, ...(body ? { body } : {}) },
          {
            connectTimeoutMs: connectTimeout,
            stallTimeoutMs: stallTimeout,
            ...(input.wholeTimeout === false ? {} : { timeoutMs: timeout }),
            maxResponseBytes,
          },
        );
      } catch (error) {
        const e = isCloudError(error)
          ? error
          : new CloudError('CLOUD_NETWORK', 'network error', { cause: error });
        if (e.code === 'CLOUD_TLS') {
          // a certificate problem does not go away by retrying
          log.error?.('cloud TLS handshake refused', { route: name });
        } else if (e.code === 'CLOUD_RESPONSE_TOO_LARGE') {
          log.warn?.('cloud response refused: too large', { route: name, maxResponseBytes });
        } else {
          log.warn?.('cloud request failed', { route: name, attempt, code: e.code });
        }
        if (RETRYABLE_CODES.has(e.code) && attempt < maxAttempts) {
          await sleep(clock, backoff(attempt));
          continue;
        }
        const suffix = RETRYABLE_CODES.has(e.code) ? ` after ${attempt} attempt(s)` : '';
        throw new CloudError(e.code, `${spec.method} ${name}: ${e.message}${suffix}`, {
          cause: e.cause ?? e,
          details: { route: name },
        });
      }

      const text = Buffer.from(response.body).toString('utf8');
      let data: unknown;
      if (text !== '') {
        try {
          data = JSON.parse(text);
        } catch {
          data = text;
        }
      }
      const status = response.status;
      log.debug?.('cloud response', { route: name, status, attempt, ms: clock.now() - started });
      if ((status >= 200 && status < 300) || input.pass?.includes(status)) return { status, data };

      const err = isObject(data) && isObject(data.error) ? data.error : {};
      const serverCode = typeof err.code === 'string' ? err.code.slice(0, 64) : undefined;
      const serverMessage = typeof err.message === 'string' ? err.message.slice(0, 512) : '';
      const details = { status, serverCode, route: name };

      if (status === 401) {
        if (serverCode === 'TIMESTAMP_SKEW') {
          const serverNow = serverNowMs(response.headers, data);
          if (syncClock && !synced && serverNow !== undefined) {
            synced = true;
            attempt--;
            clockOffsetMs = serverNow - clock.now();
            log.info?.('cloud clock synchronised from the server', { offsetMs: clockOffsetMs });
            continue;
          }
          throw new CloudError(
            'CLOUD_CLOCK_SKEW',
            `${name}: the server rejected our timestamp (${serverMessage})`,
            {
              details,
            },
          );
        }
        if (serverCode === 'SIGNATURE_MISMATCH') {
          const mine = canonical ? redactCanonical(canonical) : '';
          const theirs = typeof err.canonical === 'string' ? err.canonical.slice(0, 4096) : undefined;
          log.error?.('cloud signature rejected', { route: name, canonical: mine, serverCanonical: theirs });
          throw new CloudError(
            'CLOUD_SIGNATURE_REJECTED',
            `${name}: the server computed a different signature. We signed:\n${mine}` +
              (theirs === undefined ? '' : `\nThe server expected:\n${theirs}`),
            { details: { ...details, canonical: mine, serverCanonical: theirs } },
          );
        }
        if (auth === 'token' && !refreshed && serverCode !== 'NONCE_REPLAY') {
          refreshed = true;
          attempt--;
          log.info?.('cloud token rejected, refreshing once', { route: name, serverCode });
          await refreshToken();
          continue;
        }
        throw new CloudError(
          'CLOUD_UNAUTHORIZED',
          `${name}: 401 ${serverCode ?? ''} ${serverMessage}`.trim(),
          {
            details,
          },
        );
      }
      if (RETRYABLE_STATUS.has(status) && attempt < maxAttempts) {
        const ra = Number(response.headers['retry-after']);
        const delay = Number.isFinite(ra) && ra > 0 ? Math.min(maxDelay, ra * 1000) : backoff(attempt);
        log.warn?.('cloud request will be retried', { route: name, status, attempt, delayMs: delay });
        await sleep(clock, delay);
        continue;
      }
      throw new CloudError(
        'CLOUD_HTTP',
        `${name}: HTTP ${status} ${serverCode ?? ''} ${serverMessage}`.trim(),
        {
          details,
        },
      );
    }
  }

  function field<T>(route: RouteName, data: unknown, key: string, type: 'string' | 'number' | 'boolean'): T {
    if (!isObject(data) || typeof data[key] !== type) {
      throw new CloudError('CLOUD_BAD_RESPONSE', `${route}: response has no ${type} "${key}"`, {
        details: { route },
      });
    }
    return data[key] as T;
  }

  async function register(): Promise<void> {
    const creds = await loadCredentials(store);
    const { data } = await call('register', {
      json: {
        client_version: CLIENT_VERSION,
        serial: creds.serial,
        timestamp: nowSeconds(),
        secret: creds.registrationSecret,
      },
      ...(options.enrolmentKey ? { headers: { [ENROLMENT_KEY_HEADER]: options.enrolmentKey } } : {}),
    });
    const deviceSecret = field<string>('register', data, 'device_secret', 'string');
    const salt = field<string>('register', data, 'salt', 'string');
    await saveRegistration(store, { deviceSecret, salt });
    log.info?.('device registered', { serial: creds.serial });
  }

  let refreshing: Promise<DeviceToken> | undefined;
  function refreshToken(): Promise<DeviceToken> {
    refreshing ??= (async () => {
      try {
        const creds = await loadCredentials(store);
        const { data } = await call('refreshToken', {
          json: {
            serial: creds.serial,
            timestamp: nowSeconds(),
            nonce: createNonce(16, random),
            area_url: baseUrls.summary,
            device_secret: creds.deviceSecret,
            salt: creds.salt,
            secret: creds.registrationSecret,
          },
        });
        const token = field<string>('refreshToken', data, 'token', 'string');
        let expiresIn = DEFAULT_TOKEN_TTL_SECONDS;
        if (isObject(data) && data.expires_in !== undefined) {
          expiresIn = field<number>('refreshToken', data, 'expires_in', 'number');
          if (!Number.isFinite(expiresIn) || expiresIn <= 0) {
            throw new CloudError('CLOUD_BAD_RESPONSE', 'refreshToken: expires_in must be a positive number', {
              details: { route: 'refreshToken' },
            });
          }
        }
        await store.writeEntry(DATABASE_ENTRY.token, token);
        const now = clock.now();
        const lifetimeMs = expiresIn * 1000;
        const refreshAt = now + lifetimeMs - Math.min(300_000, lifetimeMs * 0.2);
        tokenInfo = {
          token,
          expiresIn,
          expiresAt: now + lifetimeMs,
          refreshAt,
          refreshInMs: Math.round(Math.min(MAX_SCHEDULE_MS, Math.max(1_000, refreshAt - now))),
        };
        log.info?.('device token refreshed', { serial: creds.serial, expiresIn });
        return tokenInfo;
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  }

  async function uploadMeetingFile(input: {
    meetingId: string;
    fileName: string;
    source: UploadSource;
    onProgress?: (received: number, size: number) => void;
  }): Promise<MeetingUploadResult> {
    const { meetingId, fileName, source } = input;
    if (!Number.isSafeInteger(source.size) || source.size < 0 || !/^[0-9a-f]{64}$/.test(source.sha256)) {
      throw new CloudError(
        'CLOUD_UPLOAD_SOURCE',
        'the upload source needs a size and a lowercase hex sha256',
      );
    }
    let failures = 0;
    let restarts = 0;
    const fail = async (error: unknown, offset: number): Promise<void> => {
      failures++;
      if (failures > uploadRetries) {
        throw new CloudError(
          'CLOUD_UPLOAD_INCOMPLETE',
          `${fileName}: upload stopped at ${offset} of ${source.size} bytes after ${failures} failed attempts in a row; calling again resumes`,
          { cause: error, details: { route: 'uploadChunk' } },
        );
      }
      const delay = Math.min(uploadMaxDelay, uploadBaseDelay * 2 ** (failures - 1));
      log.warn?.('meeting file chunk failed, will resume', {
        fileName,
        offset,
        failures,
        delayMs: delay,
        code: isCloudError(error) ? error.code : undefined,
      });
      await sleep(clock, delay);
    };

    for (;;) {
      // start (or find again) the upload: the server says how much of this file it holds
      let start: CallResult;
      try {
        start = await call('uploadStart', {
          json: { meeting_id: meetingId, file_name: fileName, size: source.size, sha256: source.sha256 },
          retries: 0,
        });
      } catch (error) {
        if (isCloudError(error) && retryableUpload(error)) {
          await fail(error, 0);
          continue;
        }
        throw error;
      }
      const uploadId = field<string>('uploadStart', start.data, 'upload_id', 'string');
      let received = field<number>('uploadStart', start.data, 'received', 'number');
      const serverChunk = isObject(start.data) ? start.data.chunk_bytes : undefined;
      const size =
        typeof serverChunk === 'number' && serverChunk > 0 ? Math.min(chunkBytes, serverChunk) : chunkBytes;
      const resumedFrom = received;
      if (resumedFrom > 0) log.info?.('meeting file upload resumes', { fileName, offset: resumedFrom });
      let done: unknown = isObject(start.data) && start.data.complete === true ? start.data : undefined;
      let restart = false;

      while (!done) {
        if (!Number.isSafeInteger(received) || received < 0 || received > source.size) {
          throw new CloudError(
            'CLOUD_BAD_RESPONSE',
            `uploadChunk: the server holds ${received} bytes of ${source.size}`,
            {
              details: { route: 'uploadChunk' },
            },
          );
        }
        const length = Math.min(size, source.size - received);
        const bytes = await source.read(received, length);
        if (bytes.length !== length) {
          throw new CloudError(
            'CLOUD_UPLOAD_SOURCE',
            `${fileName}: read ${bytes.length} of ${length} bytes at ${received}`,
          );
        }
        let r: CallResult;
        try {
          r = await call('uploadChunk', {
            bytes,
            query: { upload_id: uploadId, offset: String(received) },
            retries: 0,
            wholeTimeout: false,
            pass: [404, 409],
          });
        } catch (error) {
          if (isCloudError(error) && retryableUpload(error)) {
            await fail(error, received);
            continue;
          }
          throw error;
        }
        if (r.status === 404) {
          // the server forgot the upload (restart, expiry): start again, once per lost session
          if (++restarts > uploadRetries) {
            throw new CloudError(
              'CLOUD_UPLOAD_INCOMPLETE',
              `${fileName}: the server keeps losing the upload`,
              {
                details: { route: 'uploadChunk', status: 404 },
              },
            );
          }
          restart = true;
          break;
        }
        const before = received;
        received = field<number>(
          'uploadChunk',
          r.status === 409 ? (r.data as { error?: unknown }).error : r.data,
          'received',
          'number',
        );
        if (received > before) failures = 0;
        if (r.status === 409) {
          // our view was behind (an acknowledgement was lost) or ahead: continue where the server is
          log.info?.('meeting file upload realigned', { fileName, from: before, to: received });
          if (received === before) await fail(new CloudError('CLOUD_HTTP', 'offset refused'), received);
          continue;
        }
        input.onProgress?.(received, source.size);
        if (isObject(r.data) && r.data.complete === true) done = r.data;
      }
      if (restart) continue;
      const result = {
        file_id: field<string>('uploadChunk', done, 'file_id', 'string'),
        size: field<number>('uploadChunk', done, 'size', 'number'),
        sha256: field<string>('uploadChunk', done, 'sha256', 'string'),
        resumedFrom,
      };
      if (result.size !== source.size || result.sha256 !== source.sha256) {
        throw new CloudError('CLOUD_BAD_RESPONSE', `${fileName}: the server stored a different file`, {
          details: { route: 'uploadChunk' },
        });
      }
      log.info?.('meeting file uploaded', { fileName, bytes: source.size, resumedFrom });
      return result;
    }
  }

  return {
    region,
    environment,
    baseUrls,
    routes,
    get clockOffsetMs() {
      return clockOffsetMs;
    },
    get token() {
      return tokenInfo;
    },
    register,
    refreshToken,
    async getUpdateDescriptor(kind, opts = {}) {
      const route =
        kind === 'psp_firmware' ? 'firmwareDescriptor' : kind === 'psp_model' ? 'modelDescriptor' : null;
      if (!route) throw new CloudError('CLOUD_OPTIONS', `unknown update kind ${String(kind)}`);
      const firmwareVersion = opts.firmwareVersion ?? opts.version ?? options.firmwareVersion;
      if (!firmwareVersion) {
        throw new CloudError('CLOUD_OPTIONS', 'the firmware version (X-Device-Version) is not set');
      }
      const creds = await loadCredentials(store);
      const { status, data } = await call(route, {
        // the vendor's check: a plain GET with these two headers, the firmware version on both checks
        headers: { 'x-device-serial': creds.serial, 'x-device-version': firmwareVersion },
        ...(signedChecks ? { auth: 'device' as const } : {}),
      });
      if (status === 204 || data === undefined) return null;
      return parseUpdateDescriptor(data);
    },
    async sendPasswordRecoveryCode() {
      const creds = await loadCredentials(store);
      const { data } = await call('passwordSendCode', { json: { serial: creds.serial } });
      return { sent: field<boolean>('passwordSendCode', data, 'sent', 'boolean') };
    },
    async verifyPasswordRecoveryCode(code) {
      const creds = await loadCredentials(store);
      const { data } = await call('passwordVerifyCode', { json: { serial: creds.serial, code } });
      return { verified: field<boolean>('passwordVerifyCode', data, 'verified', 'boolean') };
    },
    uploadMeetingFile,
    async completeUpload({ meetingId, files }) {
      const { data } = await call('uploadComplete', { json: { meeting_id: meetingId, files } });
      return { ok: field<boolean>('uploadComplete', data, 'ok', 'boolean') };
    },
    async startTranscription({ meetingId, language, mode }) {
      const json = { meeting_id: meetingId, language, mode };
      let data: unknown;
      try {
        ({ data } = await call('transcriptionStart', { json }));
      } catch (error) {
        log.warn?.('transcription start failed, retrying once', {
          code: error instanceof CloudError ? error.code : 'unknown',
        });
        await sleep(clock, TRANSCRIPTION_RETRY_DELAY_MS);
        ({ data } = await call('transcriptionStart', { json }));
      }
      return { task_id: field<string>('transcriptionStart', data, 'task_id', 'string') };
    },
    async sendAsrNotice(notice) {
      await call('asrNotice', { json: notice });
    },
    async syncWords(words) {
      await call('syncWords', { json: words });
    },
    async sendDotNotice(notice) {
      await call('dotNotice', { json: notice });
    },
    async sendTelemetry(batch) {
      const { data } = await call('telemetry', { json: batch });
      const ack: TelemetryAck = {
        accepted: field<number>('telemetry', data, 'accepted', 'number'),
        duplicates: field<number>('telemetry', data, 'duplicates', 'number'),
      };
      if (isObject(data) && typeof data.device_id === 'string') ack.device_id = data.device_id;
      return ack;
    },
    async close() {
      closeTransport();
    },
  };
}

/** Failures after which a chunk is worth sending again. */
function retryableUpload(error: CloudError): boolean {
  if (RETRYABLE_CODES.has(error.code)) return true;
  return error.code === 'CLOUD_HTTP' && RETRYABLE_STATUS.has(error.details.status ?? 0);
}
