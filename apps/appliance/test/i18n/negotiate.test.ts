import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LANGUAGE_TAGS,
  languageFromHeader,
  matchLanguage,
  negotiateLanguage,
  parseAcceptLanguage,
} from '../../src/i18n/index.js';
import { ACCEPT_LANGUAGE_MAX_RANGES } from '../../src/i18n/negotiate.js';

describe('Accept-Language (RFC 9110 §12.5.4)', () => {
  it('reads ranges with their weights, heaviest first, ties in header order', () => {
    expect(parseAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual([
      { range: 'fr-CH', q: 1 },
      { range: 'fr', q: 0.9 },
      { range: 'en', q: 0.8 },
      { range: 'de', q: 0.7 },
      { range: '*', q: 0.5 },
    ]);
    expect(parseAcceptLanguage('nl;q=0.8, ja;q=1.000, pl;q=0.8')).toEqual([
      { range: 'ja', q: 1 },
      { range: 'nl', q: 0.8 },
      { range: 'pl', q: 0.8 },
    ]);
    // q=0 means "not acceptable"; malformed entries are dropped, the rest kept.
    expect(parseAcceptLanguage('es;q=0, it;Q=0.5, de;q=1.5, fr;q=abc, 12, e$, pt ; q = 0.3')).toEqual([
      { range: 'it', q: 0.5 },
      { range: 'pt', q: 0.3 },
    ]);
    expect(parseAcceptLanguage('')).toEqual([]);
    expect(parseAcceptLanguage(null)).toEqual([]);
  });

  it.each([
    ['de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7', 'de'],
    ['ja-JP', 'ja'],
    ['pt-BR', 'pt'],
    // pt-BR falls back to pt before the next range is tried (RFC 4647 §3.4 lookup)…
    ['pt-BR, de;q=0.5', 'pt'],
    // …and to English when nothing matches.
    ['sv-SE, fi;q=0.8', 'en'],
    ['fr;q=0.5, ja', 'ja'],
    ['es;q=0, it', 'it'],
    ['es;q=0', 'en'],
    ['*', 'en'],
    ['sv, *;q=0.1', 'en'],
    ['en-GB,en;q=0.9', 'en'],
    ['DE-de', 'de'],
    ['ja-JP-u-ca-japanese', 'ja'],
    ['x-klingon, nl', 'nl'],
    // Chinese: the script decides, not the region.
    ['zh-Hans-CN', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-TW', 'en'],
    ['zh-Hant-HK, zh-TW;q=0.9, ja;q=0.5', 'ja'],
    [null, 'en'],
  ])('%s → %s', (header, expected) => {
    expect(languageFromHeader(header)).toBe(expected);
  });

  it('matches one range against any list of languages', () => {
    expect(matchLanguage('pt-PT', ['en', 'pt-BR', 'pt'])).toBe('pt');
    expect(matchLanguage('de-CH', ['en', 'fr'])).toBeNull();
    expect(matchLanguage('*', ['en'])).toBeNull();
    expect(negotiateLanguage('de, fr', ['fr'], 'fr')).toBe('fr');
    expect(negotiateLanguage('ko', ['fr'], 'fr')).toBe('fr');
  });

  it('reads at most a bounded number of ranges and characters', () => {
    const many = Array.from({ length: 1000 }, (_, i) => `l${'abcdefghij'[i % 10]}`).join(',');
    expect(parseAcceptLanguage(`${many},de`).length).toBe(ACCEPT_LANGUAGE_MAX_RANGES);
    expect(languageFromHeader(`${many},de`)).toBe('en');
    const huge = `${'a'.repeat(100_000)},de`;
    const started = performance.now();
    expect(languageFromHeader(huge)).toBe('en');
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('never throws and always answers a supported language (fuzzed)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'de',
        'pt-BR',
        'zh-Hant',
        'zh-Hans',
        'x-a',
        'i-klingon',
        '*',
        'q=0.5',
        ';',
        ',',
        '-',
        ' ',
      ),
      fc.string({ maxLength: 12 }),
      fc.stringMatching(/^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8}){0,3}(;q=[0-9.]{1,5})?$/),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const header = parts.join(parts.length % 2 ? ',' : '');
        const lang = languageFromHeader(header);
        expect(LANGUAGE_TAGS).toContain(lang);
        for (const r of parseAcceptLanguage(header)) expect(r.q).toBeGreaterThan(0);
      }),
      { numRuns: 3000 },
    );
  });
});
