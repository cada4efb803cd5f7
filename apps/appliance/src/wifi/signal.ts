import type { SignalClass } from '../bus.js';

/** design.md: RSSI thresholds in dBm for the four classes shown on the Wi-Fi screen. */
export const SIGNAL_EXCELLENT_DBM = -50;
export const SIGNAL_GOOD_DBM = -60;
export const SIGNAL_FAIR_DBM = -70;

/** excellent >= -50 dBm, good >= -60, fair >= -70, else weak (same thresholds as @waved/wpa-cli). */
export function classifySignal(rssi: number): SignalClass {
  if (rssi >= SIGNAL_EXCELLENT_DBM) return 'excellent';
  if (rssi >= SIGNAL_GOOD_DBM) return 'good';
  if (rssi >= SIGNAL_FAIR_DBM) return 'fair';
  return 'weak';
}
