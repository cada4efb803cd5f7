/** Client version string sent at registration. */
export const CLIENT_VERSION = 'PSP_0.3.19';
/** HTTP User-Agent on every cloud request. */
export const USER_AGENT = 'PSP_DEVICE';
/** Analytics application id. */
export const ANALYTICS_APP_ID = 10000022;
/** Connect and transfer timeout of every cloud request. */
export const CLOUD_TIMEOUT_MS = 100_000;
/** Largest cloud response body the client reads, after decompression (every answer is a small JSON). */
export const MAX_RESPONSE_BYTES = 1024 * 1024;
/** Bytes per meeting-file chunk; a cut costs at most one chunk. */
export const UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024;
/** Token lifetime assumed when a refresh answer has no `expires_in`. */
export const DEFAULT_TOKEN_TTL_SECONDS = 3600;
/** Delay before the single retry of a failed transcription start. */
export const TRANSCRIPTION_RETRY_DELAY_MS = 100;
/** Length of the token-refresh nonce: lowercase letters. */
export const NONCE_LENGTH = 16;
/** Accepted distance between a request's `X-Timestamp` and the server clock, in seconds. */
export const SIGNATURE_WINDOW_SECONDS = 300;

/** Key-store slots of the device credentials. */
export const KEY_STORE_SLOT = {
  /** device serial (device_id) */
  serial: 0x0,
  /** `device_secret` returned by registration */
  deviceSecret: 0xe,
  /** `salt` returned by registration */
  salt: 0xf,
} as const;
export type KeyStoreSlot = (typeof KEY_STORE_SLOT)[keyof typeof KEY_STORE_SLOT];

/** Database entries of the device credentials. */
export const DATABASE_ENTRY = {
  /** factory device secret sent at registration */
  registrationSecret: 0xe7,
  /** device token from the last refresh */
  token: 0xe8,
  /** `device_secret` returned by registration */
  deviceSecret: 0x11a,
  /** `salt` returned by registration */
  salt: 0x11b,
} as const;
export type DatabaseEntry = (typeof DATABASE_ENTRY)[keyof typeof DATABASE_ENTRY];

/** Transcription mode values reported by telemetry. */
export const TRANSCRIPTION_MODE = {
  record_transcribe: 0,
  only_transcribe: 1,
  other_transcribe: 2,
} as const;
export type TranscriptionMode = (typeof TRANSCRIPTION_MODE)[keyof typeof TRANSCRIPTION_MODE];
