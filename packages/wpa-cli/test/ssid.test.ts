import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeSsid,
  encodeSsidHex,
  formatSsid,
  parseFormattedSsid,
  parseListNetworks,
  WpaCliError,
} from '../src/index.js';
import { fixture } from './helpers/fixtures.js';
import { printfEncode } from './helpers/printf-encode.js';

const b = (...bytes: number[]) => Buffer.from(bytes);

describe('decodeSsid', () => {
  // The encoded forms below are what wpa_cli list_networks printed (fixtures/list-networks-mixed.txt).
  it.each([
    ['IEEE', Buffer.from('IEEE')],
    ['a\\"b\\\\c ', Buffer.from('a"b\\c ')],
    ['caf\\xc3\\xa9 \\xf0\\x9f\\x93\\xb6', Buffer.from('café 📶')],
    ['\\xff\\x00\\xc6\\e\\n\\r\\tA', b(0xff, 0x00, 0xc6, 0x1b, 0x0a, 0x0d, 0x09, 0x41)],
    ['\\\\x41', Buffer.from('\\x41')],
    ['', b()],
    ['\\xFF', b(0xff)],
  ])('decodes %j', (text, bytes) => {
    expect(decodeSsid(text)).toEqual(bytes);
  });

  it('reads every SSID of the captured list_networks reply back to the bytes that were set', () => {
    const nets = parseListNetworks(fixture('list-networks-mixed'));
    expect(nets.map((n) => n.ssid.toString('hex'))).toEqual([
      Buffer.from('IEEE').toString('hex'),
      Buffer.from('a"b\\c ').toString('hex'),
      Buffer.from('café 📶').toString('hex'),
      'ff00c61b0a0d0941',
      Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZ012345').toString('hex'),
      Buffer.from('\\x41').toString('hex'),
      Buffer.from('OpenNet').toString('hex'),
    ]);
  });

  it('is the exact inverse of printf_encode for every SSID of 0..32 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 32 }), (bytes) => {
        expect(decodeSsid(printfEncode(bytes))).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['a\\', 'lone backslash'],
    ['\\q', 'unknown escape'],
    ['\\x4', 'short \\x'],
    ['\\xg0', 'non-hex \\x'],
    ['a"b', 'raw quote'],
    ['a\tb', 'raw tab'],
    ['café', 'raw non-ASCII'],
    ['A'.repeat(33), '33 bytes'],
    ['\\xff'.repeat(33), '33 escaped bytes'],
  ])('refuses %j (%s) with WPA_CLI_PARSE', (text) => {
    expect(() => decodeSsid(text)).toThrow(expect.objectContaining({ code: 'WPA_CLI_PARSE' }));
  });

  it('throws nothing but WpaCliError on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'binary' }), (text) => {
        try {
          const out = decodeSsid(text);
          expect(out.length).toBeLessThanOrEqual(32);
        } catch (error) {
          expect(error).toBeInstanceOf(WpaCliError);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('encodeSsidHex', () => {
  it('gives the lowercase hex of the UTF-8 or raw bytes', () => {
    expect(encodeSsidHex('IEEE')).toBe('49454545');
    expect(encodeSsidHex('é')).toBe('c3a9');
    expect(encodeSsidHex(b(0xff, 0x00))).toBe('ff00');
    expect(encodeSsidHex(Uint8Array.from([1, 2, 0xab, 3]).subarray(2, 3))).toBe('ab');
  });

  it.each([[''], ['x'.repeat(33)], [new Uint8Array(0)], ['€'.repeat(11)]])('refuses %j', (ssid) => {
    expect(() => encodeSsidHex(ssid)).toThrow(expect.objectContaining({ code: 'WPA_CLI_ARGUMENT' }));
  });
});

describe('formatSsid (display form)', () => {
  it.each([
    [Buffer.from('Home WiFi'), 'Home WiFi'],
    [Buffer.from('café 📶'), 'café 📶'],
    [Buffer.from('trailing '), 'trailing '],
    [Buffer.from('a\\b'), 'a\\\\b'],
    [Buffer.from('\\x41'), '\\\\x41'],
    [b(0xff, 0x41), '\\xffA'],
    [b(0x41, 0x00, 0x0a), 'A\\x00\\x0a'],
    // a truncated UTF-8 sequence stays bytes
    [b(0x41, 0xe2, 0x82), 'A\\xe2\\x82'],
    // overlong "/" and an encoded surrogate are not text
    [b(0xc0, 0xaf), '\\xc0\\xaf'],
    [b(0xed, 0xa0, 0x80), '\\xed\\xa0\\x80'],
    // U+202E RIGHT-TO-LEFT OVERRIDE would reorder what the user sees
    [Buffer.from('ab\u202Ecd'), 'ab\\xe2\\x80\\xaecd'],
    // emoji joined with ZWJ stay readable
    [Buffer.from('👩‍💻'), '👩‍💻'],
  ])('%s -> %j', (bytes, shown) => {
    expect(formatSsid(bytes)).toBe(shown);
    expect(parseFormattedSsid(shown)).toEqual(bytes);
  });

  it('never loses or invents a byte', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ minLength: 0, maxLength: 32 }),
          fc
            .string({ unit: 'grapheme', maxLength: 8 })
            .map((s) => Buffer.from(s).subarray(0, 32))
            .map((x) => new Uint8Array(x)),
        ),
        (bytes) => {
          expect(parseFormattedSsid(formatSsid(bytes))).toEqual(Buffer.from(bytes));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it.each([['a\\'], ['\\q'], ['\\x1'], ['\uD800'], ['x'.repeat(33)]])(
    'parseFormattedSsid refuses %j',
    (text) => {
      expect(() => parseFormattedSsid(text)).toThrow(expect.objectContaining({ code: 'WPA_CLI_PARSE' }));
    },
  );
});
