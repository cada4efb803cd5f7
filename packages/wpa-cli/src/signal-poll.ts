import { WpaCliError } from './errors.js';
import { keyValues, optInt } from './lines.js';

/** The reply of `wpa_cli signal_poll`. */
export interface SignalPoll {
  /** Received signal strength of the current link, dBm. */
  rssi: number;
  /** Mbit/s. */
  linkSpeed?: number;
  /** dBm (absent when the driver does not report it). */
  noise?: number;
  /** MHz. */
  frequency?: number;
  /** e.g. `20 MHz (no HT)`. */
  width?: string;
  centerFrequency1?: number;
  centerFrequency2?: number;
  averageRssi?: number;
  averageBeaconRssi?: number;
  raw: Record<string, string>;
}

/** Parses `wpa_cli signal_poll` (`SIGNAL_POLL`): `RSSI=-30`, `LINKSPEED=6`, `NOISE=-92`, ... */
export function parseSignalPoll(text: string): SignalPoll {
  const raw = keyValues(text, 'signal_poll');
  const rssi = optInt(raw.RSSI, 'signal_poll RSSI');
  if (rssi === undefined) throw new WpaCliError('WPA_CLI_PARSE', 'signal_poll: reply has no RSSI line');
  const out: SignalPoll = { rssi, raw };
  const set = <K extends keyof SignalPoll>(k: K, v: SignalPoll[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  set('linkSpeed', optInt(raw.LINKSPEED, 'signal_poll LINKSPEED'));
  set('noise', optInt(raw.NOISE, 'signal_poll NOISE'));
  set('frequency', optInt(raw.FREQUENCY, 'signal_poll FREQUENCY'));
  set('width', raw.WIDTH);
  set('centerFrequency1', optInt(raw.CENTER_FRQ1, 'signal_poll CENTER_FRQ1'));
  set('centerFrequency2', optInt(raw.CENTER_FRQ2, 'signal_poll CENTER_FRQ2'));
  set('averageRssi', optInt(raw.AVG_RSSI, 'signal_poll AVG_RSSI'));
  set('averageBeaconRssi', optInt(raw.AVG_BEACON_RSSI, 'signal_poll AVG_BEACON_RSSI'));
  return out;
}
