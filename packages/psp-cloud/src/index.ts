// Signed device cloud client, credentials, key container, log key and the telemetry queue, with
// memory stores. No native code: the SQLite stores are in `@waved/psp-cloud/sqlite`, the reference
// server in `@waved/psp-cloud/server`.
import './node-guard.js';

// Client
export {
  type CloudClient,
  type CloudClientOptions,
  type CloudTlsOptions,
  COMMON_HEADERS,
  createCloudClient,
  type DeviceToken,
  ENROLMENT_KEY_HEADER,
  type MeetingUploadResult,
  type RetryOptions,
  type UploadOptions,
} from './client.js';
// The clock and logger every waved package shares
export { type Clock, type Logger, systemClock } from './clock.js';
// Constants: protocol values, timeouts, limits, credential slots and entries
export {
  ANALYTICS_APP_ID,
  CLIENT_VERSION,
  CLOUD_TIMEOUT_MS,
  DATABASE_ENTRY,
  type DatabaseEntry,
  DEFAULT_TOKEN_TTL_SECONDS,
  KEY_STORE_SLOT,
  type KeyStoreSlot,
  MAX_RESPONSE_BYTES,
  NONCE_LENGTH,
  SIGNATURE_WINDOW_SECONDS,
  TRANSCRIPTION_MODE,
  TRANSCRIPTION_RETRY_DELAY_MS,
  type TranscriptionMode,
  UPLOAD_CHUNK_BYTES,
  USER_AGENT,
} from './constants.js';
// Credentials
export {
  type CredentialStore,
  createMemoryCredentialStore,
  type DeviceCredentials,
  loadCredentials,
  type MemoryCredentialInit,
  saveRegistration,
} from './credentials.js';
// Update descriptors
export { parseUpdateDescriptor, UPDATE_KINDS, type UpdateDescriptor, type UpdateKind } from './descriptor.js';
// Errors
export { CloudError, type CloudErrorCode, type CloudErrorDetails, isCloudError } from './errors.js';
// HTTP Range requests (package downloads)
export { parseRange, type RangeResult } from './http-range.js';
// Local key container
export {
  decodeKeyContainer,
  encodeKeyContainer,
  KEY_CONTAINER_BYTES,
  KEY_CONTAINER_KEY_BYTES,
  KEY_CONTAINER_MAGIC,
  KEY_CONTAINER_MAGIC_OFFSET,
  keyContainerOffset,
} from './key-container.js';
// Log key and the MAC address it comes from
export {
  deriveLogKey,
  LOG_KEY_FALLBACK,
  LOG_KEY_INTERFACES,
  logKeySource,
  type MacReader,
  normalizeMac,
  openUdidFromMac,
} from './log-key.js';
// Node adapters: MAC addresses from sysfs, uploads from a file
export { createSysfsMacReader, fileUploadSource } from './node-adapters.js';
// Regions and environments
export {
  type BaseUrlOverrides,
  type BaseUrls,
  type BaseUrlTable,
  type CloudArea,
  type CloudAreaOptions,
  DEFAULT_BASE_URLS,
  type Environment,
  environmentFromFlag,
  FALLBACK_REGION,
  type Region,
  regionForCountry,
  resolveBaseUrls,
  resolveCloudArea,
} from './region.js';
// Route table (shared with the server)
export {
  DEFAULT_ROUTES,
  type RouteAuth,
  type RouteBase,
  type RouteName,
  type RouteOverrides,
  type RouteSpec,
  type RouteTable,
  resolveRoutes,
  routePath,
} from './routes.js';
// Request signing: the one cloud signature scheme (docs/decisions.md, "cloud signature")
export {
  type CanonicalInput,
  canonicalString,
  computeSignature,
  createNonce,
  createNonceCache,
  EMPTY_BODY_SHA256,
  type NonceCache,
  type NonceVerdict,
  readSignatureHeaders,
  redactCanonical,
  SIGNATURE_HEADERS,
  type SignedHeaders,
  type SignInput,
  sha256Hex,
  signRequest,
  timingSafeEqualHex,
  type VerifyFailure,
  type VerifyInput,
  type VerifyResult,
  verifySignature,
} from './signature.js';
// Telemetry: the event catalog
export {
  isTelemetryEventName,
  TELEMETRY_EVENTS,
  type TelemetryAck,
  type TelemetryBatch,
  type TelemetryCommonFields,
  type TelemetryEvent,
  type TelemetryEventName,
  type TelemetryParams,
  validateTelemetryParams,
} from './telemetry-events.js';
// Telemetry: the durable queue and its memory store
export {
  createTelemetryQueue,
  TELEMETRY_BATCH_SIZE,
  TELEMETRY_FLUSH_INTERVAL_MS,
  TELEMETRY_MAX_QUEUED,
  type TelemetryQueue,
  type TelemetryQueueOptions,
  type TelemetryStats,
} from './telemetry-queue.js';
export { createMemoryTelemetryStore, type QueuedEvent, type TelemetryStore } from './telemetry-store.js';
// Upload sources (meeting recordings)
export { bytesUploadSource, type UploadSource } from './upload-source.js';
