/**
 * Text from outside (a typed network name, OTA release notes, a Bluetooth module's name, a server's
 * error message) must not drive the terminal or forge log lines. Two helpers:
 * - `escapeControls` for logs: every control character except LF and TAB, and every Unicode
 *   direction control, becomes a visible escape (`\x1b`, `\u202e`), so the record keeps the
 *   evidence but a terminal or log viewer reading it sees plain characters;
 * - `stripControls` for screens: the same characters become U+FFFD (LF is kept for paragraphs).
 * LF is handled by the line reporter, which indents every continuation line.
 */

/**
 * C0 controls but LF and TAB, DEL, C1 controls (ECMA-48 §5: ESC, CSI and OSC start terminal
 * commands), and the direction controls that reorder what is shown (Unicode TR 9: LRE-RLO, LRI-PDI,
 * LRM, RLM, ALM).
 */
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeOne(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** For logs: control and direction characters become visible escapes. Idempotent. */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** For screens: control and direction characters become U+FFFD; LF stays when `keepNewlines`. */
export function stripControls(text: string, keepNewlines = true): string {
  const out = text.replace(UNSAFE, '\uFFFD');
  return keepNewlines ? out : out.replace(/[\n\t]/g, ' ');
}

/**
 * `escapeControls` applied to a log argument: strings, an error's message and stack, and the
 * strings inside plain objects and arrays (depth-bounded). Other values are returned as they are;
 * `util.inspect` already escapes control characters inside the strings it quotes.
 */
export function escapeControlsIn(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return escapeControls(value);
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  if (value instanceof Error) {
    const copy = new Error(escapeControls(value.message));
    copy.name = escapeControls(value.name);
    if (value.stack === undefined) delete copy.stack;
    else copy.stack = escapeControls(value.stack);
    const code = (value as { code?: unknown }).code;
    if (code !== undefined) (copy as { code?: unknown }).code = code;
    return copy;
  }
  if (Array.isArray(value)) return value.map((v) => escapeControlsIn(v, depth + 1));
  if (value instanceof Date || value instanceof Uint8Array) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[escapeControls(k)] = escapeControlsIn(v, depth + 1);
  return out;
}
