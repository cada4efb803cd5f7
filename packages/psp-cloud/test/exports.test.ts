import { expect, it } from 'vitest';
import { CloudError, type CloudErrorCode, isCloudError } from '../src/index.js';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "ANALYTICS_APP_ID",
      "CLIENT_VERSION",
      "CLOUD_TIMEOUT_MS",
      "COMMON_HEADERS",
      "CloudError",
      "DATABASE_ENTRY",
      "DEFAULT_BASE_URLS",
      "DEFAULT_ROUTES",
      "DEFAULT_TOKEN_TTL_SECONDS",
      "EMPTY_BODY_SHA256",
      "ENROLMENT_KEY_HEADER",
      "FALLBACK_REGION",
      "KEY_CONTAINER_BYTES",
      "KEY_CONTAINER_KEY_BYTES",
      "KEY_CONTAINER_MAGIC",
      "KEY_CONTAINER_MAGIC_OFFSET",
      "KEY_STORE_SLOT",
      "LOG_KEY_FALLBACK",
      "LOG_KEY_INTERFACES",
      "MAX_RESPONSE_BYTES",
      "NONCE_LENGTH",
      "SIGNATURE_HEADERS",
      "SIGNATURE_WINDOW_SECONDS",
      "TELEMETRY_BATCH_SIZE",
      "TELEMETRY_EVENTS",
      "TELEMETRY_FLUSH_INTERVAL_MS",
      "TELEMETRY_MAX_QUEUED",
      "TRANSCRIPTION_MODE",
      "TRANSCRIPTION_RETRY_DELAY_MS",
      "UPDATE_KINDS",
      "UPLOAD_CHUNK_BYTES",
      "USER_AGENT",
      "bytesUploadSource",
      "canonicalString",
      "computeSignature",
      "createCloudClient",
      "createMemoryCredentialStore",
      "createMemoryTelemetryStore",
      "createNonce",
      "createNonceCache",
      "createSysfsMacReader",
      "createTelemetryQueue",
      "decodeKeyContainer",
      "deriveLogKey",
      "encodeKeyContainer",
      "environmentFromFlag",
      "fileUploadSource",
      "isCloudError",
      "isTelemetryEventName",
      "keyContainerOffset",
      "loadCredentials",
      "logKeySource",
      "normalizeMac",
      "openUdidFromMac",
      "parseRange",
      "parseUpdateDescriptor",
      "readSignatureHeaders",
      "redactCanonical",
      "regionForCountry",
      "resolveBaseUrls",
      "resolveCloudArea",
      "resolveRoutes",
      "routePath",
      "saveRegistration",
      "sha256Hex",
      "signRequest",
      "systemClock",
      "timingSafeEqualHex",
      "validateTelemetryParams",
      "verifySignature",
    ]
  `);
});

it('the sqlite entry exports exactly its API', async () => {
  expect(Object.keys(await import('../src/sqlite.js')).sort()).toMatchInlineSnapshot(`
    [
      "createDrizzleCredentialStore",
      "createSqliteCredentialStore",
      "createSqliteTelemetryStore",
      "openBetterSqlite3",
      "openNodeSqlite",
    ]
  `);
});

it('the server entry exports exactly its API', async () => {
  expect(Object.keys(await import('../src/server.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_ROUTES",
      "createCloudServer",
      "resolveRoutes",
    ]
  `);
});

it.each([
  ['CLOUD_NETWORK'],
  ['CLOUD_SIGNATURE_REJECTED'],
  ['CLOUD_KEY_CONTAINER_MAGIC'],
  ['CLOUD_TELEMETRY_EVENT'],
] as const)('CloudError carries code %s, its cause and details', (code) => {
  const cause = new Error('inner');
  const e = new CloudError(code, 'msg', { cause, details: { status: 401, route: 'register' } });
  expect(e).toBeInstanceOf(Error);
  expect(e.name).toBe('CloudError');
  expect(e.code).toBe(code);
  expect(e.cause).toBe(cause);
  expect(e.details).toEqual({ status: 401, route: 'register' });
  expect(new CloudError(code, 'm').details).toEqual({});
});

it.each([
  ['CLOUD_RESPONSE_TOO_LARGE'],
  ['CLOUD_UPLOAD_INCOMPLETE'],
  ['CLOUD_UPLOAD_SOURCE'],
  ['CLOUD_SQLITE_DRIVER'],
  ['CLOUD_SQLITE_OPEN'],
] as const)('isCloudError recognises %s, and only with the right code', (code: CloudErrorCode) => {
  const e = new CloudError(code, 'm');
  expect(isCloudError(e)).toBe(true);
  expect(isCloudError(e, code)).toBe(true);
  expect(isCloudError(e, 'CLOUD_OPTIONS')).toBe(false);
  expect(isCloudError(new Error('m'))).toBe(false);
  expect(isCloudError({ code, name: 'CloudError' })).toBe(false);
});
