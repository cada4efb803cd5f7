import { ApplianceError } from '../core/errors.js';

/**
 * A small subset of ICU MessageFormat, enough for the device's texts:
 *
 * - `{name}`: a parameter; a number is formatted with `Intl.NumberFormat`, a Date with
 *   `Intl.DateTimeFormat` (medium date, short time), a string is used as it is;
 * - `{name, number}`, `{name, date}`, `{name, time}`: the same with the format named;
 * - `{name, duration}`: a number of seconds as a wait, in the largest unit that reads well
 *   (`45 seconds`, `3 minutes`, `2 hours`; rounded up), through `Intl.NumberFormat`'s units;
 * - `{name, plural, =0 {…} one {…} other {…}}`: the branch picked by `Intl.PluralRules` of the
 *   language (an exact `=N` branch first); `#` in a branch is the number, formatted.
 *
 * There is no quoting: `'` is an ordinary character (French and Italian texts use it), and `{`, `}`
 * cannot appear as text. A pattern that does not parse throws `ApplianceError`
 * (`APPLIANCE_MESSAGE_PATTERN`); every catalog is
 * parsed by the catalog tests, so that never happens on a device.
 */

export type MessageValue = string | number | Date;
export type MessageParams = Readonly<Record<string, MessageValue>>;

export type Part =
  | string
  | { type: 'arg'; name: string; format: 'any' | 'number' | 'date' | 'time' | 'duration' }
  | { type: 'plural'; name: string; branches: ReadonlyMap<string, readonly Part[]> }
  | { type: 'pound' };

/** Plural categories of CLDR, plus `=N` selectors. */
const SELECTOR = /^(?:zero|one|two|few|many|other|=\d+)$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses a pattern into parts; the error names the offset of the first fault. */
export function parsePattern(pattern: string): Part[] {
  let i = 0;
  const fail = (what: string): never => {
    throw new ApplianceError('APPLIANCE_MESSAGE_PATTERN', `${what} at offset ${i} in "${pattern}"`);
  };

  function parseParts(inPlural: boolean): Part[] {
    const parts: Part[] = [];
    let text = '';
    const flush = () => {
      if (text !== '') parts.push(text);
      text = '';
    };
    while (i < pattern.length) {
      const c = pattern[i]!;
      if (c === '}') break;
      if (c === '{') {
        flush();
        parts.push(parseArgument());
        continue;
      }
      if (c === '#' && inPlural) {
        flush();
        parts.push({ type: 'pound' });
        i++;
        continue;
      }
      text += c;
      i++;
    }
    flush();
    return parts;
  }

  function skipSpace(): void {
    while (i < pattern.length && /\s/.test(pattern[i]!)) i++;
  }

  function word(): string {
    skipSpace();
    const start = i;
    while (i < pattern.length && /[^\s,{}]/.test(pattern[i]!)) i++;
    return pattern.slice(start, i);
  }

  function parseArgument(): Part {
    i++; // '{'
    const name = word();
    if (!NAME.test(name)) fail(`bad parameter name "${name}"`);
    skipSpace();
    if (pattern[i] === '}') {
      i++;
      return { type: 'arg', name, format: 'any' };
    }
    if (pattern[i] !== ',') fail('expected "," or "}"');
    i++;
    const kind = word();
    skipSpace();
    if (kind === 'number' || kind === 'date' || kind === 'time' || kind === 'duration') {
      if (pattern[i] !== '}') fail('expected "}"');
      i++;
      return { type: 'arg', name, format: kind };
    }
    if (kind !== 'plural') fail(`unknown format "${kind}"`);
    if (pattern[i] !== ',') fail('expected "," after plural');
    i++;
    const branches = new Map<string, Part[]>();
    for (;;) {
      skipSpace();
      if (pattern[i] === '}') {
        i++;
        break;
      }
      const selector = word();
      if (!SELECTOR.test(selector)) fail(`bad plural selector "${selector}"`);
      if (branches.has(selector)) fail(`plural selector "${selector}" twice`);
      skipSpace();
      if (pattern[i] !== '{') fail('expected "{" after a plural selector');
      i++;
      branches.set(selector, parseParts(true));
      if (pattern[i] !== '}') fail('unclosed plural branch');
      i++;
    }
    if (!branches.has('other')) fail(`plural "${name}" without an "other" branch`);
    return { type: 'plural', name, branches };
  }

  const parts = parseParts(false);
  if (i < pattern.length) fail('unexpected "}"');
  return parts;
}

/** The parameter names a pattern uses, sorted (for comparing a translation with English). */
export function patternParams(parts: readonly Part[]): string[] {
  const names = new Set<string>();
  const walk = (list: readonly Part[]) => {
    for (const p of list) {
      if (typeof p === 'string' || p.type === 'pound') continue;
      names.add(p.name);
      if (p.type === 'plural') for (const branch of p.branches.values()) walk(branch);
    }
  };
  walk(parts);
  return [...names].sort();
}

/** Every plural argument of a pattern with the selectors it offers. */
export function pluralSelectors(parts: readonly Part[]): Array<{ name: string; selectors: string[] }> {
  const out: Array<{ name: string; selectors: string[] }> = [];
  const walk = (list: readonly Part[]) => {
    for (const p of list) {
      if (typeof p === 'string' || p.type !== 'plural') continue;
      out.push({ name: p.name, selectors: [...p.branches.keys()] });
      for (const branch of p.branches.values()) walk(branch);
    }
  };
  walk(parts);
  return out;
}

/** `Intl` formatters of one language, made once. */
export interface Formatters {
  readonly lang: string;
  number: Intl.NumberFormat;
  plural: Intl.PluralRules;
  date: Intl.DateTimeFormat;
  time: Intl.DateTimeFormat;
  /** Waits in seconds, minutes and hours, written out (`unitDisplay: 'long'`). */
  seconds: Intl.NumberFormat;
  minutes: Intl.NumberFormat;
  hours: Intl.NumberFormat;
}

const formatterCache = new Map<string, Formatters>();

export function formattersFor(lang: string): Formatters {
  let f = formatterCache.get(lang);
  if (!f) {
    f = {
      lang,
      number: new Intl.NumberFormat(lang),
      plural: new Intl.PluralRules(lang),
      date: new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }),
      time: new Intl.DateTimeFormat(lang, { timeStyle: 'short' }),
      seconds: new Intl.NumberFormat(lang, { style: 'unit', unit: 'second', unitDisplay: 'long' }),
      minutes: new Intl.NumberFormat(lang, { style: 'unit', unit: 'minute', unitDisplay: 'long' }),
      hours: new Intl.NumberFormat(lang, { style: 'unit', unit: 'hour', unitDisplay: 'long' }),
    };
    formatterCache.set(lang, f);
  }
  return f;
}

/** Seconds to wait, in seconds below 90, minutes below 90 minutes, else hours; rounded up. */
export function formatWait(seconds: number, f: Formatters): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 90) return f.seconds.format(s);
  if (s < 5400) return f.minutes.format(Math.ceil(s / 60));
  return f.hours.format(Math.ceil(s / 3600));
}

function show(value: MessageValue | undefined, format: string, f: Formatters): string {
  if (value === undefined) return '';
  if (format === 'duration' && typeof value === 'number') return formatWait(value, f);
  if (value instanceof Date) return format === 'time' ? f.time.format(value) : f.date.format(value);
  if (typeof value === 'number') return f.number.format(value);
  return value;
}

/** Fills `parts` with `params` for one language. A missing parameter shows as empty text. */
export function formatParts(parts: readonly Part[], params: MessageParams, f: Formatters): string {
  let out = '';
  const run = (list: readonly Part[], count: number | null) => {
    for (const p of list) {
      if (typeof p === 'string') out += p;
      else if (p.type === 'pound') out += count === null ? '#' : f.number.format(count);
      else if (p.type === 'arg') out += show(params[p.name], p.format, f);
      else {
        const raw = params[p.name];
        const n = typeof raw === 'number' ? raw : Number(raw);
        const exact = p.branches.get(`=${n}`);
        const branch = exact ?? p.branches.get(f.plural.select(n)) ?? p.branches.get('other')!;
        run(branch, n);
      }
    }
  };
  run(parts, null);
  return out;
}
