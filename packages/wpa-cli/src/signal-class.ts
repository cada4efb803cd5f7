import { WpaCliError } from './errors.js';

/** Signal classes shown on the Wi-Fi screen. */
export type SignalClass = 'excellent' | 'good' | 'fair' | 'weak';

/** RSSI at or above this (dBm) is `excellent`. */
export const SIGNAL_EXCELLENT_DBM = -50;
/** RSSI at or above this (dBm) is `good`. */
export const SIGNAL_GOOD_DBM = -60;
/** RSSI at or above this (dBm) is `fair`; anything lower is `weak`. */
export const SIGNAL_FAIR_DBM = -70;

/** Classifies an RSSI in dBm (from `signal_poll`) as excellent >= -50, good >= -60, fair >= -70, else weak. */
export function classifySignal(rssi: number): SignalClass {
  if (typeof rssi !== 'number' || Number.isNaN(rssi)) {
    throw new WpaCliError('WPA_CLI_ARGUMENT', `RSSI must be a number of dBm, got ${String(rssi)}`);
  }
  if (rssi >= SIGNAL_EXCELLENT_DBM) return 'excellent';
  if (rssi >= SIGNAL_GOOD_DBM) return 'good';
  if (rssi >= SIGNAL_FAIR_DBM) return 'fair';
  return 'weak';
}
