/** Every way @waved/swu-ota can refuse an input or fail an operation. */
export type OtaErrorCode =
  // update descriptor
  | 'OTA_DESCRIPTOR_JSON'
  | 'OTA_DESCRIPTOR_FIELD'
  | 'OTA_CHECK_FAILED'
  // download
  | 'OTA_DOWNLOAD_HTTP'
  | 'OTA_DOWNLOAD_INTERRUPTED'
  | 'OTA_DOWNLOAD_PROTOCOL'
  | 'OTA_NO_SPACE'
  | 'OTA_TLS'
  | 'OTA_MD5_MISMATCH'
  // .swu container and description
  | 'OTA_CPIO_FORMAT'
  | 'OTA_CPIO_CHECKSUM'
  | 'OTA_CPIO_TRUNCATED'
  | 'OTA_LIBCONFIG_SYNTAX'
  | 'OTA_SWU_LAYOUT'
  | 'OTA_SWU_DESCRIPTION'
  | 'OTA_SWU_HASH_MISSING'
  | 'OTA_SWU_HASH_MISMATCH'
  | 'OTA_SWU_MISSING_ARTIFACT'
  | 'OTA_SWU_UNSIGNED'
  | 'OTA_SWU_SIGNATURE'
  | 'OTA_SWU_HARDWARE'
  | 'OTA_SWU_TOO_LARGE'
  // install
  | 'OTA_BATTERY_LOW'
  | 'OTA_CONSENT_DECLINED'
  | 'OTA_INSTALL_FAILED'
  | 'OTA_REBOOT_FAILED'
  | 'OTA_COMMAND_FAILED'
  | 'OTA_ABORTED'
  | 'OTA_IO'
  | 'OTA_OPTIONS';

export class OtaError extends Error {
  override readonly name = 'OtaError';
  constructor(
    readonly code: OtaErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `e` is an OtaError (optionally with the given code). */
export function isOtaError(e: unknown, code?: OtaErrorCode): e is OtaError {
  return e instanceof OtaError && (code === undefined || e.code === code);
}
