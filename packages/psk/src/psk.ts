import { pbkdf2, pbkdf2Sync } from 'node:crypto';
import { PskError } from './errors.js';

/** IEEE 802.11i-2004 Annex H.4: PSK = PBKDF2(HMAC-SHA1, passphrase, ssid, 4096, 256 bits). */
export const PSK_ITERATIONS = 4096;
export const PSK_BYTES = 32;
export const SSID_MAX_BYTES = 32;
export const PASSPHRASE_MIN = 8;
export const PASSPHRASE_MAX = 63;

const HEX64 = /^[0-9a-fA-F]{64}$/;
// 802.11i Annex H.4.1: each passphrase character is ASCII 32..126.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** An SSID as text (encoded UTF-8) or as the raw bytes the air carries. */
export type SsidInput = string | Uint8Array;

/** The SSID as bytes, 1..32 long, or a `PskError`. */
export function ssidBytes(ssid: SsidInput): Buffer {
  let bytes: Buffer;
  if (typeof ssid === 'string') bytes = Buffer.from(ssid, 'utf8');
  else if (ssid instanceof Uint8Array) bytes = Buffer.from(ssid.buffer, ssid.byteOffset, ssid.byteLength);
  else throw new PskError('PSK_SSID_TYPE', 'SSID must be a string or a Uint8Array');
  if (bytes.length < 1 || bytes.length > SSID_MAX_BYTES) {
    throw new PskError(
      'PSK_SSID_LENGTH',
      `SSID is ${bytes.length} bytes; it must be 1 to ${SSID_MAX_BYTES} bytes (IEEE 802.11 §9.4.2.2)`,
    );
  }
  return bytes;
}

type Checked = { kind: 'raw'; psk: string } | { kind: 'passphrase'; passphrase: Buffer };

function check(passphrase: string): Checked {
  if (typeof passphrase !== 'string') {
    throw new PskError('PSK_PASSPHRASE_TYPE', 'passphrase must be a string');
  }
  // A 64-hex value is the PSK itself (wpa_supplicant.conf `psk=` without quotes).
  if (passphrase.length === 64 && HEX64.test(passphrase))
    return { kind: 'raw', psk: passphrase.toLowerCase() };
  if (passphrase.length < PASSPHRASE_MIN || passphrase.length > PASSPHRASE_MAX) {
    throw new PskError(
      'PSK_PASSPHRASE_LENGTH',
      `passphrase is ${passphrase.length} characters; it must be ${PASSPHRASE_MIN} to ${PASSPHRASE_MAX} printable ASCII characters, or 64 hex digits`,
    );
  }
  if (!PRINTABLE_ASCII.test(passphrase)) {
    throw new PskError(
      'PSK_PASSPHRASE_CHARSET',
      'passphrase has a character outside printable ASCII (0x20-0x7e), which WPA2 does not allow',
    );
  }
  return { kind: 'passphrase', passphrase: Buffer.from(passphrase, 'latin1') };
}

/** Derives the 64-hex WPA2 PSK from an SSID and a passphrase, off the main thread. */
export async function derivePsk(ssid: SsidInput, passphrase: string): Promise<string> {
  const salt = ssidBytes(ssid);
  const c = check(passphrase);
  if (c.kind === 'raw') return c.psk;
  return new Promise((resolve, reject) => {
    pbkdf2(c.passphrase, salt, PSK_ITERATIONS, PSK_BYTES, 'sha1', (err, key) => {
      if (err) reject(err);
      else resolve(key.toString('hex'));
    });
  });
}

/** Synchronous form of {@link derivePsk} (blocks for about 3 ms). */
export function derivePskSync(ssid: SsidInput, passphrase: string): string {
  const salt = ssidBytes(ssid);
  const c = check(passphrase);
  if (c.kind === 'raw') return c.psk;
  return pbkdf2Sync(c.passphrase, salt, PSK_ITERATIONS, PSK_BYTES, 'sha1').toString('hex');
}

/** True for a value that `derivePsk` accepts as a passphrase or raw PSK. */
export function isValidPassphrase(passphrase: string): boolean {
  try {
    check(passphrase);
    return true;
  } catch {
    return false;
  }
}
