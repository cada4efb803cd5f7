import { WpaCliError } from './errors.js';
import { intField, keyValues, MAC, optInt } from './lines.js';
import { decodeSsid, formatSsid } from './ssid.js';

/** `wpa_state` values of wpa_supplicant 2.10 (`wpa_supplicant_state_txt`). */
export type WpaState =
  | 'DISCONNECTED'
  | 'INTERFACE_DISABLED'
  | 'INACTIVE'
  | 'SCANNING'
  | 'AUTHENTICATING'
  | 'ASSOCIATING'
  | 'ASSOCIATED'
  | '4WAY_HANDSHAKE'
  | 'GROUP_HANDSHAKE'
  | 'COMPLETED'
  | 'UNKNOWN';

const STATES: ReadonlySet<string> = new Set<WpaState>([
  'DISCONNECTED',
  'INTERFACE_DISABLED',
  'INACTIVE',
  'SCANNING',
  'AUTHENTICATING',
  'ASSOCIATING',
  'ASSOCIATED',
  '4WAY_HANDSHAKE',
  'GROUP_HANDSHAKE',
  'COMPLETED',
  'UNKNOWN',
]);

/** The reply of `wpa_cli status`. Fields absent from the reply are `undefined`. */
export interface WpaStatus {
  wpaState: WpaState;
  /** `wpa_state === 'COMPLETED'`: associated and keys in place. */
  connected: boolean;
  bssid?: string;
  /** MHz (0 with the wired driver). */
  frequency?: number;
  /** The SSID's exact bytes. */
  ssid?: Buffer;
  /** `formatSsid(ssid)`: safe to show, never loses a byte. */
  ssidDisplay?: string;
  /** The id of the network profile in use. */
  networkId?: number;
  idStr?: string;
  mode?: string;
  pairwiseCipher?: string;
  groupCipher?: string;
  keyMgmt?: string;
  ipAddress?: string;
  /** The interface's own MAC address. */
  address?: string;
  uuid?: string;
  /** Every `key=value` line as printed. */
  raw: Record<string, string>;
}

/** Parses `wpa_cli status` (`STATUS`). */
export function parseStatus(text: string): WpaStatus {
  const raw = keyValues(text, 'status');
  const state = raw.wpa_state;
  if (state === undefined) throw new WpaCliError('WPA_CLI_PARSE', 'status: reply has no wpa_state line');
  if (!STATES.has(state))
    throw new WpaCliError('WPA_CLI_PARSE', `status: unknown wpa_state ${JSON.stringify(state.slice(0, 40))}`);
  if (raw.bssid !== undefined && !MAC.test(raw.bssid)) {
    throw new WpaCliError(
      'WPA_CLI_PARSE',
      `status: bssid is not a MAC address: ${JSON.stringify(raw.bssid.slice(0, 40))}`,
    );
  }
  const ssid = raw.ssid === undefined ? undefined : decodeSsid(raw.ssid);
  const status: WpaStatus = { wpaState: state as WpaState, connected: state === 'COMPLETED', raw };
  const set = <K extends keyof WpaStatus>(k: K, v: WpaStatus[K] | undefined) => {
    if (v !== undefined) status[k] = v;
  };
  set('bssid', raw.bssid?.toLowerCase());
  set('frequency', optInt(raw.freq, 'status freq'));
  set('ssid', ssid);
  set('ssidDisplay', ssid && formatSsid(ssid));
  set('networkId', raw.id === undefined ? undefined : intField(raw.id, 'status id'));
  set('idStr', raw.id_str);
  set('mode', raw.mode);
  set('pairwiseCipher', raw.pairwise_cipher);
  set('groupCipher', raw.group_cipher);
  set('keyMgmt', raw.key_mgmt);
  set('ipAddress', raw.ip_address);
  set('address', raw.address?.toLowerCase());
  set('uuid', raw.uuid);
  return status;
}
