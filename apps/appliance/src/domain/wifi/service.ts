import type { Command, ConnectionDetails, StateBus } from '../../core/bus.js';
import { type Logger, silentLogger } from '../../core/log/logger.js';
import type { SecretRegistry } from '../../core/log/redact.js';
import { type Clock, systemClock } from '../../core/ports/clock.js';
import type { Radio, Station, StationStatus } from '../../core/ports/radio.js';
import { classifySignal } from './signal.js';

/** Station poll interval. */
export const POLL_INTERVAL_MS = 10_000;

export interface WifiServiceOptions {
  bus: StateBus;
  station: Station;
  /** Only `startStation` (recovery) and `startDhcpClient` (after association) are used. */
  radio: Pick<Radio, 'startStation' | 'startDhcpClient'>;
  pollMs?: number | undefined;
  /** Timers (default `systemClock`); tests pass a manual clock. */
  clock?: Clock;
  logger?: Logger;
  secrets?: SecretRegistry;
  /** Called once per connection (after `WifiConnected`): the SNTP sync hangs off this. */
  onConnected?: (ssid: string) => void;
}

export interface WifiService {
  start(): void;
  stop(): void;
  /** Stops polling and recovery while the radio is an AP (the provisioning controller calls it). */
  pause(): void;
  resume(): void;
  /** One poll now (also what the timer runs). Resolves with what was published, or null when paused. */
  poll(): Promise<ConnectionDetails | null>;
}

/**
 * The station-mode Wi-Fi service: polls status and signal every 10 s, publishes the
 * connection details, emits WifiConnected/WifiDisconnected (a roam gives both, in that order), and
 * recovers a missing wpa_supplicant idempotently. It never scans, selects or retries on its own:
 * wpa_supplicant alone chooses among the saved profiles, so a healthy connection is kept.
 */
export function createWifiService(options: WifiServiceOptions): WifiService {
  const { bus, station, radio } = options;
  const clock = options.clock ?? systemClock;
  const pollMs = options.pollMs ?? POLL_INTERVAL_MS;
  const log = options.logger ?? silentLogger;
  let timer: unknown;
  let running = false;
  let paused = false;
  let inFlight: Promise<ConnectionDetails | null> | null = null;
  let connectedSsid: string | null = null;
  const offs: (() => void)[] = [];

  const setConnected = (ssid: string | null) => {
    if (ssid === connectedSsid) return;
    if (connectedSsid !== null) {
      log.info?.(`Wi-Fi: left ${JSON.stringify(connectedSsid)}`);
      bus.publish('WifiDisconnected', { ssid: connectedSsid });
    }
    connectedSsid = ssid;
    if (ssid !== null) {
      log.info?.(`Wi-Fi: connected to ${JSON.stringify(ssid)}`);
      bus.publish('WifiConnected', { ssid });
      try {
        options.onConnected?.(ssid);
      } catch (error) {
        log.warn?.('onConnected hook failed', { error });
      }
    }
  };

  const doPoll = async (): Promise<ConnectionDetails | null> => {
    if (paused) return null;
    let status: StationStatus;
    try {
      status = await station.status();
    } catch (error) {
      log.warn?.('Wi-Fi: wpa_supplicant is not answering; starting it again', { error });
      setConnected(null);
      const details: ConnectionDetails = {
        ssid: null,
        status: 'UNAVAILABLE',
        signal: null,
        rssi: null,
        ipv4: null,
      };
      bus.publish('ConnectionDetails', details);
      try {
        await radio.startStation();
      } catch (recoveryError) {
        log.error?.('Wi-Fi: station recovery failed; retrying at the next poll', { error: recoveryError });
      }
      return details;
    }
    if (paused) return null;
    const associated = status.state === 'COMPLETED' && status.ssid !== null;
    let rssi: number | null = null;
    if (associated) {
      try {
        rssi = await station.signalPoll();
      } catch (error) {
        log.debug?.('Wi-Fi: signal_poll failed', { error });
      }
    }
    const details: ConnectionDetails = {
      ssid: associated ? status.ssid : null,
      status: status.state,
      signal: rssi === null ? null : classifySignal(rssi),
      rssi,
      ipv4: associated ? status.ipv4 : null,
    };
    setConnected(associated ? status.ssid : null);
    bus.publish('ConnectionDetails', details);
    if (associated && !status.ipv4) {
      // udhcpc only after association; the adapter makes this a no-op when it already runs.
      try {
        await radio.startDhcpClient();
      } catch (error) {
        log.warn?.('Wi-Fi: could not start the DHCP client', { error });
      }
    }
    return details;
  };

  const poll = () => {
    if (!inFlight) {
      inFlight = doPoll().finally(() => {
        inFlight = null;
      });
    }
    return inFlight;
  };

  const schedule = () => {
    if (!running) return;
    timer = clock.setTimeout(async () => {
      try {
        await poll();
      } catch (error) {
        log.error?.('Wi-Fi: poll failed', { error });
      }
      schedule();
    }, pollMs);
  };

  const onCommand = (command: Command) => {
    if (command.type !== 'WifiConnect') return;
    if (paused) {
      log.warn?.('Wi-Fi: WifiConnect ignored while the setup network is open');
      return;
    }
    const forget = options.secrets?.add(command.password) ?? (() => {});
    station
      .provision({ ssid: command.ssid, passphrase: command.password })
      .then(() => log.info?.(`Wi-Fi: profile for ${JSON.stringify(command.ssid)} saved; reassociating`))
      .catch((error) => log.error?.('Wi-Fi: connect failed:', error))
      .finally(forget);
  };

  return {
    start() {
      if (running) return;
      running = true;
      offs.push(bus.on('command', onCommand));
      offs.push(
        station.onEvent((event) => {
          if (event.type === 'connected' || event.type === 'disconnected') void poll().catch(() => {});
        }),
      );
      void poll().catch((error) => log.error?.('Wi-Fi: poll failed:', error));
      schedule();
    },
    stop() {
      running = false;
      clock.clearTimeout(timer);
      for (const off of offs.splice(0)) off();
    },
    pause() {
      paused = true;
      setConnected(null);
    },
    resume() {
      paused = false;
      if (running) void poll().catch(() => {});
    },
    poll,
  };
}
