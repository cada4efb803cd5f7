import { WpaCliError } from './errors.js';
import { bracketFlags, intField, MAC, replyLines } from './lines.js';
import { decodeSsid, formatSsid } from './ssid.js';

/** One line of `wpa_cli list_networks`: a saved profile. */
export interface NetworkEntry {
  /** The network id used by every `*_network` command. */
  id: number;
  /** The SSID's exact bytes. */
  ssid: Buffer;
  /** `formatSsid(ssid)`: safe to show, never loses a byte. */
  ssidDisplay: string;
  /** A fixed BSSID, or `null` for `any`. */
  bssid: string | null;
  /** `[CURRENT]`: the profile in use right now. */
  current: boolean;
  /** `[DISABLED]`: never picked automatically. */
  disabled: boolean;
  /** `[TEMP-DISABLED]`: held back after failures (e.g. a wrong key) for a while. */
  tempDisabled: boolean;
  /** Every flag as printed, without brackets (`CURRENT`, `DISABLED`, `TEMP-DISABLED`, `P2P-PERSISTENT`). */
  flags: string[];
}

const LIST_NETWORKS_HEADER = 'network id / ssid / bssid / flags';

/** Parses `wpa_cli list_networks` (`LIST_NETWORKS`): a header, then `id\tssid\tbssid\tflags` lines. */
export function parseListNetworks(text: string): NetworkEntry[] {
  const lines = replyLines(text, 'list_networks');
  if (lines[0] !== LIST_NETWORKS_HEADER) {
    throw new WpaCliError(
      'WPA_CLI_PARSE',
      `list_networks: expected the header "${LIST_NETWORKS_HEADER}", got ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`,
    );
  }
  const out: NetworkEntry[] = [];
  for (let n = 1; n < lines.length; n++) {
    const fields = lines[n]!.split('\t');
    if (fields.length !== 4) {
      throw new WpaCliError(
        'WPA_CLI_PARSE',
        `list_networks: line ${n + 1} has ${fields.length} fields, not 4`,
      );
    }
    const [id, ssidText, bssid, flagText] = fields as [string, string, string, string];
    if (!/^\d+$/.test(id))
      throw new WpaCliError('WPA_CLI_PARSE', `list_networks: line ${n + 1} has a bad id`);
    if (bssid !== 'any' && !MAC.test(bssid)) {
      throw new WpaCliError('WPA_CLI_PARSE', `list_networks: line ${n + 1} has a bad bssid`);
    }
    const ssid = decodeSsid(ssidText);
    const flags = bracketFlags(flagText, `list_networks line ${n + 1}`);
    out.push({
      id: intField(id, 'list_networks id'),
      ssid,
      ssidDisplay: formatSsid(ssid),
      bssid: bssid === 'any' ? null : bssid.toLowerCase(),
      current: flags.includes('CURRENT'),
      disabled: flags.includes('DISABLED'),
      tempDisabled: flags.includes('TEMP-DISABLED'),
      flags,
    });
  }
  return out;
}
