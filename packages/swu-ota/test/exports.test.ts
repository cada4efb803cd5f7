import { expect, it } from 'vitest';
import { isOtaError, OTA_REFUSALS, OtaError, type OtaErrorCode, refusalOf } from '../src/index.js';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "CPIO_HEADER_SIZE",
      "CPIO_TRAILER",
      "DEFAULT_MAX_PACKAGE_BYTES",
      "DONE_FILE",
      "MAX_DESCRIPTOR_BYTES",
      "MAX_VERSION_LENGTH",
      "OTA_REFUSALS",
      "OtaError",
      "PACKAGE_BASE_DIR",
      "PACKAGE_FILE",
      "PROGRESS_BAR_WIDTH",
      "SW_DESCRIPTION",
      "SW_DESCRIPTION_SIG",
      "UPDATE_KINDS",
      "buildSwu",
      "byteSum",
      "compareVersions",
      "cpioHeader",
      "cpioHeaderLength",
      "createCpioParser",
      "createDownloader",
      "createInstaller",
      "createPackageStore",
      "createUpdateChecker",
      "decodeCpioHeader",
      "descriptorHeaders",
      "descriptorRequest",
      "descriptorUrl",
      "encodeCpioHeader",
      "formatLibconfig",
      "formatProgressLine",
      "isOtaError",
      "packagePath",
      "parseDescriptor",
      "parseLibconfig",
      "parseSwDescription",
      "parseUpdateResponse",
      "parseVersion",
      "progressFilePath",
      "refusalOf",
      "runCommand",
      "signCms",
      "stripControls",
      "systemClock",
      "verifyCmsSignature",
      "verifySwu",
      "writeCpio",
    ]
  `);
});

it.each([
  ['OTA_DESCRIPTOR_FIELD'],
  ['OTA_DOWNLOAD_INTERRUPTED'],
  ['OTA_NO_SPACE'],
  ['OTA_MD5_MISMATCH'],
  ['OTA_CPIO_CHECKSUM'],
  ['OTA_SWU_SIGNATURE'],
  ['OTA_BATTERY_LOW'],
] as const satisfies (readonly [OtaErrorCode])[])('OtaError carries code %s and its cause', (code) => {
  const cause = new Error('inner');
  const e = new OtaError(code, 'msg', { cause });
  expect(e).toBeInstanceOf(Error);
  expect(e.name).toBe('OtaError');
  expect(e.code).toBe(code);
  expect(e.cause).toBe(cause);
  expect(isOtaError(e)).toBe(true);
  expect(isOtaError(e, code)).toBe(true);
  expect(isOtaError(e, 'OTA_IO')).toBe(false);
  expect(isOtaError(new Error('x'))).toBe(false);
});

it.each([
  ['OTA_MD5_MISMATCH', 'md5'],
  ['OTA_SWU_HASH_MISSING', 'hash'],
  ['OTA_SWU_HASH_MISMATCH', 'hash'],
  ['OTA_SWU_UNSIGNED', 'signature'],
  ['OTA_SWU_SIGNATURE', 'signature'],
  ['OTA_VERSION_DOWNGRADE', 'policy'],
  ['OTA_VERSION_SAME', 'policy'],
  ['OTA_VERSION_INVALID', 'policy'],
  ['OTA_SWU_HARDWARE', 'policy'],
  ['OTA_DOWNLOAD_TOO_LARGE', 'policy'],
  ['OTA_CPIO_CHECKSUM', 'package'],
  ['OTA_SWU_LAYOUT', 'package'],
  ['OTA_CONSENT_DECLINED', undefined],
  ['OTA_BATTERY_LOW', undefined],
  ['OTA_DOWNLOAD_INTERRUPTED', undefined],
  ['OTA_NO_SPACE', undefined],
  ['OTA_TLS', undefined],
  ['OTA_PACKAGE_REFUSED', undefined],
] as const satisfies (readonly [OtaErrorCode, string | undefined])[])(
  '%s refuses the package: %s',
  (code, category) => {
    const e = new OtaError(code, 'msg');
    expect(refusalOf(e)).toEqual(category === undefined ? undefined : { code, category });
    expect(OTA_REFUSALS[code]).toBe(category);
  },
);

it('refusalOf is undefined for anything but an OtaError', () => {
  expect(refusalOf(new Error('OTA_MD5_MISMATCH'))).toBeUndefined();
  expect(refusalOf({ code: 'OTA_MD5_MISMATCH' })).toBeUndefined();
  expect(refusalOf(undefined)).toBeUndefined();
});
