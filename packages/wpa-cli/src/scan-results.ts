import { WpaCliError } from './errors.js';
import { bracketFlags, intField, MAC, replyLines } from './lines.js';
import { decodeSsid, formatSsid } from './ssid.js';

export type Band = '2.4GHz' | '5GHz' | '6GHz' | '60GHz' | 'unknown';

/**
 * What a station needs to join: `psk` (WPA/WPA2-PSK, including WPA2/WPA3 transition networks),
 * `sae` (WPA3-Personal only), `eap` (802.1X), `owe` (Enhanced Open), `wep`, `open`, or `other`.
 * The device joins `psk` (and `open` only when a user asks for it).
 */
export type ScanSecurity = 'open' | 'wep' | 'psk' | 'sae' | 'eap' | 'owe' | 'other';

/** One line of `wpa_cli scan_results`: a BSS seen in the last scan. */
export interface ScanResult {
  bssid: string;
  /** MHz. */
  frequency: number;
  band: Band;
  /** dBm as the driver reports it. */
  signal: number;
  /** Every flag as printed, without brackets (`WPA2-PSK-CCMP`, `ESS`, `WPS`...). */
  flags: string[];
  security: ScanSecurity;
  /** Key management suites named in the WPA/RSN flags (`PSK`, `SAE`, `EAP`, `FT/PSK`...). */
  akms: string[];
  /** The SSID's exact bytes (empty for a hidden network). */
  ssid: Buffer;
  /** `formatSsid(ssid)`: safe to show, never loses a byte. */
  ssidDisplay: string;
  /** The beacon hides the name: an empty SSID or one made only of zero bytes. */
  hidden: boolean;
}

const SCAN_RESULTS_HEADER = 'bssid / frequency / signal level / flags / ssid';

/** The band a centre frequency (MHz) lies in. */
export function bandOf(frequency: number): Band {
  if (frequency >= 2400 && frequency < 2500) return '2.4GHz';
  if (frequency >= 4900 && frequency < 5925) return '5GHz';
  if (frequency >= 5925 && frequency <= 7125) return '6GHz';
  if (frequency >= 57000 && frequency <= 71000) return '60GHz';
  return 'unknown';
}

const PROTO = /^(WPA|WPA2|RSN|OSEN)-(.*)$/;
// Pairwise cipher list at the end of a WPA/RSN flag (wpa_supplicant_ie_txt), then an optional -preauth.
const CIPHERS =
  /-(?:CCMP-256|GCMP-256|CCMP|GCMP|TKIP|WEP104|WEP40|NONE|\?)(?:\+(?:CCMP-256|GCMP-256|CCMP|GCMP|TKIP|WEP104|WEP40|NONE))*(?:-preauth)?$/;

/** Security class and AKM suites from scan flags such as `[WPA-PSK-TKIP][WPA2-PSK+SAE-CCMP][ESS]`. */
export function securityOf(flags: readonly string[]): { security: ScanSecurity; akms: string[] } {
  const akms: string[] = [];
  let protected_ = false;
  for (const flag of flags) {
    const m = PROTO.exec(flag);
    if (!m) continue;
    protected_ = true;
    const body = m[2]!;
    const cut = CIPHERS.exec(body);
    const akmText = cut ? body.slice(0, cut.index) : body;
    for (const akm of akmText.split('+')) if (akm && !akms.includes(akm)) akms.push(akm);
  }
  let security: ScanSecurity;
  if (!protected_) security = flags.includes('WEP') ? 'wep' : 'open';
  else if (akms.some((a) => a === 'PSK' || a === 'FT/PSK' || a === 'PSK-SHA256')) security = 'psk';
  else if (akms.some((a) => a.includes('SAE'))) security = 'sae';
  else if (akms.some((a) => a.includes('EAP') || a.includes('FILS') || a === 'OSEN')) security = 'eap';
  else if (akms.includes('OWE')) security = 'owe';
  else security = 'other';
  return { security, akms };
}

/** Parses `wpa_cli scan_results` (`SCAN_RESULTS`): `bssid\tfreq\tsignal\tflags\tssid` lines. */
export function parseScanResults(text: string): ScanResult[] {
  const lines = replyLines(text, 'scan_results');
  if (lines[0] !== SCAN_RESULTS_HEADER) {
    throw new WpaCliError(
      'WPA_CLI_PARSE',
      `scan_results: expected the header "${SCAN_RESULTS_HEADER}", got ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`,
    );
  }
  const out: ScanResult[] = [];
  for (let n = 1; n < lines.length; n++) {
    const fields = lines[n]!.split('\t');
    if (fields.length !== 5) {
      throw new WpaCliError(
        'WPA_CLI_PARSE',
        `scan_results: line ${n + 1} has ${fields.length} fields, not 5`,
      );
    }
    const [bssid, freq, level, flagText, ssidText] = fields as [string, string, string, string, string];
    if (!MAC.test(bssid))
      throw new WpaCliError('WPA_CLI_PARSE', `scan_results: line ${n + 1} has a bad bssid`);
    const frequency = intField(freq, `scan_results line ${n + 1} frequency`);
    const flags = bracketFlags(flagText, `scan_results line ${n + 1}`);
    const ssid = decodeSsid(ssidText);
    out.push({
      bssid: bssid.toLowerCase(),
      frequency,
      band: bandOf(frequency),
      signal: intField(level, `scan_results line ${n + 1} signal`),
      flags,
      ...securityOf(flags),
      ssid,
      ssidDisplay: formatSsid(ssid),
      hidden: ssid.every((b) => b === 0),
    });
  }
  return out;
}
