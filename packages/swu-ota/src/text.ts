// Text from the cloud (release notes) ends up on a terminal and in logs. A terminal acts on control
// characters: ESC and CSI start escape sequences (colours, cursor moves, window titles, OSC 52
// clipboard writes), CR rewinds the line, BEL rings, and the Unicode bidi controls reorder what is
// shown (the "Trojan Source" trick, CVE-2021-42574). None of them belongs in a note.

/**
 * C0 controls but TAB and LF, DEL, C1 controls (U+0080-U+009F, U+009B is a one-byte CSI), the
 * bidi marks, embeddings, overrides and isolates (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069),
 * and the line and paragraph separators U+2028/U+2029.
 */
const CONTROLS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

export interface StripControlsOptions {
  /** Keep line feeds and tabs (CR LF and a lone CR become LF). Default false: both become a space. */
  multiline?: boolean;
}

/**
 * Removes what a terminal would act on instead of printing. Single-line (the default, for log
 * fields): TAB, LF, CR, U+2028 and U+2029 become a space, every other control character is
 * removed. `multiline`: line breaks are kept as LF and tabs as tabs. Lone surrogates become
 * U+FFFD. Printable text, emoji and every script pass unchanged.
 */
export function stripControls(text: string, options: StripControlsOptions = {}): string {
  // With the u flag a surrogate class matches only unpaired surrogates (a pair is one code point).
  const wellFormed = text.replace(/[\uD800-\uDFFF]/gu, '\uFFFD');
  if (options.multiline) {
    return wellFormed.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(CONTROLS, '');
  }
  return wellFormed.replace(/[\t\n\r\u2028\u2029]/g, ' ').replace(CONTROLS, '');
}
