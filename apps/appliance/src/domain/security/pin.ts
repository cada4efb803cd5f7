import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { isValidPin, PIN_DEFAULT_ITERATIONS, PIN_TAG, PskError, parsePinRecord } from '@waved/psk';

/**
 * The device PIN record of @waved/psk (`pin1$<digits>$<iterations>$<salt b64>$<hash b64>`,
 * PBKDF2-HMAC-SHA256), made and checked with `crypto.pbkdf2` on libuv's thread pool. 100 000
 * iterations take tens of milliseconds of CPU; done with `pbkdf2Sync` on the event loop, a few
 * concurrent form posts held up DNS and DHCP answers for hundreds of milliseconds.
 */
const pbkdf2Async = promisify(pbkdf2);
const HASH_BYTES = 32;
const SALT_BYTES = 16;

function hash(pin: string, salt: Buffer, iterations: number): Promise<Buffer> {
  return pbkdf2Async(Buffer.from(pin, 'ascii'), salt, iterations, HASH_BYTES, 'sha256');
}

/** `createPinRecord` of @waved/psk, off the event loop. */
export async function createPinRecordAsync(
  pin: string,
  options: { iterations?: number | undefined; salt?: Uint8Array | undefined } = {},
): Promise<string> {
  if (!isValidPin(pin)) throw new PskError('PSK_PIN_FORMAT', 'PIN must be 4 to 6 digits');
  const iterations = options.iterations ?? PIN_DEFAULT_ITERATIONS;
  if (!Number.isInteger(iterations) || iterations < 1_000 || iterations > 10_000_000)
    throw new PskError('PSK_PIN_OPTIONS', 'iterations must be an integer from 1000 to 10000000');
  const salt = options.salt ? Buffer.from(options.salt) : randomBytes(SALT_BYTES);
  const digest = await hash(pin, salt, iterations);
  return [PIN_TAG, pin.length, iterations, salt.toString('base64'), digest.toString('base64')].join('$');
}

/**
 * `verifyPin` of @waved/psk, off the event loop: constant-time, and a malformed PIN is hashed too
 * so the time does not tell which check failed. Throws only for a malformed record.
 */
export async function verifyPinAsync(pin: string, record: string): Promise<boolean> {
  const r = parsePinRecord(record);
  const candidate = await hash(typeof pin === 'string' ? pin : '', r.salt, r.iterations);
  return timingSafeEqual(candidate, r.hash) && isValidPin(pin) && pin.length === r.digits;
}
