import {
  formatParts,
  formattersFor,
  type MessageParams,
  type MessageValue,
  type Part,
  parsePattern,
} from './format.js';
import * as de from './locales/de.js';
import * as en from './locales/en.js';
import * as es from './locales/es.js';
import * as fr from './locales/fr.js';
import * as it from './locales/it.js';
import * as ja from './locales/ja.js';
import * as nl from './locales/nl.js';
import * as pl from './locales/pl.js';
import * as pt from './locales/pt.js';
import * as zhCN from './locales/zh-CN.js';
import { matchLanguage, negotiateLanguage } from './negotiate.js';

/** Every message key; English (`locales/en.ts`) is the source. */
export type MessageKey = keyof typeof en.messages;

/** A complete catalog: every English key, nothing else (the compiler checks both). */
export type Catalog = { readonly [K in MessageKey]: string };

export interface LocaleMeta {
  /** BCP 47 tag, as stored in `device.language`. */
  tag: string;
  /** The language's name in the language itself, for the language choice. */
  name: string;
  /** How the translation was made and checked. */
  made: string;
}

export interface Locale extends LocaleMeta {
  messages: Catalog;
}

/** The languages the device has texts for, in the order the settings offer them. */
export const LOCALES: readonly Locale[] = [en, de, fr, es, it, nl, pl, pt, ja, zhCN].map((m) => ({
  ...m.meta,
  messages: m.messages,
}));

export const SOURCE_LANGUAGE = 'en';

// Parameter names of an English pattern, as a type: `{ssid}` and `{n, plural, …}` give `ssid` and
// `n`. Plural branch texts are skipped because they hold a space or `#` (English ones always do).
type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;
type NameOf<B extends string> = Trim<B extends `${infer N},${string}` ? N : B>;
type Identifier<N extends string> = N extends `${string} ${string}` | `${string}#${string}` | '' ? never : N;
type ParamNames<S extends string> = S extends `${string}{${infer B}}${infer Rest}`
  ? Identifier<NameOf<B>> | ParamNames<Rest>
  : never;

/** The parameters a message takes, from its English pattern. */
export type ParamsOf<K extends MessageKey> = {
  readonly [N in ParamNames<(typeof en.messages)[K]>]: MessageValue;
};

/** `t('screen.setup.connecting', { ssid })`; a message without parameters takes none. */
export type TranslateArgs<K extends MessageKey> = [ParamNames<(typeof en.messages)[K]>] extends [never]
  ? []
  : [params: ParamsOf<K>];

/** A message to show later in whatever language the reader has: its key and parameters. */
export interface Message {
  key: MessageKey;
  params?: MessageParams;
}

/** Builds a `Message` with the parameters its English pattern names. */
export function message<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): Message {
  return args[0] === undefined ? { key } : { key, params: args[0] as MessageParams };
}

export interface Translator {
  /** The language the texts are in (a supported tag). */
  readonly lang: string;
  t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string;
  /** A `Message` made earlier (validation errors, failure reasons). */
  text(m: Message): string;
  /** A number in the language's digits and separators; `options` as Intl.NumberFormat's. */
  number(n: number, options?: Intl.NumberFormatOptions): string;
  /** A countdown such as `4:05` (or `04:05`), through Intl.DurationFormat where the runtime has it. */
  countdown(seconds: number): string;
}

const byTag = new Map(LOCALES.map((l) => [l.tag.toLowerCase(), l]));

/** The tags of `LOCALES`. */
export const LANGUAGE_TAGS: readonly string[] = LOCALES.map((l) => l.tag);

/** The supported tag for a tag (`matchLanguage`: `pt-BR` → `pt`, `zh-Hans` → `zh-CN`), else null. */
export function supportedLanguage(tag: string | null | undefined): string | null {
  return tag ? matchLanguage(tag, LANGUAGE_TAGS) : null;
}

/** `supportedLanguage`, or English. */
export function resolveLanguage(tag: string | null | undefined): string {
  return supportedLanguage(tag) ?? SOURCE_LANGUAGE;
}

/** The language of a request from its `Accept-Language` header (English when nothing matches). */
export function languageFromHeader(acceptLanguage: string | null | undefined): string {
  return negotiateLanguage(acceptLanguage, LANGUAGE_TAGS, SOURCE_LANGUAGE);
}

interface DurationFormatLike {
  format(duration: { hours: number; minutes: number; seconds: number }): string;
}
/** `Intl.DurationFormat` (Node 23+, Chromium 129+); TypeScript's ES2023 library does not declare it. */
export type DurationFormatConstructor = new (
  lang: string,
  options: Record<string, string>,
) => DurationFormatLike;

const nativeDurationFormat =
  (Intl as unknown as { DurationFormat?: DurationFormatConstructor }).DurationFormat ?? null;
const durationFormats = new Map<string, DurationFormatLike>();

/**
 * Seconds (rounded up) in the digital form of `lang`: `04:05`, `1:02:05`, with the language's
 * digits. Through `Intl.DurationFormat` where the runtime has it; otherwise (Node 22) the same form
 * built from `Intl.NumberFormat`, without padding the leading unit.
 */
export function formatDigitalDuration(
  seconds: number,
  lang: string,
  impl: DurationFormatConstructor | null = nativeDurationFormat,
): string {
  const s = Math.max(0, Math.ceil(seconds));
  const parts = { hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60), seconds: s % 60 };
  if (impl) {
    const cached = impl === nativeDurationFormat;
    let df = cached ? durationFormats.get(lang) : undefined;
    if (!df) {
      df = new impl(lang, { style: 'digital', hoursDisplay: 'auto' });
      if (cached) durationFormats.set(lang, df);
    }
    return df.format(parts);
  }
  const f = formattersFor(lang);
  const two = new Intl.NumberFormat(lang, { minimumIntegerDigits: 2, useGrouping: false });
  const head =
    parts.hours > 0
      ? `${f.number.format(parts.hours)}:${two.format(parts.minutes)}`
      : f.number.format(parts.minutes);
  return `${head}:${two.format(parts.seconds)}`;
}

const translators = new Map<string, Translator>();

/** The translator of a language (`resolveLanguage` first); made once per language. */
export function translator(tag: string | null | undefined): Translator {
  const lang = resolveLanguage(tag);
  const cached = translators.get(lang);
  if (cached) return cached;
  const locale = byTag.get(lang.toLowerCase())!;
  const f = formattersFor(lang);
  const parsed = new Map<MessageKey, Part[]>();
  const numbers = new Map<string, Intl.NumberFormat>();
  const text = (key: MessageKey, params: MessageParams = {}): string => {
    let parts = parsed.get(key);
    if (!parts) {
      parts = parsePattern(locale.messages[key]);
      parsed.set(key, parts);
    }
    return formatParts(parts, params, f);
  };
  const tr: Translator = {
    lang,
    t: (key, ...args) => text(key, args[0] as MessageParams | undefined),
    text: (m) => text(m.key, m.params),
    number(n, options) {
      if (!options) return f.number.format(n);
      const id = JSON.stringify(options);
      let nf = numbers.get(id);
      if (!nf) {
        nf = new Intl.NumberFormat(lang, options);
        numbers.set(id, nf);
      }
      return nf.format(n);
    },
    countdown: (seconds) => formatDigitalDuration(seconds, lang),
  };
  translators.set(lang, tr);
  return tr;
}
