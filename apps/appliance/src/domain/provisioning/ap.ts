import crypto from 'node:crypto';

/** The setup network gateway. */
export const AP_GATEWAY = '192.168.2.1';
export const AP_NETMASK = '255.255.255.0';
export const AP_PREFIX = 24;
export const AP_DHCP_RANGE = { start: '192.168.2.50', end: '192.168.2.200' } as const;
export const AP_LEASE_SECONDS = 12 * 60 * 60;
export const AP_URL = `http://${AP_GATEWAY}/`;
export const HOSTAPD_CONFIG_PATH = '/tmp/waved-hostapd.conf';
/** `PROV_TIMEOUT`. */
export const PROV_TIMEOUT_MS = 300_000;
/** Failed after 30 s without association. */
export const ASSOCIATION_TIMEOUT_MS = 30_000;
/** How long the station may take to get a DHCP lease after association before `no-address`. */
export const ADDRESS_TIMEOUT_MS = 20_000;

/** `Device-XXXX`: the last four hex digits of the MAC, uppercase. */
export function formatApSsid(mac: string): string {
  const hex = mac.replace(/[^0-9a-fA-F]/g, '');
  if (hex.length < 4) throw new RangeError(`not a MAC address: ${JSON.stringify(mac)}`);
  return `Device-${hex.slice(-4).toUpperCase()}`;
}

/** A fresh 8-hex-character AP passphrase, from the CSPRNG. */
export function createApPassphrase(randomBytes: (n: number) => Buffer = crypto.randomBytes): string {
  return randomBytes(4).toString('hex');
}

/** A per-session CSRF token: 32 random bytes, base64url. */
export function createCsrfToken(randomBytes: (n: number) => Buffer = crypto.randomBytes): string {
  return randomBytes(32).toString('base64url');
}

/** Escapes a value for the ZXing `WIFI:` QR form: backslash before `\ ; , : "`. */
export function escapeWifiQrValue(value: string): string {
  return value.replace(/[\\;,:"]/g, (c) => `\\${c}`);
}

/** The setup QR payload: `WIFI:T:WPA;S:<ssid>;P:<passphrase>;H:false;;`. */
export function formatWifiQr(ap: { ssid: string; passphrase: string; hidden?: boolean }): string {
  return `WIFI:T:WPA;S:${escapeWifiQrValue(ap.ssid)};P:${escapeWifiQrValue(ap.passphrase)};H:${ap.hidden ? 'true' : 'false'};;`;
}

/**
 * hostapd configuration for the provisioning AP: WPA2-PSK (CCMP) only, never open. The key is written
 * as the derived 64-hex PSK, so the file never holds the passphrase itself.
 *
 * `ap_isolate=1`: stations on the setup network cannot reach each other, so one phone cannot
 * impersonate the portal to another or probe it. `ieee80211w=1`: protected management frames are
 * offered (optional), so a station that supports them cannot be deauthenticated by forged frames,
 * and one that does not still joins.
 */
export function formatHostapdConfig(options: {
  iface: string;
  driver: string;
  ssid: string;
  psk: string;
  channel?: number;
  ctrlInterface?: string;
  /** Wi-Fi country (ISO 3166-1 alpha-2); `00` or absent: the world domain, no country lines. */
  country?: string;
}): string {
  if (!/^[0-9a-f]{64}$/.test(options.psk))
    throw new RangeError('hostapd psk must be 64 lowercase hex characters');
  const lines = [
    `interface=${options.iface}`,
    `driver=${options.driver}`,
    `ssid2=${Buffer.from(options.ssid, 'utf8').toString('hex')}`,
    'utf8_ssid=1',
    'hw_mode=g',
    `channel=${options.channel ?? 6}`,
    'auth_algs=1',
    'wpa=2',
    'wpa_key_mgmt=WPA-PSK',
    'rsn_pairwise=CCMP',
    `wpa_psk=${options.psk}`,
    'ignore_broadcast_ssid=0',
    'ap_isolate=1',
    'ieee80211w=1',
  ];
  if (options.country && /^[A-Z]{2}$/.test(options.country)) {
    // the regulatory domain of the AP, announced in its beacons (802.11d)
    lines.push(`country_code=${options.country}`, 'ieee80211d=1');
  }
  if (options.ctrlInterface) lines.push(`ctrl_interface=${options.ctrlInterface}`);
  return `${lines.join('\n')}\n`;
}
