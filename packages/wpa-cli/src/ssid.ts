import { WpaCliError } from './errors.js';

/** IEEE 802.11 §9.4.2.2: an SSID is 0 to 32 octets (0 only in a scan result of a hidden network). */
export const SSID_MAX_BYTES = 32;

const HEX = /^[0-9a-fA-F]{2}$/;

/** 0..15 for an ASCII hex digit's char code, -1 for anything else (NaN included). */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/**
 * Turns an SSID as wpa_supplicant prints it (`list_networks`, `scan_results`, `status`: its
 * `printf_encode`, src/utils/common.c) back into the exact bytes.
 *
 * printf_encode writes printable ASCII (0x20-0x7e) as itself except `"` -> `\"` and `\` -> `\\`,
 * ESC/LF/CR/TAB as `\e` `\n` `\r` `\t`, and every other byte as `\xNN`. Anything that encoder could
 * not have produced (a lone or unknown escape, a raw control or non-ASCII character, more than
 * 32 bytes) is a `WPA_CLI_PARSE` error rather than a guess.
 */
export function decodeSsid(text: string): Buffer {
  if (typeof text !== 'string') throw new WpaCliError('WPA_CLI_PARSE', 'SSID text must be a string');
  // Longest legal form: 32 bytes as \xNN.
  if (text.length > SSID_MAX_BYTES * 4) {
    throw new WpaCliError(
      'WPA_CLI_PARSE',
      `encoded SSID is ${text.length} characters; at most 128 are possible`,
    );
  }
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x5c) {
      if (c < 0x20 || c > 0x7e) {
        throw new WpaCliError(
          'WPA_CLI_PARSE',
          `encoded SSID has a raw character U+${c.toString(16).padStart(4, '0')} at ${i}; printf_encode escapes it`,
        );
      }
      if (c === 0x22) throw new WpaCliError('WPA_CLI_PARSE', `encoded SSID has an unescaped '"' at ${i}`);
      out.push(c);
    } else {
      const e = text[i + 1];
      switch (e) {
        case '"':
          out.push(0x22);
          break;
        case '\\':
          out.push(0x5c);
          break;
        case 'e':
          out.push(0x1b);
          break;
        case 'n':
          out.push(0x0a);
          break;
        case 'r':
          out.push(0x0d);
          break;
        case 't':
          out.push(0x09);
          break;
        case 'x': {
          const hi = hexValue(text.charCodeAt(i + 2));
          const lo = hexValue(text.charCodeAt(i + 3));
          if (hi < 0 || lo < 0) {
            throw new WpaCliError('WPA_CLI_PARSE', `encoded SSID has '\\x' without two hex digits at ${i}`);
          }
          out.push((hi << 4) | lo);
          i += 2;
          break;
        }
        case undefined:
          throw new WpaCliError('WPA_CLI_PARSE', 'encoded SSID ends with a lone backslash');
        default:
          throw new WpaCliError('WPA_CLI_PARSE', `encoded SSID has an unknown escape '\\${e}' at ${i}`);
      }
      i += 1;
    }
    if (out.length > SSID_MAX_BYTES) {
      throw new WpaCliError('WPA_CLI_PARSE', `encoded SSID decodes to more than ${SSID_MAX_BYTES} bytes`);
    }
  }
  return Buffer.from(out);
}

/** SSID bytes from a string (UTF-8) or bytes, checked to be 1..32 bytes. */
export function ssidToBytes(ssid: string | Uint8Array): Buffer {
  let bytes: Buffer;
  if (typeof ssid === 'string') bytes = Buffer.from(ssid, 'utf8');
  else if (ssid instanceof Uint8Array) bytes = Buffer.from(ssid.buffer, ssid.byteOffset, ssid.byteLength);
  else throw new WpaCliError('WPA_CLI_ARGUMENT', 'SSID must be a string or a Uint8Array');
  if (bytes.length < 1 || bytes.length > SSID_MAX_BYTES) {
    throw new WpaCliError(
      'WPA_CLI_ARGUMENT',
      `SSID is ${bytes.length} bytes; it must be 1 to ${SSID_MAX_BYTES}`,
    );
  }
  return bytes;
}

/**
 * The SSID as lowercase hex, the form `set_network <id> ssid <hex>` takes with no quoting at all.
 * A string is encoded as UTF-8; bytes are used as they are.
 */
export function encodeSsidHex(ssid: string | Uint8Array): string {
  return ssidToBytes(ssid).toString('hex');
}

/** Length and code point of the well-formed UTF-8 sequence at `i` (RFC 3629 §4), or undefined. */
function utf8At(b: Uint8Array, i: number): { cp: number; len: number } | undefined {
  const b0 = b[i]!;
  if (b0 < 0x80) return { cp: b0, len: 1 };
  const cont = (k: number, lo = 0x80, hi = 0xbf): number | undefined => {
    const v = b[i + k];
    return v !== undefined && v >= lo && v <= hi ? v & 0x3f : undefined;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1);
    return c1 === undefined ? undefined : { cp: ((b0 & 0x1f) << 6) | c1, len: 2 };
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf; // no UTF-16 surrogates
    const c1 = cont(1, lo, hi);
    const c2 = cont(2);
    if (c1 === undefined || c2 === undefined) return undefined;
    return { cp: ((b0 & 0x0f) << 12) | (c1 << 6) | c2, len: 3 };
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf; // nothing above U+10FFFF
    const c1 = cont(1, lo, hi);
    const c2 = cont(2);
    const c3 = cont(3);
    if (c1 === undefined || c2 === undefined || c3 === undefined) return undefined;
    return { cp: ((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, len: 4 };
  }
  return undefined;
}

// Characters that would hide, reorder or break the text: controls, format characters (bidi
// overrides...), private use, unassigned, line/paragraph separators. ZWNJ/ZWJ stay, emoji need them.
const HIDDEN = /^[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]$/u;
const hiddenChar = (cp: number) =>
  cp < 0x20 ||
  cp === 0x7f ||
  (cp > 0x7f && cp !== 0x200c && cp !== 0x200d && HIDDEN.test(String.fromCodePoint(cp)));
const HEX_BYTE = Array.from({ length: 256 }, (_, v) => `\\x${v.toString(16).padStart(2, '0')}`);
const hexByte = (v: number) => HEX_BYTE[v]!;

/**
 * A display form of SSID bytes that never loses or invents a byte: well-formed, visible UTF-8 is
 * shown as text, `\` as `\\`, and every other byte (invalid UTF-8, controls, bidi overrides and
 * other invisible characters) as `\xNN`. `parseFormattedSsid` turns it back into the same bytes.
 */
export function formatSsid(ssid: Uint8Array): string {
  let s = '';
  for (let i = 0; i < ssid.length; ) {
    const u = utf8At(ssid, i);
    if (u && u.cp === 0x5c) s += '\\\\';
    else if (u && !hiddenChar(u.cp)) s += String.fromCodePoint(u.cp);
    else {
      const len = u?.len ?? 1;
      for (let k = 0; k < len; k++) s += hexByte(ssid[i + k]!);
      i += len;
      continue;
    }
    i += u.len;
  }
  return s;
}

/** The inverse of `formatSsid`: `\\` and `\xNN` are bytes, every other character its UTF-8. */
export function parseFormattedSsid(text: string): Buffer {
  if (typeof text !== 'string') throw new WpaCliError('WPA_CLI_PARSE', 'formatted SSID must be a string');
  if (text.length > SSID_MAX_BYTES * 4) {
    throw new WpaCliError(
      'WPA_CLI_PARSE',
      `formatted SSID is ${text.length} characters; at most 128 are possible`,
    );
  }
  const out: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    if (cp === 0x5c) {
      if (text[i + 1] === '\\') {
        out.push(0x5c);
        i += 2;
      } else if (text[i + 1] === 'x' && HEX.test(text.slice(i + 2, i + 4))) {
        out.push(Number.parseInt(text.slice(i + 2, i + 4), 16));
        i += 4;
      } else {
        throw new WpaCliError(
          'WPA_CLI_PARSE',
          `formatted SSID has a backslash that is neither \\\\ nor \\xNN at ${i}`,
        );
      }
    } else {
      if (cp >= 0xd800 && cp <= 0xdfff) {
        throw new WpaCliError('WPA_CLI_PARSE', `formatted SSID has a lone UTF-16 surrogate at ${i}`);
      }
      const ch = String.fromCodePoint(cp);
      for (const b of Buffer.from(ch, 'utf8')) out.push(b);
      i += ch.length;
    }
    if (out.length > SSID_MAX_BYTES) {
      throw new WpaCliError('WPA_CLI_PARSE', `formatted SSID is more than ${SSID_MAX_BYTES} bytes`);
    }
  }
  return Buffer.from(out);
}
