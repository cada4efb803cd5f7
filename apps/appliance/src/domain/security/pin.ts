import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { isValidPin, PIN_DEFAULT_ITERATIONS, PIN_TAG, PskError, parsePinRecord } from '@waved/psk';
import { ApplianceError } from '../../core/errors.js';
import type { PinHash } from '../../core/ports/pin-hash.js';

/**
 * The device PIN record of @waved/psk (`pin1$<digits>$<iterations>$<salt b64>$<hash b64>`,
 * PBKDF2-HMAC-SHA256), made and checked off the event loop: through the `PinHash` port when one is
 * given, else with `crypto.pbkdf2` on libuv's thread pool. 100 000 iterations take tens of
 * milliseconds of CPU; done with `pbkdf2Sync` on the event loop, a few concurrent form posts held
 * up DNS and DHCP answers for hundreds of milliseconds.
 */
const pbkdf2Async = promisify(pbkdf2);
const HASH_BYTES = 32;
const SALT_BYTES = 16;

/** The default `PinHash`: `crypto.pbkdf2` on libuv's thread pool. */
export const threadPoolPinHash: PinHash = (pin, salt, iterations) =>
  pbkdf2Async(pin, salt, iterations, HASH_BYTES, 'sha256');

/** Runs `hash` and checks it gave a digest of the right size. */
async function digestOf(hash: PinHash, pin: string, salt: Buffer, iterations: number): Promise<Buffer> {
  const digest = await hash(Buffer.from(pin, 'ascii'), salt, iterations);
  if (digest.length !== HASH_BYTES)
    throw new ApplianceError(
      'APPLIANCE_PIN_HASH',
      `the PIN hash gave ${digest.length} bytes, not ${HASH_BYTES}`,
    );
  return digest;
}

/** `createPinRecord` of @waved/psk, off the event loop. */
export async function createPinRecordAsync(
  pin: string,
  options: {
    iterations?: number | undefined;
    salt?: Uint8Array | undefined;
    /** Where the hash runs (default `threadPoolPinHash`). */
    hash?: PinHash | undefined;
  } = {},
): Promise<string> {
  if (!isValidPin(pin)) throw new PskError('PSK_PIN_FORMAT', 'PIN must be 4 to 6 digits');
  const iterations = options.iterations ?? PIN_DEFAULT_ITERATIONS;
  if (!Number.isInteger(iterations) || iterations < 1_000 || iterations > 10_000_000)
    throw new PskError('PSK_PIN_OPTIONS', 'iterations must be an integer from 1000 to 10000000');
  const salt = options.salt ? Buffer.from(options.salt) : randomBytes(SALT_BYTES);
  const digest = await digestOf(options.hash ?? threadPoolPinHash, pin, salt, iterations);
  return [PIN_TAG, pin.length, iterations, salt.toString('base64'), digest.toString('base64')].join('$');
}

/**
 * `verifyPin` of @waved/psk, off the event loop: constant-time, and a malformed PIN is hashed too
 * so the time does not tell which check failed. Throws only for a malformed record.
 */
export async function verifyPinAsync(
  pin: string,
  record: string,
  hash: PinHash = threadPoolPinHash,
): Promise<boolean> {
  const r = parsePinRecord(record);
  const candidate = await digestOf(hash, typeof pin === 'string' ? pin : '', r.salt, r.iterations);
  return timingSafeEqual(candidate, r.hash) && isValidPin(pin) && pin.length === r.digits;
}
