import fs from 'node:fs';
import { expect, it } from 'vitest';
import { isPskError, PskError, type PskErrorCode } from '../src/index.js';

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
      "isPskError",
      "isValidPassphrase",
      "isValidPin",
      "normalizeStoredPin",
      "parsePinRecord",
      "ssidBytes",
      "verifyPin",
    ]
  `);
});

// Every code once (the `satisfies` fails to compile when a code is added to the type and not here).
const codes = Object.keys({
  PSK_SSID_LENGTH: true,
  PSK_SSID_TYPE: true,
  PSK_PASSPHRASE_LENGTH: true,
  PSK_PASSPHRASE_CHARSET: true,
  PSK_PASSPHRASE_TYPE: true,
  PSK_PIN_FORMAT: true,
  PSK_PIN_RECORD_FORMAT: true,
  PSK_PIN_RECORD_VERSION: true,
  PSK_PIN_OPTIONS: true,
} satisfies Record<PskErrorCode, true>) as PskErrorCode[];

it('the README error table lists exactly these codes', () => {
  const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const listed = [...readme.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((m) => m[1]);
  expect(listed.sort()).toEqual([...codes].sort());
});

it.each(codes.map((c) => [c]))(
  'PskError carries code %s and its cause; isPskError tells it apart',
  (code) => {
    const cause = new Error('inner');
    const e = new PskError(code, 'msg', { cause });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('PskError');
    expect(e.code).toMatch(/^PSK_/);
    expect(e.code).toBe(code);
    expect(e.cause).toBe(cause);
    expect(isPskError(e)).toBe(true);
    expect(isPskError(e, code)).toBe(true);
    expect(
      isPskError(
        e,
        codes.find((c) => c !== code),
      ),
    ).toBe(false);
    expect(isPskError(Object.assign(new Error('msg'), { code }))).toBe(false);
  },
);
