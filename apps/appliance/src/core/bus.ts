import { EventEmitter } from 'node:events';

/** A network seen by the last STA-mode scan, cached for the portal form. */
export interface ScannedNetwork {
  /** SSID bytes as hex (lossless); `ssid` is the display form. */
  ssidHex: string;
  ssid: string;
  /** dBm */
  signal: number;
  signalClass: SignalClass;
  frequency: number;
  secure: boolean;
}

export type SignalClass = 'excellent' | 'good' | 'fair' | 'weak';

/** The provisioning states. */
export type ProvisioningState =
  | { state: 'Idle' }
  | { state: 'Scanning' }
  | { state: 'ApActive'; ssid: string; passphrase: string; url: string }
  | { state: 'Connecting'; ssid: string }
  | { state: 'Connected'; ssid: string }
  | { state: 'Failed'; reason: FailureReason; message: string };

/** Reasons a user can act on (the Failed state). */
export type FailureReason =
  | 'wrong-password'
  | 'network-not-found'
  | 'no-address'
  | 'association-timeout'
  | 'ap-failed';

/** Published on every poll. */
export interface ConnectionDetails {
  ssid: string | null;
  status: string;
  signal: SignalClass | null;
  rssi: number | null;
  ipv4: string | null;
}

/** Commands (the provisioning commands, plus what the portal and screens send). */
export type Command =
  | { type: 'WifiConnect'; ssid: string; password: string }
  | { type: 'OpenWifiProvisioning' }
  | { type: 'CancelProvisioning' }
  /** The portal saved valid settings; `connect` is set for /save-connect. */
  | {
      type: 'SettingsSaved';
      /** `ssid` is the display form; `ssidHex` the exact bytes the station is given. */
      connect?: { ssid: string; ssidHex: string; passphrase: string; hidden: boolean };
    };

export interface BusEvents {
  command: [Command];
  WifiConnected: [{ ssid: string }];
  WifiDisconnected: [{ ssid: string | null }];
  ProvisioningState: [ProvisioningState];
  ConnectionDetails: [ConnectionDetails];
}

/**
 * The in-process state bus: a typed event emitter. Commands go in with `send`; the service that owns
 * the radio handles them. Events come out with `publish`. The last value of each event is kept so a
 * screen that opens late can render at once.
 */
export class StateBus {
  readonly #emitter = new EventEmitter();
  readonly #last = new Map<keyof BusEvents, unknown>();

  constructor() {
    this.#emitter.setMaxListeners(50);
  }

  send(command: Command): void {
    this.#emitter.emit('command', command);
  }

  publish<K extends Exclude<keyof BusEvents, 'command'>>(name: K, ...payload: BusEvents[K]): void {
    this.#last.set(name, payload[0]);
    this.#emitter.emit(name, ...payload);
  }

  on<K extends keyof BusEvents>(name: K, listener: (...payload: BusEvents[K]) => void): () => void {
    this.#emitter.on(name, listener as (...args: unknown[]) => void);
    return () => this.#emitter.off(name, listener as (...args: unknown[]) => void);
  }

  last<K extends Exclude<keyof BusEvents, 'command'>>(name: K): BusEvents[K][0] | undefined {
    return this.#last.get(name) as BusEvents[K][0] | undefined;
  }
}
