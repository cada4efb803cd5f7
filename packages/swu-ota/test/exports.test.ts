import { expect, it } from 'vitest';
import { isOtaError, OtaError, type OtaErrorCode } from '../src/index.js';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "CPIO_HEADER_SIZE",
      "CPIO_TRAILER",
      "DONE_FILE",
      "OtaError",
      "PROGRESS_BAR_WIDTH",
      "SW_DESCRIPTION",
      "SW_DESCRIPTION_SIG",
      "UPDATE_KINDS",
      "buildSwu",
      "byteSum",
      "cpioHeader",
      "cpioHeaderLength",
      "createCpioParser",
      "createDownloader",
      "createInstaller",
      "createUpdateChecker",
      "decodeCpioHeader",
      "descriptorHeaders",
      "descriptorUrl",
      "encodeCpioHeader",
      "formatLibconfig",
      "formatProgressLine",
      "isOtaError",
      "packagePath",
      "parseDescriptor",
      "parseLibconfig",
      "parseSwDescription",
      "progressFilePath",
      "runCommand",
      "signCms",
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
