/** Backslash-escapes the characters the ZXing `WIFI:` form reserves: `\ ; , : "`. */
export function escapeWifiQrValue(value: string): string {
  return value.replace(/[\\;,:"]/g, (c) => `\\${c}`);
}

/**
 * The QR payload of spec A5: `WIFI:T:WPA;S:<ssid>;P:<passphrase>;H:false;;`. It carries only the
 * temporary AP credentials.
 */
export function formatWifiQr({ ssid, passphrase }: { ssid: string; passphrase: string }): string {
  return `WIFI:T:WPA;S:${escapeWifiQrValue(ssid)};P:${escapeWifiQrValue(passphrase)};H:false;;`;
}
