import type { ScannedNetwork } from '../bus.js';

/** What `wpa_cli status` (plus the interface address) says about the station. */
export interface StationStatus {
  /** wpa_supplicant's `wpa_state` (COMPLETED, ASSOCIATED, SCANNING, DISCONNECTED, INACTIVE, …). */
  state: string;
  ssid: string | null;
  bssid: string | null;
  ipv4: string | null;
}

/** Events the station reports on its own (the wpa_supplicant control socket in the real adapter). */
export type StationEvent =
  | { type: 'connected'; ssid: string | null }
  | { type: 'disconnected' }
  /** CTRL-EVENT-SSID-TEMP-DISABLED … reason=WRONG_KEY (4-way handshake failed). */
  | { type: 'wrong-key'; ssid: string | null }
  /** CTRL-EVENT-NETWORK-NOT-FOUND: no enabled profile is in range. */
  | { type: 'not-found' }
  /** CTRL-EVENT-SCAN-RESULTS: a scan finished and its results are ready. */
  | { type: 'scan-results' };

export interface ProvisionRequest {
  /** The name as text (UTF-8), used when `ssidHex` is absent. */
  ssid: string;
  /** The exact SSID bytes as hex (a listed network, whose name may not be valid UTF-8). */
  ssidHex?: string | undefined;
  passphrase: string;
  hidden?: boolean;
}

/**
 * The station side of the radio (wpa_supplicant through @waved/wpa-cli on a device). The Wi-Fi
 * service and the provisioning controller never run wpa_cli themselves.
 */
export interface Station {
  /** Throws when wpa_supplicant cannot be reached (not running). */
  status(): Promise<StationStatus>;
  /** RSSI in dBm, or null when the driver cannot tell (not associated, wired driver). */
  signalPoll(): Promise<number | null>;
  /** A scan in STA mode; resolves with the results (deduplicated by SSID, strongest first). */
  scan(): Promise<ScannedNetwork[]>;
  /** The profile rules (reuse or add, priority above max, enable, save, 0600, reassociate). */
  provision(request: ProvisionRequest): Promise<void>;
  /** Subscribes to unsolicited events; returns the unsubscribe function. */
  onEvent(listener: (event: StationEvent) => void): () => void;
}

/**
 * The `Radio` port: the STA/AP switching steps, one method per step so the controller
 * runs them in exactly the spec's order and can tear down after a fault at any of them.
 */
export interface Radio {
  /** The interface (for the hostapd config and messages). */
  readonly iface: string;
  /** The Wi-Fi MAC (`aa:bb:cc:dd:ee:ff`), for the `Device-XXXX` AP name. */
  macAddress(): Promise<string>;
  /** hostapd configuration text for this radio (interface, driver, channel). */
  hostapdConfig(ap: { ssid: string; psk: string }): string;

  // AP up, spec order
  /** 1. Stop udhcpc and wpa_supplicant. */
  stopStation(): Promise<void>;
  /** 2. Flush addresses on the interface, bring it up, add the gateway address. */
  configureApAddress(): Promise<void>;
  /** 3. hostapd in background mode with the config the controller wrote. */
  startHostapd(configPath: string): Promise<void>;
  /** 4. Bind the in-process DHCP server (port 67 on the interface). */
  startDhcpServer(): Promise<void>;
  /** 5. Bind the in-process captive DNS server (port 53 on the interface). */
  startDnsServer(): Promise<void>;

  // AP down / STA restore, spec order
  /** 1a. */
  stopDnsServer(): Promise<void>;
  /** 1b. */
  stopDhcpServer(): Promise<void>;
  /** 2a. SIGTERM to hostapd. */
  stopHostapd(): Promise<void>;
  /** 2b. Flush addresses on the interface. (2c, removing the config file, is the controller's.) */
  flushAddresses(): Promise<void>;
  /** 3. wpa_supplicant in background; a no-op when it already runs (idempotent recovery). */
  startStation(): Promise<void>;
  /** 4. udhcpc in background, only after association; a no-op when it already runs. */
  startDhcpClient(): Promise<void>;
}
