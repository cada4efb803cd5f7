/** One entry of `Accept-Language`: a language range and its weight. */
export interface LanguageRange {
  range: string;
  q: number;
}

/** Longer headers are read up to here; no browser sends more than a few dozen bytes. */
export const ACCEPT_LANGUAGE_MAX_CHARS = 4096;
/** Ranges beyond this many are ignored. */
export const ACCEPT_LANGUAGE_MAX_RANGES = 32;

/** RFC 4647 §2.1 language-range (with RFC 9110's `*`). */
const RANGE = /^(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$/;
/** RFC 9110 §12.4.2 qvalue. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Reads `Accept-Language` (RFC 9110 §12.5.4): ranges with their `q` weights, heaviest first, the
 * header's order kept among equal weights. Ranges with `q=0` ("not acceptable") and malformed
 * entries are left out; the input is treated as hostile and never throws.
 */
export function parseAcceptLanguage(header: string | null | undefined): LanguageRange[] {
  if (!header) return [];
  const out: LanguageRange[] = [];
  for (const item of header.slice(0, ACCEPT_LANGUAGE_MAX_CHARS).split(',')) {
    if (out.length >= ACCEPT_LANGUAGE_MAX_RANGES) break;
    const [rawRange = '', ...params] = item.split(';');
    const range = rawRange.trim();
    if (!RANGE.test(range)) continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const m = /^\s*q\s*=\s*(\S*)\s*$/i.exec(param);
      if (!m) continue; // other parameters are not defined for this header; ignore them
      if (!QVALUE.test(m[1]!)) valid = false;
      else q = Number(m[1]);
    }
    if (valid && q > 0) out.push({ range, q });
  }
  // Array.prototype.sort is stable: equal weights keep the header's order.
  return out.sort((a, b) => b.q - a.q);
}

function languageAndScript(tag: string): string | null {
  try {
    const l = new Intl.Locale(tag).maximize();
    return `${l.language}-${l.script ?? ''}`;
  } catch {
    return null;
  }
}

/**
 * The supported tag for one range, or null. RFC 4647 §3.4 lookup first: the range, then the range
 * with its last subtag removed, and so on (`pt-BR` → `pt`). Then a supported tag with the same
 * language and script (`zh`, `zh-Hans-CN` and `zh-SG` → `zh-CN`, but `zh-TW`, written in
 * Traditional script, does not).
 */
export function matchLanguage(range: string, supported: readonly string[]): string | null {
  if (range === '*' || !RANGE.test(range)) return null;
  const lower = supported.map((s) => s.toLowerCase());
  const subtags = range.toLowerCase().split('-');
  while (subtags.length > 0) {
    const i = lower.indexOf(subtags.join('-'));
    if (i !== -1) return supported[i]!;
    subtags.pop();
    // A single-letter subtag (an extension or private-use singleton) goes with the one after it.
    if (subtags.length > 0 && subtags.at(-1)!.length === 1) subtags.pop();
  }
  const wanted = languageAndScript(range);
  if (wanted === null) return null;
  return supported.find((s) => languageAndScript(s) === wanted) ?? null;
}

/**
 * The language for a request: the first range of `Accept-Language` (by weight) that a catalog
 * serves, through `matchLanguage`; `fallback` when none does. `*` adds nothing: the fallback is
 * the answer for "any other language" as it is for no match.
 */
export function negotiateLanguage(
  header: string | null | undefined,
  supported: readonly string[],
  fallback: string,
): string {
  for (const { range } of parseAcceptLanguage(header)) {
    const match = matchLanguage(range, supported);
    if (match) return match;
  }
  return fallback;
}
