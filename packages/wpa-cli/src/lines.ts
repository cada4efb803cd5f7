import { WpaCliError } from './errors.js';

/** Replies are at most 4 KiB (wpa_cli's buffer); anything near a megabyte is not a reply. */
const MAX_REPLY_CHARS = 1024 * 1024;

/** The lines of a reply without the final newline; rejects non-strings and absurd sizes. */
export function replyLines(text: string, what: string): string[] {
  if (typeof text !== 'string') throw new WpaCliError('WPA_CLI_PARSE', `${what}: reply must be a string`);
  if (text.length > MAX_REPLY_CHARS) {
    throw new WpaCliError(
      'WPA_CLI_PARSE',
      `${what}: reply is ${text.length} characters, too long to be real`,
    );
  }
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body === '' ? [] : body.split('\n');
}

/** `key=value` lines (split at the first `=`); the first occurrence of a key wins. */
export function keyValues(text: string, what: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [n, line] of replyLines(text, what).entries()) {
    if (line === '') continue;
    const eq = line.indexOf('=');
    if (eq <= 0) {
      throw new WpaCliError(
        'WPA_CLI_PARSE',
        `${what}: line ${n + 1} is not key=value: ${JSON.stringify(line.slice(0, 80))}`,
      );
    }
    const key = line.slice(0, eq);
    if (!(key in out)) out[key] = line.slice(eq + 1);
  }
  return out;
}

const INT = /^-?\d{1,10}$/;

/** A decimal integer field, or a `WPA_CLI_PARSE` error naming it. */
export function intField(value: string, what: string): number {
  if (!INT.test(value))
    throw new WpaCliError(
      'WPA_CLI_PARSE',
      `${what} is not an integer: ${JSON.stringify(value.slice(0, 40))}`,
    );
  return Number.parseInt(value, 10);
}

/** An optional integer field. */
export function optInt(value: string | undefined, what: string): number | undefined {
  return value === undefined ? undefined : intField(value, what);
}

const FLAGS = /^(?:\[[^\]\t\n]*\])*$/;

/** `[A][B-C]` -> `['A', 'B-C']`. */
export function bracketFlags(text: string, what: string): string[] {
  if (!FLAGS.test(text))
    throw new WpaCliError('WPA_CLI_PARSE', `${what}: malformed flags ${JSON.stringify(text.slice(0, 80))}`);
  return text === '' ? [] : text.slice(1, -1).split('][');
}

export const MAC = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/i;
