import { crc32 } from './crc32.js';
import { BtFrameError } from './errors.js';

/** One contact from the phone (the vendor's record fields are not shown; this is the project's). */
export interface Contact {
  readonly name: string;
  readonly numbers: readonly string[];
}

/** "WVPB": first four bytes of a phone book file. */
export const PHONEBOOK_MAGIC = Object.freeze([0x57, 0x56, 0x50, 0x42] as const);
export const PHONEBOOK_VERSION = 1;
/** Default path, where the device's other programs look for it. */
export const PHONEBOOK_PATH = '/tmp/PHONE_BOOK.bin';
export const PHONEBOOK_MAX_CONTACTS = 20_000;
export const PHONEBOOK_MAX_NAME_BYTES = 1024;
export const PHONEBOOK_MAX_NUMBERS = 32;
export const PHONEBOOK_MAX_NUMBER_BYTES = 64;
/** Files above this size are refused before they are read. */
export const PHONEBOOK_MAX_FILE_BYTES = 16 * 1024 * 1024;

const HEADER = 10; // magic 4 + version 2 + count 4
const TRAILER = 4; // CRC-32

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

function invalid(message: string): BtFrameError {
  return new BtFrameError('BT_PHONEBOOK_INVALID', message);
}

/**
 * Encodes contacts as a phone book file, version 1 (all integers big-endian):
 *
 * ```
 * "WVPB" | version u16 = 1 | count u32 | count x record | CRC-32 u32 of every byte before it
 * record = nameLen u16 | name UTF-8 | numberCount u8 | numberCount x (len u8 | number UTF-8)
 * ```
 */
export function serializePhoneBook(contacts: readonly Contact[]): Buffer {
  if (!Array.isArray(contacts)) throw invalid('contacts must be an array');
  if (contacts.length > PHONEBOOK_MAX_CONTACTS) {
    throw new BtFrameError(
      'BT_PHONEBOOK_LIMIT',
      `${contacts.length} contacts; a phone book holds at most ${PHONEBOOK_MAX_CONTACTS}`,
    );
  }
  const parts: Uint8Array[] = [];
  let size = HEADER + TRAILER;
  contacts.forEach((c, i) => {
    if (c === null || typeof c !== 'object' || typeof c.name !== 'string' || !Array.isArray(c.numbers)) {
      throw invalid(`contact ${i} must be { name: string, numbers: string[] }`);
    }
    const name = encoder.encode(c.name);
    if (name.length > PHONEBOOK_MAX_NAME_BYTES) {
      throw new BtFrameError(
        'BT_PHONEBOOK_LIMIT',
        `contact ${i}: name of ${name.length} bytes (max ${PHONEBOOK_MAX_NAME_BYTES})`,
      );
    }
    if (c.numbers.length > PHONEBOOK_MAX_NUMBERS) {
      throw new BtFrameError(
        'BT_PHONEBOOK_LIMIT',
        `contact ${i}: ${c.numbers.length} numbers (max ${PHONEBOOK_MAX_NUMBERS})`,
      );
    }
    parts.push(name);
    size += 3 + name.length;
    for (const n of c.numbers) {
      if (typeof n !== 'string') throw invalid(`contact ${i}: every number must be a string`);
      const b = encoder.encode(n);
      if (b.length > PHONEBOOK_MAX_NUMBER_BYTES) {
        throw new BtFrameError(
          'BT_PHONEBOOK_LIMIT',
          `contact ${i}: number of ${b.length} bytes (max ${PHONEBOOK_MAX_NUMBER_BYTES})`,
        );
      }
      parts.push(b);
      size += 1 + b.length;
    }
  });
  const out = Buffer.allocUnsafe(size);
  out.set(PHONEBOOK_MAGIC, 0);
  out.writeUInt16BE(PHONEBOOK_VERSION, 4);
  out.writeUInt32BE(contacts.length, 6);
  let o = HEADER;
  let p = 0;
  for (const c of contacts) {
    const name = parts[p++]!;
    out.writeUInt16BE(name.length, o);
    out.set(name, o + 2);
    o += 2 + name.length;
    out[o++] = c.numbers.length;
    for (let k = 0; k < c.numbers.length; k++) {
      const b = parts[p++]!;
      out[o++] = b.length;
      out.set(b, o);
      o += b.length;
    }
  }
  out.writeUInt32BE(crc32(out, 0, o), o);
  return out;
}

/**
 * Decodes a phone book file. The input is treated as hostile: the size, magic, version and CRC are
 * checked first, then every length against what is left; every failure is a `BtFrameError`
 * (`BT_PHONEBOOK_*`), never a crash or an out-of-range read.
 */
export function parsePhoneBook(buf: Uint8Array): Contact[] {
  if (!(buf instanceof Uint8Array)) throw invalid('input must be a Uint8Array');
  if (buf.length > PHONEBOOK_MAX_FILE_BYTES) {
    throw new BtFrameError(
      'BT_PHONEBOOK_LIMIT',
      `phone book of ${buf.length} bytes is above ${PHONEBOOK_MAX_FILE_BYTES}`,
    );
  }
  if (buf.length < 4 || PHONEBOOK_MAGIC.some((m, i) => buf[i] !== m)) {
    throw new BtFrameError('BT_PHONEBOOK_MAGIC', 'not a phone book file (magic "WVPB" missing)');
  }
  if (buf.length < HEADER + TRAILER) {
    throw new BtFrameError('BT_PHONEBOOK_TRUNCATED', `phone book file of ${buf.length} bytes is cut short`);
  }
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const version = view.getUint16(4);
  if (version !== PHONEBOOK_VERSION) {
    throw new BtFrameError(
      'BT_PHONEBOOK_VERSION',
      `phone book format version ${version} is not supported (this reader knows ${PHONEBOOK_VERSION}); download it again`,
    );
  }
  const end = buf.length - TRAILER;
  const stored = view.getUint32(end);
  const actual = crc32(buf, 0, end);
  if (stored !== actual) {
    throw new BtFrameError(
      'BT_PHONEBOOK_CHECKSUM',
      'phone book file is corrupt (CRC-32 mismatch); download it again',
    );
  }
  const count = view.getUint32(6);
  if (count > PHONEBOOK_MAX_CONTACTS) {
    throw new BtFrameError(
      'BT_PHONEBOOK_LIMIT',
      `file declares ${count} contacts (max ${PHONEBOOK_MAX_CONTACTS})`,
    );
  }
  // Each record takes at least 3 bytes: refuse an impossible count before allocating anything.
  if (count * 3 > end - HEADER) {
    throw new BtFrameError(
      'BT_PHONEBOOK_TRUNCATED',
      `file declares ${count} contacts but is too short for them`,
    );
  }
  const contacts: Contact[] = [];
  let o = HEADER;
  const need = (n: number, what: string): void => {
    if (o + n > end) {
      throw new BtFrameError(
        'BT_PHONEBOOK_TRUNCATED',
        `contact ${contacts.length}: ${what} runs past the end`,
      );
    }
  };
  const text = (from: number, to: number, what: string): string => {
    try {
      return utf8.decode(buf.subarray(from, to));
    } catch (error) {
      throw new BtFrameError('BT_PHONEBOOK_ENCODING', `contact ${contacts.length}: ${what} is not UTF-8`, {
        cause: error,
      });
    }
  };
  for (let i = 0; i < count; i++) {
    need(2, 'name length');
    const nameLen = view.getUint16(o);
    o += 2;
    if (nameLen > PHONEBOOK_MAX_NAME_BYTES) {
      throw new BtFrameError('BT_PHONEBOOK_LIMIT', `contact ${i}: name of ${nameLen} bytes`);
    }
    need(nameLen, 'name');
    const name = text(o, o + nameLen, 'name');
    o += nameLen;
    need(1, 'number count');
    const numberCount = buf[o++]!;
    if (numberCount > PHONEBOOK_MAX_NUMBERS) {
      throw new BtFrameError('BT_PHONEBOOK_LIMIT', `contact ${i}: ${numberCount} numbers`);
    }
    const numbers: string[] = [];
    for (let k = 0; k < numberCount; k++) {
      need(1, 'number length');
      const len = buf[o++]!;
      if (len > PHONEBOOK_MAX_NUMBER_BYTES) {
        throw new BtFrameError('BT_PHONEBOOK_LIMIT', `contact ${i}: number of ${len} bytes`);
      }
      need(len, 'number');
      numbers.push(text(o, o + len, 'number'));
      o += len;
    }
    contacts.push({ name, numbers });
  }
  if (o !== end) {
    throw new BtFrameError('BT_PHONEBOOK_TRAILING', `${end - o} unexpected bytes after the last contact`);
  }
  return contacts;
}

export interface NumberOptions {
  /**
   * Calling code of the device's country without `+` (e.g. `'44'`). When given, a national number
   * with a leading trunk zero (`020 7946 0958`) becomes international (`+442079460958`).
   */
  countryCode?: string;
}

/**
 * Normalises a phone number for comparison: spaces, dashes, dots, slashes and brackets go
 * (and a bracketed trunk zero after a country code, `+44 (0)20`);
 * `+CC` and `00CC` become `+CC...`; a leading trunk `0` is dropped (or replaced by `+countryCode`);
 * anything after a pause or extension marker (`,` `;` `p` `w` `x`) is cut. Returns '' when no
 * digit is left.
 */
export function normalizeNumber(input: string, options: NumberOptions = {}): string {
  if (typeof input !== 'string') return '';
  const cut = input.search(/[,;pPwWxX]/);
  // "+44 (0)20 ...": the bracketed trunk zero is not dialled after a country code.
  const s = (cut >= 0 ? input.slice(0, cut) : input)
    .replace(/^(\s*(?:\+|00)\s*\d{1,3})\s*\(0\)/, '$1')
    .replace(/[\s\-.()[\]/\u00a0]/g, '');
  const international = s.startsWith('+');
  let digits = s.replace(/[^0-9*#]/g, '');
  if (digits.replace(/[*#]/g, '') === '') return '';
  if (international) return `+${digits}`;
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  if (digits.startsWith('0')) {
    digits = digits.replace(/^0+/, '');
    const cc = options.countryCode?.replace(/\D/g, '');
    if (cc) return `+${cc}${digits}`;
  }
  return digits;
}

/** Shortest national number that may match an international one by its tail. */
const MIN_SUFFIX_DIGITS = 6;

/**
 * True when two numbers are the same line: equal after normalisation, or one is international
 * and the other national and the international one ends with it (at least 6 digits).
 */
export function numbersMatch(a: string, b: string, options: NumberOptions = {}): boolean {
  const x = normalizeNumber(a, options);
  const y = normalizeNumber(b, options);
  if (x === '' || y === '') return false;
  if (x === y) return true;
  const xi = x.startsWith('+');
  const yi = y.startsWith('+');
  if (xi === yi) return false;
  const [intl, national] = xi ? [x, y] : [y, x];
  return national.length >= MIN_SUFFIX_DIGITS && intl.endsWith(national);
}

/** Contacts with at least one number matching `number` (see `numbersMatch`), in file order. */
export function searchByNumber(
  contacts: readonly Contact[],
  number: string,
  options: NumberOptions = {},
): Contact[] {
  if (normalizeNumber(number, options) === '') return [];
  return contacts.filter((c) => c.numbers.some((n) => numbersMatch(n, number, options)));
}
