import { pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { PskError } from './errors.js';

/**
 * Device PIN records: `pin1$<digits>$<iterations>$<salt b64>$<hash b64>`, PBKDF2-HMAC-SHA256.
 * A 4-6 digit PIN has at most 10^6 values, so the hash only keeps the digits out of the file;
 * the file's 0600 mode is the protection.
 */
export const PIN_TAG = 'pin1';
export const PIN_DEFAULT_ITERATIONS = 100_000;
export const PIN_MIN_DIGITS = 4;
export const PIN_MAX_DIGITS = 6;
const PIN_HASH_BYTES = 32;
const PIN_SALT_BYTES = 16;
const PIN_MIN_ITERATIONS = 1_000;
const PIN_MAX_ITERATIONS = 10_000_000;
const PIN_RE = /^[0-9]{4,6}$/;
const B64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface PinRecord {
  version: 'pin1';
  digits: number;
  iterations: number;
  salt: Buffer;
  hash: Buffer;
}

export interface PinRecordOptions {
  iterations?: number | undefined;
  /** Salt bytes (tests only); defaults to 16 bytes from the CSPRNG. */
  salt?: Uint8Array | undefined;
}

export function isValidPin(pin: unknown): boolean {
  return typeof pin === 'string' && PIN_RE.test(pin);
}

function hashPin(pin: string, salt: Buffer, iterations: number): Buffer {
  return pbkdf2Sync(Buffer.from(pin, 'ascii'), salt, iterations, PIN_HASH_BYTES, 'sha256');
}

export function createPinRecord(pin: string, options: PinRecordOptions = {}): string {
  if (!isValidPin(pin)) {
    throw new PskError('PSK_PIN_FORMAT', `PIN must be ${PIN_MIN_DIGITS} to ${PIN_MAX_DIGITS} digits`);
  }
  const iterations = options.iterations ?? PIN_DEFAULT_ITERATIONS;
  if (!Number.isInteger(iterations) || iterations < PIN_MIN_ITERATIONS || iterations > PIN_MAX_ITERATIONS) {
    throw new PskError(
      'PSK_PIN_OPTIONS',
      `iterations must be an integer from ${PIN_MIN_ITERATIONS} to ${PIN_MAX_ITERATIONS}`,
    );
  }
  const salt = options.salt ? Buffer.from(options.salt) : randomBytes(PIN_SALT_BYTES);
  if (salt.length < 8) throw new PskError('PSK_PIN_OPTIONS', 'salt must be at least 8 bytes');
  const hash = hashPin(pin, salt, iterations);
  return [PIN_TAG, pin.length, iterations, salt.toString('base64'), hash.toString('base64')].join('$');
}

export function parsePinRecord(record: string): PinRecord {
  if (typeof record !== 'string') throw new PskError('PSK_PIN_RECORD_FORMAT', 'PIN record must be a string');
  const parts = record.split('$');
  if (parts.length !== 5) {
    throw new PskError(
      'PSK_PIN_RECORD_FORMAT',
      `PIN record has ${parts.length} fields; expected 5 separated by "$"`,
    );
  }
  const [tag, digitsText, iterText, saltText, hashText] = parts as [string, string, string, string, string];
  if (tag !== PIN_TAG)
    throw new PskError('PSK_PIN_RECORD_VERSION', `PIN record tag "${tag.slice(0, 16)}" is not "${PIN_TAG}"`);
  if (!/^[4-6]$/.test(digitsText))
    throw new PskError('PSK_PIN_RECORD_FORMAT', 'PIN record digit count must be 4, 5 or 6');
  if (!/^[1-9][0-9]{0,7}$/.test(iterText))
    throw new PskError('PSK_PIN_RECORD_FORMAT', 'PIN record iterations is not a number');
  const iterations = Number(iterText);
  if (iterations < PIN_MIN_ITERATIONS || iterations > PIN_MAX_ITERATIONS) {
    throw new PskError(
      'PSK_PIN_RECORD_FORMAT',
      `PIN record iterations out of range ${PIN_MIN_ITERATIONS}..${PIN_MAX_ITERATIONS}`,
    );
  }
  if (!B64.test(saltText) || !B64.test(hashText))
    throw new PskError('PSK_PIN_RECORD_FORMAT', 'PIN record salt or hash is not base64');
  const salt = Buffer.from(saltText, 'base64');
  const hash = Buffer.from(hashText, 'base64');
  if (salt.length < 8) throw new PskError('PSK_PIN_RECORD_FORMAT', 'PIN record salt is shorter than 8 bytes');
  if (hash.length !== PIN_HASH_BYTES)
    throw new PskError('PSK_PIN_RECORD_FORMAT', `PIN record hash is not ${PIN_HASH_BYTES} bytes`);
  return { version: PIN_TAG, digits: Number(digitsText), iterations, salt, hash };
}

/** Checks a PIN against a record in constant time. Throws only for a malformed record. */
export function verifyPin(pin: string, record: string | PinRecord): boolean {
  const r = typeof record === 'string' ? parsePinRecord(record) : record;
  // Hash even a malformed PIN so the time taken does not tell which check failed.
  const candidate = hashPin(typeof pin === 'string' ? pin : '', r.salt, r.iterations);
  const same = timingSafeEqual(candidate, r.hash);
  return same && isValidPin(pin) && pin.length === r.digits;
}

export type StoredPin =
  | { action: 'keep'; record: string }
  | { action: 'hashed'; record: string }
  | { action: 'drop'; reason: string };

/**
 * For a config loader: a valid record is kept, a plain 4-6 digit value is hashed into a record,
 * anything else is dropped with a reason that never contains the value.
 */
export function normalizeStoredPin(value: unknown, options?: PinRecordOptions): StoredPin {
  if (typeof value === 'number' && Number.isInteger(value)) {
    return {
      action: 'drop',
      reason: 'PIN is a TOML number; write it as a quoted string so leading zeros survive',
    };
  }
  if (typeof value !== 'string')
    return { action: 'drop', reason: `PIN must be a string, got ${typeof value}` };
  if (isValidPin(value)) return { action: 'hashed', record: createPinRecord(value, options) };
  if (value.startsWith(`${PIN_TAG}$`) || value.includes('$')) {
    try {
      parsePinRecord(value);
      return { action: 'keep', record: value };
    } catch (error) {
      return { action: 'drop', reason: `PIN record is malformed: ${(error as PskError).message}` };
    }
  }
  return {
    action: 'drop',
    reason: `PIN must be ${PIN_MIN_DIGITS} to ${PIN_MAX_DIGITS} digits or a ${PIN_TAG} record`,
  };
}
