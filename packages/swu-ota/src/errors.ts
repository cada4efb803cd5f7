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
  | 'OTA_DOWNLOAD_TOO_LARGE'
  | 'OTA_DOWNLOAD_REDIRECT'
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
  // policy: versions (anti-rollback) and packages refused before
  | 'OTA_VERSION_DOWNGRADE'
  | 'OTA_VERSION_SAME'
  | 'OTA_VERSION_INVALID'
  | 'OTA_PACKAGE_REFUSED'
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

/**
 * Why a package was refused, in the words of the update screen and of telemetry: its bytes are not
 * what the descriptor announced (`md5`), an image hash is missing or wrong (`hash`), the signature
 * is missing or wrong (`signature`), the device's policy says no (`policy`: version, hardware), or
 * the package is malformed (`package`). Anything else (network, disk, user, battery) is not a
 * refusal: the same package may install later.
 */
export type OtaRefusalCategory = 'md5' | 'hash' | 'signature' | 'policy' | 'package';

/** The error codes that refuse a package, with their category. */
export const OTA_REFUSALS: Readonly<Partial<Record<OtaErrorCode, OtaRefusalCategory>>> = Object.freeze({
  OTA_MD5_MISMATCH: 'md5',
  OTA_SWU_HASH_MISSING: 'hash',
  OTA_SWU_HASH_MISMATCH: 'hash',
  OTA_SWU_UNSIGNED: 'signature',
  OTA_SWU_SIGNATURE: 'signature',
  OTA_VERSION_DOWNGRADE: 'policy',
  OTA_VERSION_SAME: 'policy',
  OTA_VERSION_INVALID: 'policy',
  OTA_SWU_HARDWARE: 'policy',
  OTA_DOWNLOAD_TOO_LARGE: 'policy',
  OTA_CPIO_FORMAT: 'package',
  OTA_CPIO_CHECKSUM: 'package',
  OTA_CPIO_TRUNCATED: 'package',
  OTA_LIBCONFIG_SYNTAX: 'package',
  OTA_SWU_LAYOUT: 'package',
  OTA_SWU_DESCRIPTION: 'package',
  OTA_SWU_MISSING_ARTIFACT: 'package',
  OTA_SWU_TOO_LARGE: 'package',
});

/** A refusal's reason: `code` for telemetry and a screen's text catalog, `category` to group them. */
export interface OtaRefusal {
  code: OtaErrorCode;
  category: OtaRefusalCategory;
}

/** The refusal `e` stands for, or undefined when `e` does not refuse the package (see OTA_REFUSALS). */
export function refusalOf(e: unknown): OtaRefusal | undefined {
  if (!(e instanceof OtaError)) return undefined;
  const category = OTA_REFUSALS[e.code];
  return category === undefined ? undefined : { code: e.code, category };
}
