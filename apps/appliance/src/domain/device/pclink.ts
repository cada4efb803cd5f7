import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { PinHash } from '../../core/ports/pin-hash.js';
import type { AttemptLimiter } from '../security/attempts.js';
import { verifyPinAsync } from '../security/pin.js';

/**
 * USB PC Link: frames are AES-128 in ECB mode with a 16-byte key
 * exactly, no IV, and input aligned to the 16-byte block (no padding is added or removed).
 * ECB is what the wire requires; it leaks equal blocks, so nothing but the PC Link uses it.
 */
export class PcLinkError extends Error {
  override readonly name = 'PcLinkError';
  readonly code: 'PCLINK_KEY_LENGTH' | 'PCLINK_BLOCK_ALIGNMENT';
  constructor(code: 'PCLINK_KEY_LENGTH' | 'PCLINK_BLOCK_ALIGNMENT', message: string) {
    super(message);
    this.code = code;
  }
}

function checkKey(key: Uint8Array): void {
  if (key.length !== 16)
    throw new PcLinkError('PCLINK_KEY_LENGTH', `PC Link key must be exactly 16 bytes, got ${key.length}`);
}
function checkAligned(data: Uint8Array): void {
  if (data.length % 16 !== 0) {
    throw new PcLinkError(
      'PCLINK_BLOCK_ALIGNMENT',
      `PC Link frame must be a multiple of 16 bytes, got ${data.length}`,
    );
  }
}

export function encryptPcLinkFrame(key: Uint8Array, plain: Uint8Array): Buffer {
  checkKey(key);
  checkAligned(plain);
  const c = createCipheriv('aes-128-ecb', key, null);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(plain), c.final()]);
}

export function decryptPcLinkFrame(key: Uint8Array, cipher: Uint8Array): Buffer {
  checkKey(key);
  checkAligned(cipher);
  const d = createDecipheriv('aes-128-ecb', key, null);
  d.setAutoPadding(false);
  return Buffer.concat([d.update(cipher), d.final()]);
}

export type VerifyResult =
  /** Empty password: the result is set to 0 and the UI verification page is triggered. */
  | { result: 0; uiVerification: true }
  | { result: 1; uiVerification: false }
  | { result: 0; uiVerification: false; reason: 'wrong-password' | 'no-password-set' }
  /** Too many wrong PINs (here, on the portal or on the device): no PIN is checked until then. */
  | { result: 0; uiVerification: false; reason: 'locked'; retryAfterMs: number };

/**
 * `slave_verify_dev_passwd`: an empty password sets the verify result to 0 and asks the UI to show
 * its verification page; any other value is checked against the stored PIN record, through the
 * failed-attempt counter the portal shares (`attempts`), with the hash off the event loop. Without
 * the counter the PC Link took all 10 000 four-digit PINs in 141 s.
 */
export async function slaveVerifyDevPasswd(
  password: string,
  storedRecord: string | null,
  showVerificationPage: () => void,
  attempts: AttemptLimiter,
  hash?: PinHash,
): Promise<VerifyResult> {
  if (password === '') {
    showVerificationPage();
    return { result: 0, uiVerification: true };
  }
  if (!storedRecord) return { result: 0, uiVerification: false, reason: 'no-password-set' };
  const outcome = await attempts.attempt(() => verifyPinAsync(password, storedRecord, hash));
  if (outcome.ok) return { result: 1, uiVerification: false };
  if (outcome.reason === 'locked')
    return { result: 0, uiVerification: false, reason: 'locked', retryAfterMs: outcome.retryAfterMs };
  return { result: 0, uiVerification: false, reason: 'wrong-password' };
}
