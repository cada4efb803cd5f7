// Log encryption key: SHA-256 of the MAC address (eth0, then wlan0, else `default-device`)
// concatenated with the current Unix timestamp.
import { nodeCrypto } from './builtins.js';

/** Interfaces tried, in order. */
export const LOG_KEY_INTERFACES = ['eth0', 'wlan0'] as const;
export const LOG_KEY_FALLBACK = 'default-device';

/** Reads an interface's MAC address (`aa:bb:cc:dd:ee:ff`), or undefined when it has none. */
export type MacReader = (iface: string) => string | undefined | Promise<string | undefined>;

const MAC = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/;

/** Lowercases and validates a MAC; the all-zero address counts as absent. */
export function normalizeMac(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const mac = raw.trim().toLowerCase();
  if (!MAC.test(mac) || mac === '00:00:00:00:00:00') return undefined;
  return mac;
}

/** The text the log key hashes its MAC part from: eth0's MAC, else wlan0's, else `default-device`. */
export async function logKeySource(readMac: MacReader): Promise<{ iface: string | null; text: string }> {
  for (const iface of LOG_KEY_INTERFACES) {
    const mac = normalizeMac(await readMac(iface));
    if (mac) return { iface, text: mac };
  }
  return { iface: null, text: LOG_KEY_FALLBACK };
}

/** 32-byte log key = SHA-256(MAC text + decimal Unix seconds). */
export async function deriveLogKey(options: {
  readMac: MacReader;
  /** Unix time in seconds (the key changes with it; callers keep the timestamp next to the log). */
  timestamp: number;
}): Promise<{ key: Uint8Array; source: string; timestamp: number }> {
  const { iface, text } = await logKeySource(options.readMac);
  const ts = Math.floor(options.timestamp);
  const key = nodeCrypto()
    .createHash('sha256')
    .update(text + String(ts), 'utf8')
    .digest();
  return { key: new Uint8Array(key), source: iface ?? LOG_KEY_FALLBACK, timestamp: ts };
}

/**
 * Open UDID for telemetry, derived from the MAC: lowercase hex SHA-256 of the normalised MAC, first
 * 32 characters (the MAC itself is not sent).
 */
export function openUdidFromMac(mac: string): string {
  const m = normalizeMac(mac) ?? LOG_KEY_FALLBACK;
  return nodeCrypto().createHash('sha256').update(m, 'utf8').digest('hex').slice(0, 32);
}
