// Names and versions come from the module (and, through it, from any phone in range) and end up in
// logs and on a terminal. A terminal acts on control characters: ESC and CSI start escape
// sequences, CR rewinds the line, a line feed starts a forged log line, and the Unicode bidi
// controls reorder what is shown (CVE-2021-42574). None of them belongs in a name.

/**
 * C0 controls but TAB and LF, DEL, C1 controls (U+0080-U+009F, U+009B is a one-byte CSI), the
 * bidi marks, embeddings, overrides and isolates, and U+2028/U+2029.
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

const utf8 = new TextDecoder('utf-8', { fatal: false });

/**
 * Text the module sends (a name, a version, a build time, a phone's name in an event): UTF-8
 * (invalid bytes become U+FFFD), cut at the first NUL as a C string is, on one line and without
 * control characters. What the appliance logs or draws.
 */
export function decodeBtText(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return stripControls(utf8.decode(end === -1 ? bytes : bytes.subarray(0, end))).trim();
}
