import { describe, expect, it } from 'vitest';
import { ApplianceError } from '../../src/core/errors.js';
import { formatDigitalDuration } from '../../src/i18n/catalog.js';
import { formatParts, formattersFor, parsePattern } from '../../src/i18n/format.js';
import { message, resolveLanguage, translator } from '../../src/i18n/index.js';

const fmt = (lang: string, pattern: string, params: Record<string, string | number | Date> = {}) =>
  formatParts(parsePattern(pattern), params, formattersFor(lang));

describe('message patterns', () => {
  it('fills parameters; numbers and dates in the language’s own form', () => {
    expect(fmt('en', 'Connecting to {ssid}…', { ssid: 'Home' })).toBe('Connecting to Home…');
    expect(fmt('en', '{n} bytes', { n: 1234567.5 })).toBe('1,234,567.5 bytes');
    expect(fmt('de', '{n} Bytes', { n: 1234567.5 })).toBe('1.234.567,5 Bytes');
    expect(fmt('fr', '{n, number}', { n: 1234.5 })).toBe('1\u202f234,5');
    const when = new Date(Date.UTC(2026, 2, 14, 15, 30));
    expect(fmt('en', '{d, date}', { d: when })).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(when),
    );
    expect(fmt('de', '{d, time}', { d: when })).toBe(
      new Intl.DateTimeFormat('de', { timeStyle: 'short' }).format(when),
    );
    // A missing parameter shows as nothing rather than as the placeholder.
    expect(fmt('en', 'to {ssid}.')).toBe('to .');
  });

  it('plurals follow Intl.PluralRules of the language, with `#` formatted', () => {
    const en = '{n, plural, one {# try left} other {# tries left}}';
    expect([0, 1, 2, 1000].map((n) => fmt('en', en, { n }))).toEqual([
      '0 tries left',
      '1 try left',
      '2 tries left',
      '1,000 tries left',
    ]);
    const pl = '{n, plural, one {# próba} few {# próby} many {# prób} other {# próby}}';
    expect([1, 2, 5, 22, 25, 1.5].map((n) => fmt('pl', pl, { n }))).toEqual([
      '1 próba',
      '2 próby',
      '5 prób',
      '22 próby',
      '25 prób',
      '1,5 próby',
    ]);
    // French counts 0 as singular, English does not.
    expect(fmt('fr', '{n, plural, one {# essai} other {# essais}}', { n: 0 })).toBe('0 essai');
    expect(fmt('ja', 'あと{n, plural, other {#回}}', { n: 3 })).toBe('あと3回');
  });

  it('a wait in seconds reads in the largest fitting unit, with the language’s unit words and plurals', () => {
    const wait = (lang: string, seconds: number) => fmt(lang, '{w, duration}', { w: seconds });
    expect([1, 45, 88.2, 90, 300, 5399, 5400, 7300].map((s) => wait('en', s))).toEqual([
      '1 second',
      '45 seconds',
      '89 seconds',
      '2 minutes',
      '5 minutes',
      '90 minutes',
      '2 hours',
      '3 hours',
    ]);
    expect(wait('de', 45)).toBe('45 Sekunden');
    expect([1, 3, 5, 22].map((s) => wait('pl', s))).toEqual([
      '1 sekunda',
      '3 sekundy',
      '5 sekund',
      '22 sekundy',
    ]);
    expect(wait('ja', 120)).toBe('2 分');
    expect(fmt('en', 'Try again in {w, duration}.', { w: 600 })).toBe('Try again in 10 minutes.');
  });

  it('an exact `=N` branch wins over the category; branches may hold parameters', () => {
    const p = '{n, plural, =0 {No digits} one {# digit for {who}} other {# digits for {who}}}';
    expect(fmt('en', p, { n: 0, who: 'Ann' })).toBe('No digits');
    expect(fmt('en', p, { n: 1, who: 'Ann' })).toBe('1 digit for Ann');
    expect(fmt('en', p, { n: 4, who: 'Ann' })).toBe('4 digits for Ann');
  });

  it('apostrophes are plain text (no ICU quoting), so French and Italian need no escapes', () => {
    expect(fmt('fr', "L'appareil n'a pas {x}", { x: 'pu' })).toBe("L'appareil n'a pas pu");
  });

  it.each([
    ['unclosed parameter', 'to {ssid'],
    ['stray brace', 'to } there'],
    ['bad name', 'to {ss id}'],
    ['unknown format', '{n, currency}'],
    ['plural without other', '{n, plural, one {#}}'],
    ['bad selector', '{n, plural, several {#} other {#}}'],
    ['selector twice', '{n, plural, one {#} one {#} other {#}}'],
    ['unclosed branch', '{n, plural, other {#'],
  ])('refuses a pattern with %s', (_what, pattern) => {
    let error: unknown;
    try {
      parsePattern(pattern);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApplianceError);
    expect((error as ApplianceError).code).toBe('APPLIANCE_MESSAGE_PATTERN');
    expect((error as Error).message).toMatch(/at offset \d+/);
  });
});

describe('translator', () => {
  it('picks the catalog of a supported language, or the nearest one, or English', () => {
    expect(resolveLanguage('de')).toBe('de');
    expect(resolveLanguage('DE-at')).toBe('de');
    expect(resolveLanguage('pt-BR')).toBe('pt');
    expect(resolveLanguage('zh')).toBe('zh-CN');
    expect(resolveLanguage('zh-TW')).toBe('en');
    expect(resolveLanguage('sv')).toBe('en');
    expect(resolveLanguage('')).toBe('en');
    expect(resolveLanguage(undefined)).toBe('en');
    expect(translator('ja-JP').lang).toBe('ja');
  });

  it('translates keys and stored messages', () => {
    const de = translator('de');
    expect(de.t('screen.setup.connecting', { ssid: 'Büro' })).toBe('Verbindung mit Büro wird hergestellt…');
    expect(de.text(message('verify.error.wrong', { left: 1 }))).toBe('Falsches Passwort. Noch 1 Versuch.');
    expect(de.text(message('verify.error.wrong', { left: 2 }))).toBe('Falsches Passwort. Noch 2 Versuche.');
    expect(translator('pl').text(message('verify.error.wrong', { left: 2 }))).toBe(
      'Błędne hasło. Zostały 2 próby.',
    );
  });

  it('formats the countdown through Intl.DurationFormat', () => {
    expect(translator('en').countdown(245.2)).toBe('04:06');
    expect(translator('de').countdown(0)).toBe('00:00');
    expect(translator('en').countdown(3725)).toBe('1:02:05');
    expect(translator('en').countdown(-3)).toBe('00:00');
  });

  it('without Intl.DurationFormat (Node 22) the digital form is built from Intl.NumberFormat', () => {
    expect(formatDigitalDuration(245.2, 'en', null)).toBe('4:06');
    expect(formatDigitalDuration(3725, 'en', null)).toBe('1:02:05');
    // The language's digits are kept (Arabic-Indic in Egyptian Arabic).
    expect(formatDigitalDuration(65, 'ar-EG', null)).toBe('١:٠٥');
  });
});
