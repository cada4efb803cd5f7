import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/domain/settings/index.js';
import { checkCatalog, LOCALES, SOURCE_LANGUAGE, usedPluralCategories } from '../../src/i18n/index.js';
import { messages as en } from '../../src/i18n/locales/en.js';

const LOCALE_DIR = path.join(import.meta.dirname, '../../src/i18n/locales');

/**
 * Texts that are rightly the same as English in a language (names, symbols, loanwords). Anything
 * else equal to English with a real word in it is a translation that was forgotten.
 */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  de: [
    'screen.wifi.status',
    'update.firmware',
    'group.audio',
    'screen.bt.name',
    'screen.bt.status',
    'screen.bt.version',
  ],
  fr: [
    'screen.menu.title',
    'group.audio',
    'field.audio.volume',
    'portal.signal.excellent',
    'screen.bt.contacts',
    'screen.bt.version',
    'screen.options.mic',
  ],
  es: ['update.firmware', 'group.audio'],
  it: [
    'screen.menu.title',
    'screen.setup.password',
    'update.firmware',
    'verify.password',
    'group.audio',
    'field.audio.volume',
  ],
  nl: [
    'screen.menu.title',
    'screen.action.later',
    'screen.wifi.status',
    'update.firmware',
    'update.model',
    'group.audio',
    'field.audio.volume',
    'screen.bt.status',
  ],
  pl: ['screen.menu.title', 'update.model'],
  pt: ['screen.menu.title', 'update.firmware', 'field.audio.volume'],
  ja: [],
  'zh-CN': [],
};

/** Words of four or more letters outside `{…}` parameters (brand and technical names aside). */
function words(pattern: string): string[] {
  const text = pattern
    .replace(/\{[^{}]*\}/g, ' ')
    .replace(/\b(PC Link|Wi-Fi|Bluetooth|IPv4|waved|MD5|DHCP|USB|Webhook)\b/g, ' ');
  return text.match(/\p{L}{4,}/gu) ?? [];
}

const show = (problems: unknown[]) => JSON.stringify(problems, null, 2);

describe('message catalogs', () => {
  it('English, the source, parses and uses the plural forms English has', () => {
    const problems = checkCatalog(SOURCE_LANGUAGE, en, en);
    expect(problems, show(problems)).toEqual([]);
  });

  it.each(LOCALES.filter((l) => l.tag !== SOURCE_LANGUAGE).map((l) => [l.tag, l] as const))(
    '%s has every English key, no stale key, the same parameters and its own plural forms',
    (tag, locale) => {
      const problems = checkCatalog(tag, locale.messages, en);
      expect(problems, show(problems)).toEqual([]);
    },
  );

  it.each(LOCALES.filter((l) => l.tag !== SOURCE_LANGUAGE).map((l) => [l.tag, l] as const))(
    '%s translates every text (none left in English by mistake)',
    (tag, locale) => {
      const allowed = new Set(SAME_AS_ENGLISH[tag] ?? []);
      const untranslated = Object.entries(locale.messages)
        .filter(([key, text]) => text === en[key as keyof typeof en] && words(text).length > 0)
        .map(([key]) => key)
        .filter((key) => !allowed.has(key));
      expect(untranslated).toEqual([]);
    },
  );

  it('every language the settings offer has a catalog, and every catalog is offered', () => {
    expect(LANGUAGES.map(([tag]) => tag)).toEqual(LOCALES.map((l) => l.tag));
    expect(new Set(LOCALES.map((l) => l.tag)).size).toBe(LOCALES.length);
    for (const l of LOCALES) {
      expect(() => new Intl.Locale(l.tag)).not.toThrow();
      expect(l.name.length).toBeGreaterThan(1);
    }
  });

  it('every catalog file says how it was made', () => {
    const files = fs.readdirSync(LOCALE_DIR).filter((f) => f.endsWith('.ts'));
    expect(files.map((f) => f.replace(/\.ts$/, '')).sort()).toEqual(LOCALES.map((l) => l.tag).sort());
    for (const l of LOCALES) {
      expect(l.made, l.tag).toMatch(/^(Written|Machine-made)\b.*\./);
      const source = fs.readFileSync(path.join(LOCALE_DIR, `${l.tag}.ts`), 'utf8');
      // The file's own comment says it too, for whoever edits the file.
      expect(source.slice(0, 600), l.tag).toMatch(/Machine-made translation|the source catalog/);
    }
  });
});

describe('the catalog check finds each kind of fault', () => {
  const source = {
    a: 'Connecting to {ssid}…',
    b: '{left, plural, one {# try left} other {# tries left}}',
    c: 'Plain',
  };

  it('a missing key, a stale key, a changed parameter', () => {
    const problems = checkCatalog('de', { a: 'Verbinde mit {name}…', c: 'Schlicht', d: 'Alt' }, source);
    expect(problems.map((p) => [p.key, p.problem])).toEqual([
      ['b', 'missing'],
      ['a', 'params'],
      ['d', 'stale'],
    ]);
    expect(problems[1]!.detail).toBe('has {name}, English has {ssid}');
  });

  it('a parameter added or dropped', () => {
    const problems = checkCatalog('de', { a: 'Verbinde…', b: '{left} {x}', c: 'Schlicht' }, source);
    expect(problems.map((p) => [p.key, p.problem])).toEqual([
      ['a', 'params'],
      ['b', 'params'],
    ]);
  });

  it('plural forms the language needs, or does not have', () => {
    // Polish needs one, few and many for the numbers a screen shows.
    expect(usedPluralCategories('pl')).toEqual(['few', 'many', 'one']);
    expect(usedPluralCategories('ja')).toEqual(['other']);
    expect(usedPluralCategories('fr')).toEqual(['one', 'other']);
    const pl = checkCatalog('pl', { ...source, b: '{left, plural, one {# próba} other {# próby}}' }, source);
    expect(pl.map((p) => [p.key, p.problem, p.detail])).toEqual([['b', 'plural', '{left}: needs few, many']]);
    const ja = checkCatalog('ja', { ...source, b: '{left, plural, one {#回} other {#回}}' }, source);
    expect(ja.map((p) => [p.key, p.problem, p.detail])).toEqual([['b', 'plural', '{left}: ja has no one']]);
  });

  it('a pattern that does not parse', () => {
    const problems = checkCatalog('de', { ...source, a: 'Verbinde mit {ssid…' }, source);
    expect(problems.map((p) => [p.key, p.problem])).toEqual([['a', 'unparsable']]);
  });
});
