import { expect, it } from 'vitest';
import { PskError } from '../src/index.js';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "PASSPHRASE_MAX",
      "PASSPHRASE_MIN",
      "PIN_DEFAULT_ITERATIONS",
      "PIN_MAX_DIGITS",
      "PIN_MIN_DIGITS",
      "PIN_TAG",
      "PSK_BYTES",
      "PSK_ITERATIONS",
      "PskError",
      "SSID_MAX_BYTES",
      "createPinRecord",
      "derivePsk",
      "derivePskSync",
      "isValidPassphrase",
      "isValidPin",
      "normalizeStoredPin",
      "parsePinRecord",
      "ssidBytes",
      "verifyPin",
    ]
  `);
});

it.each([
  ['PSK_SSID_LENGTH'],
  ['PSK_PASSPHRASE_LENGTH'],
  ['PSK_PASSPHRASE_CHARSET'],
  ['PIN_RECORD_VERSION'],
] as const)('PskError carries code %s and its cause', (code) => {
  const cause = new Error('inner');
  const e = new PskError(code, 'msg', { cause });
  expect(e).toBeInstanceOf(Error);
  expect(e.name).toBe('PskError');
  expect(e.code).toBe(code);
  expect(e.cause).toBe(cause);
});
