import { BtFrameError } from './errors.js';
import {
  type Contact,
  PHONEBOOK_MAX_CONTACTS,
  PHONEBOOK_MAX_NAME_BYTES,
  PHONEBOOK_MAX_NUMBER_BYTES,
  PHONEBOOK_MAX_NUMBERS,
} from './phone-book.js';

/** Largest vCard text accepted from the module. */
export const VCARD_MAX_BYTES = 8 * 1024 * 1024;

const encoder = new TextEncoder();

/** Cuts a string to at most `max` UTF-8 bytes without splitting a character. */
function clip(s: string, max: number): string {
  if (encoder.encode(s).length <= max) return s;
  let out = '';
  let size = 0;
  for (const ch of s) {
    const n = encoder.encode(ch).length;
    if (size + n > max) break;
    out += ch;
    size += n;
  }
  return out;
}

function decodeQuotedPrintable(value: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? ' ' : c));
}

/**
 * Extracts contacts (FN, else N; every TEL) from vCard 2.1/3.0 text as PBAP delivers it: folded
 * lines, `item1.` groups, quoted-printable UTF-8 names. Cards without a name or number are kept as
 * long as they have one of the two. Fields beyond the phone book limits are clipped.
 */
export function parseVCards(input: string | Uint8Array): Contact[] {
  if (input instanceof Uint8Array && input.length > VCARD_MAX_BYTES) {
    throw new BtFrameError(
      'BT_PHONEBOOK_LIMIT',
      `vCard text of ${input.length} bytes (max ${VCARD_MAX_BYTES})`,
    );
  }
  const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
  if (text.length > VCARD_MAX_BYTES) {
    throw new BtFrameError(
      'BT_PHONEBOOK_LIMIT',
      `vCard text of ${text.length} characters (max ${VCARD_MAX_BYTES})`,
    );
  }
  // Quoted-printable soft breaks (2.1), then RFC 6350 folding (3.0/4.0).
  const lines = text
    .replace(/=\r?\n/g, '')
    .replace(/\r?\n[ \t]/g, '')
    .split(/\r?\n/);
  const contacts: Contact[] = [];
  let card: { fn?: string; n?: string; numbers: string[] } | undefined;
  for (const raw of lines) {
    const colon = raw.indexOf(':');
    if (colon < 0) continue;
    const head = raw.slice(0, colon);
    const value = raw.slice(colon + 1);
    const [nameWithGroup = '', ...params] = head.split(';');
    const prop = nameWithGroup.slice(nameWithGroup.lastIndexOf('.') + 1).toUpperCase();
    if (prop === 'BEGIN' && value.trim().toUpperCase() === 'VCARD') {
      card = { numbers: [] };
      continue;
    }
    if (!card) continue;
    if (prop === 'END' && value.trim().toUpperCase() === 'VCARD') {
      const name = card.fn || card.n || '';
      if (name !== '' || card.numbers.length > 0) {
        if (contacts.length >= PHONEBOOK_MAX_CONTACTS) {
          throw new BtFrameError('BT_PHONEBOOK_LIMIT', `more than ${PHONEBOOK_MAX_CONTACTS} contacts`);
        }
        contacts.push({ name: clip(name, PHONEBOOK_MAX_NAME_BYTES), numbers: card.numbers });
      }
      card = undefined;
      continue;
    }
    const upper = params.map((p) => p.toUpperCase());
    const qp = upper.some((p) => p === 'QUOTED-PRINTABLE' || p === 'ENCODING=QUOTED-PRINTABLE');
    const decoded = qp ? decodeQuotedPrintable(value).toString('utf8') : value;
    if (prop === 'FN') {
      card.fn = unescapeText(decoded).trim();
    } else if (prop === 'N') {
      const [family = '', given = '', middle = '', prefix = '', suffix = ''] = decoded
        .split(/(?<!\\);/)
        .map((p) => unescapeText(p).trim());
      card.n = [prefix, given, middle, family, suffix].filter((p) => p !== '').join(' ');
    } else if (prop === 'TEL') {
      const number = clip(unescapeText(decoded).trim().replace(/^tel:/i, ''), PHONEBOOK_MAX_NUMBER_BYTES);
      if (number !== '' && card.numbers.length < PHONEBOOK_MAX_NUMBERS && !card.numbers.includes(number)) {
        card.numbers.push(number);
      }
    }
  }
  return contacts;
}
