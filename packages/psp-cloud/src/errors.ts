/** Every way @waved/psp-cloud can fail. */
export type CloudErrorCode =
  | 'CLOUD_OPTIONS'
  | 'CLOUD_NETWORK'
  | 'CLOUD_TLS'
  | 'CLOUD_TIMEOUT'
  | 'CLOUD_HTTP'
  | 'CLOUD_BAD_RESPONSE'
  | 'CLOUD_RESPONSE_TOO_LARGE'
  | 'CLOUD_UPLOAD_INCOMPLETE'
  | 'CLOUD_UPLOAD_SOURCE'
  | 'CLOUD_NOT_REGISTERED'
  | 'CLOUD_CREDENTIAL_MISSING'
  | 'CLOUD_UNAUTHORIZED'
  | 'CLOUD_SIGNATURE_REJECTED'
  | 'CLOUD_CLOCK_SKEW'
  | 'CLOUD_KEY_LENGTH'
  | 'CLOUD_KEY_CONTAINER_SIZE'
  | 'CLOUD_KEY_CONTAINER_MAGIC'
  | 'CLOUD_KEY_CONTAINER_MARKER'
  | 'CLOUD_TELEMETRY_EVENT'
  | 'CLOUD_TELEMETRY_CLOSED'
  | 'CLOUD_SQLITE_DRIVER'
  | 'CLOUD_SQLITE_OPEN';

export interface CloudErrorDetails {
  /** HTTP status of the response, when there was one. */
  status?: number;
  /** Error code the server put in its JSON body (`SIGNATURE_MISMATCH`, `TOKEN_EXPIRED`, ...). */
  serverCode?: string | undefined;
  /** Route name from the route table. */
  route?: string;
  /** The canonical string this client signed (salt redacted), for signature mismatch reports. */
  canonical?: string;
  /** The canonical string the server computed (salt redacted), when it sent one. */
  serverCanonical?: string | undefined;
}

export class CloudError extends Error {
  override readonly name = 'CloudError';
  readonly code: CloudErrorCode;
  readonly details: CloudErrorDetails;
  constructor(
    code: CloudErrorCode,
    message: string,
    options: { cause?: unknown; details?: CloudErrorDetails } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }
}

/** True when `e` is a CloudError (optionally with the given code). */
export function isCloudError(e: unknown, code?: CloudErrorCode): e is CloudError {
  return e instanceof CloudError && (code === undefined || e.code === code);
}
