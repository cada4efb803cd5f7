import fc from 'fast-check';
import { expect, it } from 'vitest';
import { stripControls } from '../src/index.js';

const CONTROLS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

it('removes what a terminal acts on: escape sequences, C1 CSI, bell, bidi overrides', () => {
  expect(
    stripControls('ok\u001b[31mred\u001b[0m \u001b]52;c;cGF5bG9hZA==\u0007 \u009b2J \u202eevil\u202c'),
  ).toBe('ok[31mred[0m ]52;c;cGF5bG9hZA== 2J evil');
  // one line for a log field: breaks and tabs become spaces, so a name cannot start a fake log line
  expect(stripControls('Bob\r\n2026-01-01 INFO admin logged in\tx\u2028y')).toBe(
    'Bob  2026-01-01 INFO admin logged in x y',
  );
  expect(stripControls('a\r\nb\rc\u2029d\te', { multiline: true })).toBe('a\nb\nc\nd\te');
  expect(stripControls('lone \ud83d surrogate, pair 😀 kept')).toBe('lone \ufffd surrogate, pair 😀 kept');
  expect(stripControls('Café 東京 مرحبا 👩‍👩‍👧')).toBe('Café 東京 مرحبا 👩‍👩‍👧');
});

/** Any code point, lone surrogates, and many controls (C0, C1, bidi, separators). */
const unit = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0, max: 0xa0 }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('\u200e', '\u202e', '\u2066', '\u2069', '\u2028', '\u2029', '\ud800', '\udfff'),
);

it('on any text: no control left, idempotent, printable text untouched (fuzz)', () => {
  fc.assert(
    fc.property(fc.string({ unit }), fc.boolean(), (text, multiline) => {
      const out = stripControls(text, { multiline });
      expect(out).not.toMatch(CONTROLS);
      if (!multiline) expect(out).not.toMatch(/[\n\t]/);
      expect(stripControls(out, { multiline })).toBe(out);
    }),
    { numRuns: 3000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), (text) => {
      fc.pre(!CONTROLS.test(text) && !/[\t\n\r]/.test(text));
      expect(stripControls(text)).toBe(text);
    }),
  );
});
