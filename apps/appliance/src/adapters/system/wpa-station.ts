import { createWpaCli, provisionNetwork, type ScanResult, type WpaCli } from '@waved/wpa-cli';
import type { ScannedNetwork } from '../../core/bus.js';
import { type Logger, scopedLogger, silentLogger } from '../../core/log/logger.js';
import type { ProvisionRequest, Station, StationEvent, StationStatus } from '../../core/ports/radio.js';
import { classifySignal } from '../../domain/wifi/signal.js';
import { createCtrlEventMonitor } from './ctrl-events.js';
import type { CommandRunner } from './runner.js';

export interface WpaStationOptions {
  iface: string;
  /** wpa_supplicant's control directory (`ctrl_interface=DIR=…`). */
  ctrlDir: string;
  /** The station config that `save_config` writes (`/etc/wpa_supplicant.conf`). */
  configPath: string;
  run?: CommandRunner;
  /**
   * The longest wait for a scan (default 10000 ms): `scan_results` is read as soon as wpa_supplicant
   * reports the scan finished (CTRL-EVENT-SCAN-RESULTS), and at the latest after this long. Without
   * the control socket's events (`events: false`), always after this long.
   */
  scanWaitMs?: number;
  /** Listen for events on the control socket (off where there is none, e.g. unit tests). */
  events?: boolean;
  logger?: Logger;
  cli?: WpaCli;
}

/** Turns `wpa_cli scan_results` into the cached form list: named networks, one per SSID, strongest first. */
export function toScannedNetworks(results: readonly ScanResult[]): ScannedNetwork[] {
  const best = new Map<string, ScanResult>();
  for (const r of results) {
    if (r.hidden) continue;
    const key = r.ssid.toString('hex');
    const seen = best.get(key);
    if (!seen || r.signal > seen.signal) best.set(key, r);
  }
  return [...best.values()]
    .sort((a, b) => b.signal - a.signal)
    .map((r) => ({
      ssidHex: r.ssid.toString('hex'),
      ssid: r.ssidDisplay,
      signal: r.signal,
      signalClass: classifySignal(r.signal),
      frequency: r.frequency,
      secure: r.security !== 'open',
    }));
}

/** The real `Station`: @waved/wpa-cli for commands, the control socket for events. */
export function createWpaStation(options: WpaStationOptions): Station & { close(): void } {
  const log = options.logger ?? silentLogger;
  const cli =
    options.cli ??
    createWpaCli({
      iface: options.iface,
      ctrlDir: options.ctrlDir,
      run: options.run,
      logger: scopedLogger(log, null, { info: 'debug', warn: 'debug', error: 'debug' }),
    });
  const monitor =
    options.events === false
      ? null
      : createCtrlEventMonitor({ socketPath: `${options.ctrlDir}/${options.iface}`, logger: log });
  const listeners = new Set<(e: StationEvent) => void>();
  let monitoring = false;

  function onEvent(listener: (e: StationEvent) => void): () => void {
    listeners.add(listener);
    if (monitor && !monitoring) {
      monitoring = true;
      monitor.start();
      monitor.onEvent((e) => {
        for (const l of [...listeners]) l(e);
      });
    }
    return () => listeners.delete(listener);
  }

  return {
    async status(): Promise<StationStatus> {
      const s = await cli.status();
      return {
        state: s.wpaState,
        ssid: s.ssidDisplay ?? null,
        bssid: s.bssid ?? null,
        ipv4: s.ipAddress ?? null,
      };
    },
    async signalPoll() {
      try {
        return (await cli.signalPoll()).rssi;
      } catch {
        return null; // not associated, or a driver without signal_poll (wired)
      }
    },
    async scan() {
      // A scan's length varies with the bands, the driver and the machine's load: a fixed wait either
      // wastes time or reads the results before the scan has seen every network.
      let timer: NodeJS.Timeout | undefined;
      let off: (() => void) | undefined;
      const finished = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, options.scanWaitMs ?? 10_000);
        if (monitor) off = onEvent((e) => e.type === 'scan-results' && resolve());
      });
      try {
        try {
          await cli.scan();
        } catch (error) {
          // FAIL-BUSY: a scan is already running; its results are just as good.
          log.debug?.('scan request refused, reading the current results', { error });
        }
        await finished;
      } finally {
        clearTimeout(timer);
        off?.();
      }
      return toScannedNetworks(await cli.scanResults());
    },
    async provision(request: ProvisionRequest) {
      await provisionNetwork(cli, {
        ssid: request.ssidHex ? Buffer.from(request.ssidHex, 'hex') : request.ssid,
        passphrase: request.passphrase,
        configPath: options.configPath,
        hidden: request.hidden,
      });
    },
    onEvent,
    close() {
      monitor?.stop();
      listeners.clear();
    },
  };
}
