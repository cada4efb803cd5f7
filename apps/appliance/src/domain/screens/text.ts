/**
 * Text layout for fixed-width screens: how many terminal columns a string takes, and line breaking
 * that holds for long German words and for Chinese and Japanese, which have no spaces.
 *
 * Widths follow Unicode's East Asian Width (UAX #11): Wide and Fullwidth characters (Han, kana,
 * Hangul, fullwidth forms, emoji) take two columns, combining and format characters none, anything
 * else one; Ambiguous characters count as one, as terminals outside East Asian locales draw them.
 * A grapheme cluster takes the width of its first character (two for an emoji sequence).
 */

/** Ranges of East Asian Wide (W) and Fullwidth (F) code points, sorted (from EastAsianWidth.txt). */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], // Hangul Jamo initial consonants
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e], // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
  [0x3041, 0x33ff], // Hiragana, Katakana, Bopomofo, Hangul compatibility, Kanbun, CJK compatibility
  [0x3400, 0x4dbf], // CJK Extension A
  [0x4e00, 0x9fff], // CJK Unified Ideographs
  [0xa000, 0xa4cf], // Yi
  [0xa960, 0xa97f], // Hangul Jamo Extended-A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe10, 0xfe19], // vertical forms
  [0xfe30, 0xfe6f], // CJK compatibility forms, small form variants
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6],
  [0x16fe0, 0x18cff], // Tangut and friends
  [0x1b000, 0x1b2ff], // Kana supplement and extensions, Nushu
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f251],
  [0x1f300, 0x1f64f], // pictographs, emoticons (the text-presentation ones among them are rare in UI)
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb],
  [0x1f90c, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd], // CJK Extensions B and later
];

function isWide(cp: number): boolean {
  let lo = 0;
  let hi = WIDE.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = WIDE[mid]!;
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]/u;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Splits text into user-perceived characters. */
export function splitGraphemes(text: string): string[] {
  return Array.from(graphemes.segment(text), (s) => s.segment);
}

/** Columns one grapheme cluster takes in a terminal. */
export function graphemeWidth(g: string): number {
  const cp = g.codePointAt(0) ?? 0;
  if (ZERO_WIDTH.test(g)) return 0;
  if (isWide(cp)) return 2;
  // An emoji presentation selector makes a narrow symbol (e.g. ☀) a two-column emoji.
  if (g.includes('\uFE0F')) return 2;
  return 1;
}

/** Columns a string takes in a terminal. */
export function displayWidth(text: string): number {
  let w = 0;
  for (const g of splitGraphemes(text)) w += graphemeWidth(g);
  return w;
}

/** Pads with spaces on the right to `width` columns (never cuts). */
export function padEnd(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** Cuts text to `width` columns, ending in `…` when something was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let w = 0;
  for (const g of splitGraphemes(text)) {
    const gw = graphemeWidth(g);
    if (w + gw > width - 1) break;
    out += g;
    w += gw;
  }
  return `${out}…`;
}

/** Characters where CJK text may be broken on either side (ideographs, kana, fullwidth forms). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef\u30fc]/u;
/** Characters a line must not start with (closing punctuation, small kana, the long vowel mark). */
const NO_START =
  /^[、。，．,.:;!?)\]}）」』】〉》〕〙〗！？：；・ー々ゝゞぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ…‥%％”’»›]/u;
/** Characters a line must not end with (opening brackets and quotes). */
const NO_END = /^[([{（「『【〈《〔〘〖“‘«‹]/u;
const SPACE = /^\s$/u;
const WORD = /^[\p{L}\p{N}]/u;

/** Whether a line may break between graphemes `a` and `b` (`before` is the one before `a`). */
function canBreak(before: string | undefined, a: string, b: string): boolean {
  if (SPACE.test(b)) return false;
  if (SPACE.test(a)) return true;
  if (NO_START.test(b) || NO_END.test(a)) return false;
  if (CJK.test(a) || CJK.test(b)) return true;
  // After the hyphen of a compound word (`WLAN-Passwort`), not inside `-5` or `--`.
  return a === '-' && before !== undefined && WORD.test(before) && WORD.test(b);
}

/**
 * Breaks text into lines of at most `width` columns: at spaces, after the hyphen of a compound
 * word, and between CJK characters (not before closing punctuation or after an opening bracket).
 * A word wider than a line is cut where it has to be. `\n` starts a new line.
 */
export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  const limit = Math.max(1, width);
  for (const paragraph of text.split('\n')) {
    const gs = splitGraphemes(paragraph);
    let line: string[] = [];
    let lineWidth = 0;
    /** Index in `line` before which the line may break; -1 when there is none. */
    let lastBreak = -1;
    const flush = (upTo: number) => {
      const head = line.slice(0, upTo);
      while (head.length > 0 && SPACE.test(head.at(-1)!)) head.pop();
      out.push(head.join(''));
      line = line.slice(upTo);
      while (line.length > 0 && SPACE.test(line[0]!)) line.shift();
      lineWidth = line.reduce((w, g) => w + graphemeWidth(g), 0);
      lastBreak = -1;
    };
    for (let i = 0; i < gs.length; i++) {
      const g = gs[i]!;
      if (line.length > 0 && canBreak(gs[i - 2], gs[i - 1]!, g)) lastBreak = line.length;
      // A line that a break started does not begin with the space it broke at.
      if (line.length === 0 && i > 0 && SPACE.test(g)) continue;
      const w = graphemeWidth(g);
      if (lineWidth + w > limit) {
        if (SPACE.test(g)) {
          flush(line.length);
          continue;
        }
        flush(lastBreak > 0 ? lastBreak : line.length);
        // The carried-over part has no break in it (lastBreak was the last); cut it if need be.
        if (lineWidth + w > limit && line.length > 0) flush(line.length);
      }
      line.push(g);
      lineWidth += w;
    }
    const rest = [...line];
    while (rest.length > 0 && SPACE.test(rest.at(-1)!)) rest.pop();
    out.push(rest.join(''));
  }
  return out;
}
