// The signed cloud client (spec Endpoints B, Authentication B) on ofetch.
import crypto from 'node:crypto';
import { createFetch, FetchError } from 'ofetch';
import { Agent, fetch as undiciFetch } from 'undici';
import { type Clock, type Logger, systemClock } from './clock.js';
import {
  CLIENT_VERSION,
  CLOUD_TIMEOUT_MS,
  DATABASE_ENTRY,
  TRANSCRIPTION_RETRY_DELAY_MS,
  type TranscriptionMode,
  USER_AGENT,
} from './constants.js';
import { type CredentialStore, loadCredentials, saveRegistration } from './credentials.js';
import { parseUpdateDescriptor, type UpdateDescriptor, type UpdateKind } from './descriptor.js';
import { CloudError } from './errors.js';
import {
  type BaseUrlOverrides,
  type BaseUrls,
  type Environment,
  environmentFromFlag,
  type Region,
  regionForCountry,
  resolveBaseUrls,
} from './region.js';
import { type RouteName, type RouteOverrides, type RouteTable, resolveRoutes, routePath } from './routes.js';
import { createNonce, redactCanonical, sha256Hex, signRequest } from './signature.js';
import type { TelemetryAck, TelemetryBatch } from './telemetry-events.js';
import type { UploadSource } from './upload-source.js';

/** Headers the spec lists for every cloud POST (the client sends them on every request). */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  'user-agent': USER_AGENT,
  accept: '*/*',
  'cache-control': 'no-cache',
  'accept-encoding': 'gzip, deflate, br',
  connection: 'keep-alive',
};

export interface RetryOptions {
  /** Extra attempts after the first, for idempotent routes (default 3). */
  retries?: number;
  /** Delay before the first retry (default 500 ms); doubles each time. */
  baseDelayMs?: number;
  /** Cap of one delay (default 30 s). `Retry-After` from the server is honoured up to this cap. */
  maxDelayMs?: number;
}

export interface CloudTlsOptions {
  /** Extra trusted CA certificate(s) in PEM (for a private cloud or the reference server). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** `false` skips certificate verification, as the vendor's OTA fetch does. Logged as a warning. */
  rejectUnauthorized?: boolean;
}

export interface CloudClientOptions {
  /** ISO country code: CN → cn, US → us, others → eu (ignored when `region` is given). */
  countryCode?: string;
  region?: Region;
  /** `'production' | 'test'`, or the global OTA environment flag (1 = test). */
  environment?: Environment | number;
  credentials: CredentialStore;
  clock?: Clock;
  /** A WHATWG fetch; by default undici with 100 s connect/transfer timeouts and the `tls` options. */
  fetch?: typeof globalThis.fetch;
  logger?: Logger;
  /** Points all three services at one URL (the reference server). */
  baseUrl?: string;
  /** Per environment and region overrides of the base URLs. */
  baseUrls?: BaseUrlOverrides;
  routes?: RouteOverrides;
  tls?: CloudTlsOptions;
  /** Whole-request timeout (default 100 s). */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** CSPRNG used for nonces (injectable for vectors). */
  random?: (n: number) => Uint8Array;
  /** Sent as `X-Device-Version` on update checks. */
  firmwareVersion?: string;
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
}

export interface CloudClient {
  readonly region: Region;
  readonly environment: Environment;
  readonly baseUrls: BaseUrls;
  readonly routes: RouteTable;
  /** Registers the device (factory secret, entry 0xe7) and stores `device_secret`/`salt` (0x11a/0x11b, slots 0xe/0xf). */
  register(): Promise<void>;
  /** Refreshes the device token (16-letter CSPRNG nonce) and stores it in entry 0xe8. */
  refreshToken(): Promise<string>;
  /** Update descriptor for `psp_firmware` or `psp_model`; null when the server has none (204). */
  getUpdateDescriptor(kind: UpdateKind, options?: { version?: string }): Promise<UpdateDescriptor | null>;
  sendPasswordRecoveryCode(): Promise<{ sent: boolean }>;
  verifyPasswordRecoveryCode(code: string): Promise<{ verified: boolean }>;
  /** Streams one meeting file (PUT, `application/octet-stream`). */
  uploadMeetingFile(input: {
    meetingId: string;
    fileName: string;
    source: UploadSource;
  }): Promise<MeetingUploadResult>;
  completeUpload(input: { meetingId: string; files: string[] }): Promise<{ ok: boolean }>;
  /** Starts cloud transcription; one retry after 100 ms on failure (spec F). */
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
  close(): Promise<void>;
}

interface CallInput {
  json?: unknown;
  upload?: UploadSource;
  query?: Record<string, string>;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

interface CallResult {
  status: number;
  data: unknown;
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** The OpenSSL/Node code of a certificate failure somewhere in an error's cause chain. */
function tlsErrorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL/.test(code))
      return code;
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function createCloudClient(options: CloudClientOptions): CloudClient {
  if (!options?.credentials)
    throw new CloudError('CLOUD_OPTIONS', 'credentials (a CredentialStore) are required');
  const region = options.region ?? regionForCountry(options.countryCode);
  const environment =
    typeof options.environment === 'string' ? options.environment : environmentFromFlag(options.environment);
  if (environment !== 'production' && environment !== 'test') {
    throw new CloudError('CLOUD_OPTIONS', `unknown environment ${String(environment)}`);
  }
  const baseUrls = options.baseUrl
    ? resolveBaseUrls(region, environment, {
        [environment]: {
          [region]: { cloud: options.baseUrl, summary: options.baseUrl, telemetry: options.baseUrl },
        },
      })
    : resolveBaseUrls(region, environment, options.baseUrls);
  const routes = resolveRoutes(options.routes);
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? {};
  const store = options.credentials;
  const random = options.random ?? crypto.randomBytes;
  const timeout = options.timeoutMs ?? CLOUD_TIMEOUT_MS;
  const retries = options.retry?.retries ?? 3;
  const baseDelay = options.retry?.baseDelayMs ?? 500;
  const maxDelay = options.retry?.maxDelayMs ?? 30_000;
  const syncClock = options.syncClockFromServer ?? true;
  let clockOffsetMs = 0;

  let agent: Agent | undefined;
  let fetchImpl = options.fetch;
  if (!fetchImpl) {
    if (options.tls?.rejectUnauthorized === false) {
      log.warn?.('TLS certificate verification is disabled for cloud requests', { region, environment });
    }
    agent = new Agent({
      connect: {
        timeout,
        ...(options.tls?.ca ? { ca: options.tls.ca } : {}),
        rejectUnauthorized: options.tls?.rejectUnauthorized ?? true,
      },
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    const dispatcher = agent;
    fetchImpl = ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
      undiciFetch(input, { ...init, dispatcher })) as unknown as typeof globalThis.fetch;
  }
  const $fetch = createFetch({ fetch: fetchImpl });

  const backoff = (retry: number) => Math.min(maxDelay, baseDelay * 2 ** (retry - 1));

  function serverNowMs(headers: Headers, data: unknown): number | undefined {
    if (isObject(data) && isObject(data.error) && typeof data.error.server_time === 'number') {
      return data.error.server_time * 1000;
    }
    const date = headers.get('date');
    const t = date ? Date.parse(date) : Number.NaN;
    return Number.isNaN(t) ? undefined : t;
  }

  async function call(name: RouteName, input: CallInput = {}): Promise<CallResult> {
    const spec = routes[name];
    let url = baseUrls[spec.base] + routePath(spec, input.params);
    if (input.query) url += `?${new URLSearchParams(input.query).toString()}`;
    const parsed = new URL(url);
    const pathAndQuery = parsed.pathname + parsed.search;
    const bodyBytes = input.json === undefined ? undefined : Buffer.from(JSON.stringify(input.json), 'utf8');
    const bodySha256 = input.upload ? input.upload.sha256 : sha256Hex(bodyBytes ?? '');
    const maxAttempts = spec.idempotent ? retries + 1 : 1;
    let attempt = 0;
    let refreshed = false;
    let synced = false;

    for (;;) {
      attempt++;
      const creds = await loadCredentials(store);
      const headers: Record<string, string> = { ...COMMON_HEADERS, ...input.headers };
      let canonical: string | undefined;
      if (spec.auth !== 'none') {
        let key: string;
        let salt: string;
        if (spec.auth === 'factory') {
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
        if (spec.auth === 'token') {
          const token = creds.token ?? (await refreshToken());
          headers.authorization = `Bearer ${token}`;
        }
        const signed = signRequest({
          serial: creds.serial,
          deviceSecret: key,
          salt,
          method: spec.method,
          pathAndQuery,
          bodySha256,
          timestamp: Math.floor((clock.now() + clockOffsetMs) / 1000),
          nonce: createNonce(16, random),
        });
        canonical = signed.canonical;
        Object.assign(headers, signed.headers);
      }
      let body: Uint8Array | ReadableStream<Uint8Array> | undefined = bodyBytes;
      if (input.upload) {
        headers['content-type'] = 'application/octet-stream';
        headers['content-length'] = String(input.upload.size);
        body = input.upload.open();
      }

      const started = clock.now();
      let response: Response;
      try {
        response = await $fetch.raw(url, {
          method: spec.method,
          headers,
          body: body as NonNullable<Parameters<typeof globalThis.fetch>[1]>['body'],
          retry: 0,
          timeout,
          ignoreResponseError: true,
          responseType: 'text',
          ...(input.upload ? { duplex: 'half' } : {}),
        } as Parameters<typeof $fetch.raw>[1]);
      } catch (error) {
        const timedOut =
          error instanceof FetchError &&
          ((error.cause as Error | undefined)?.name === 'TimeoutError' ||
            (error.cause as Error | undefined)?.name === 'AbortError');
        const tlsCode = tlsErrorCode(error);
        if (tlsCode) {
          // a certificate problem does not go away by retrying
          log.error?.('cloud TLS handshake refused', { route: name, tlsCode });
          throw new CloudError('CLOUD_TLS', `${spec.method} ${name}: TLS certificate rejected (${tlsCode})`, {
            cause: error,
            details: { route: name },
          });
        }
        const code = timedOut ? 'CLOUD_TIMEOUT' : 'CLOUD_NETWORK';
        log.warn?.('cloud request failed', { route: name, attempt, code });
        if (attempt < maxAttempts) {
          await clock.sleep(backoff(attempt));
          continue;
        }
        throw new CloudError(
          code,
          `${spec.method} ${name}: ${timedOut ? 'timed out' : 'network error'} after ${attempt} attempt(s)`,
          { cause: error, details: { route: name } },
        );
      }

      const text = (response as Response & { _data?: unknown })._data;
      let data: unknown;
      if (typeof text === 'string' && text !== '') {
        try {
          data = JSON.parse(text);
        } catch {
          data = text;
        }
      }
      const status = response.status;
      log.debug?.('cloud response', { route: name, status, attempt, ms: clock.now() - started });
      if (status >= 200 && status < 300) return { status, data };

      const err = isObject(data) && isObject(data.error) ? data.error : {};
      const serverCode = typeof err.code === 'string' ? err.code : undefined;
      const serverMessage = typeof err.message === 'string' ? err.message : '';
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
          const theirs = typeof err.canonical === 'string' ? err.canonical : undefined;
          log.error?.('cloud signature rejected', { route: name, canonical: mine, serverCanonical: theirs });
          throw new CloudError(
            'CLOUD_SIGNATURE_REJECTED',
            `${name}: the server computed a different signature. We signed:\n${mine}` +
              (theirs === undefined ? '' : `\nThe server expected:\n${theirs}`),
            { details: { ...details, canonical: mine, serverCanonical: theirs } },
          );
        }
        if (spec.auth === 'token' && !refreshed && serverCode !== 'NONCE_REPLAY') {
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
        const ra = Number(response.headers.get('retry-after'));
        const delay = Number.isFinite(ra) && ra > 0 ? Math.min(maxDelay, ra * 1000) : backoff(attempt);
        log.warn?.('cloud request will be retried', { route: name, status, attempt, delayMs: delay });
        await clock.sleep(delay);
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
        timestamp: Math.floor((clock.now() + clockOffsetMs) / 1000),
        secret: creds.registrationSecret,
      },
    });
    const deviceSecret = field<string>('register', data, 'device_secret', 'string');
    const salt = field<string>('register', data, 'salt', 'string');
    await saveRegistration(store, { deviceSecret, salt });
    log.info?.('device registered', { serial: creds.serial });
  }

  let refreshing: Promise<string> | undefined;
  function refreshToken(): Promise<string> {
    refreshing ??= (async () => {
      try {
        const creds = await loadCredentials(store);
        const { data } = await call('refreshToken', {
          json: {
            serial: creds.serial,
            timestamp: Math.floor((clock.now() + clockOffsetMs) / 1000),
            nonce: createNonce(16, random),
            area_url: baseUrls.summary,
            device_secret: creds.deviceSecret,
            salt: creds.salt,
            secret: creds.registrationSecret,
          },
        });
        const token = field<string>('refreshToken', data, 'token', 'string');
        await store.writeEntry(DATABASE_ENTRY.token, token);
        log.info?.('device token refreshed', { serial: creds.serial });
        return token;
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  }

  return {
    region,
    environment,
    baseUrls,
    routes,
    get clockOffsetMs() {
      return clockOffsetMs;
    },
    register,
    refreshToken,
    async getUpdateDescriptor(kind, opts = {}) {
      const creds = await loadCredentials(store);
      const route =
        kind === 'psp_firmware' ? 'firmwareDescriptor' : kind === 'psp_model' ? 'modelDescriptor' : null;
      if (!route) throw new CloudError('CLOUD_OPTIONS', `unknown update kind ${String(kind)}`);
      const { status, data } = await call(route, {
        headers: {
          'x-device-version': opts.version ?? options.firmwareVersion ?? '0.0.0',
          // X-Device-Serial is also the signature's serial header: the same value.
          'x-device-serial': creds.serial,
        },
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
    async uploadMeetingFile({ meetingId, fileName, source }) {
      const { data } = await call('meetingUpload', {
        upload: source,
        query: { meeting_id: meetingId, file_name: fileName },
      });
      return {
        file_id: field<string>('meetingUpload', data, 'file_id', 'string'),
        size: field<number>('meetingUpload', data, 'size', 'number'),
        sha256: field<string>('meetingUpload', data, 'sha256', 'string'),
      };
    },
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
        await clock.sleep(TRANSCRIPTION_RETRY_DELAY_MS);
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
      await agent?.close();
    },
  };
}
