import path from 'node:path';
import { createFileStore } from '../adapters/system/files.js';
import { serveHttp } from '../adapters/system/http.js';
import { createUdpSocket } from '../adapters/system/udp.js';
import type { Logger } from '../core/log/logger.js';
import type { Notifier } from '../core/ports/notify.js';
import { type DeviceProfile, defaultProfile } from '../domain/profile/schema.js';
import type { ClockAdapters, DeviceAdapters, Runtime, RuntimeAdapters } from '../runtime.js';
import type { SimDeviceAdapters } from './device.js';
import { createSimRadio, type SimApServices, type SimNetwork, type SimRadio } from './radio.js';

/** The networks `waved sim` shows (README and docs/appliance.md list them). */
export const SIM_NETWORKS: SimNetwork[] = [
  { ssid: 'Home', passphrase: 'correct horse', signal: -45, frequency: 5180 },
  { ssid: 'Office', passphrase: 'office-pass', signal: -58 },
  { ssid: 'Cafe', passphrase: null, signal: -66 },
  { ssid: 'Neighbour', passphrase: 'n3ighbour-pass', signal: -79 },
  { ssid: 'NoDHCP', passphrase: 'password1', signal: -62, dhcp: false },
  { ssid: 'Attic', passphrase: 'attic-pass', signal: -70, hidden: true },
];

/** The simulator's profile: every file inside `dataDir`, the screen page on `screenPort`. */
export function simProfile(options: {
  dataDir: string;
  settings?: string | undefined;
  screenPort: number;
}): DeviceProfile {
  const p = defaultProfile();
  const dir = options.dataDir;
  p.identity.serial = 'SIM0001';
  p.identity.firmware_version = '1.0.0';
  p.cloud.base_url = 'http://127.0.0.1';
  p.wifi.interface = 'sim0';
  p.wifi.hostapd_config = path.join(dir, `waved-hostapd-${process.pid}.conf`);
  p.wifi.run_dir = path.join(dir, 'run');
  p.screen.page_port = options.screenPort;
  // The simulator's webhook receivers run on this machine: plain http to loopback only.
  p.security.webhook_http = 'loopback';
  p.paths.settings = options.settings ?? path.join(dir, 'config.toml');
  p.paths.data_dir = path.join(dir, 'device');
  return p;
}

export interface SimAdaptersOptions {
  logger: Logger;
  /** Where the device application keeps its files. */
  deviceDir: string;
  /** Portal port on loopback: the DHCP option 114 points there. */
  portalPort: number;
  /** Run the device application (with its reference cloud server unless `cloudUrl`). */
  device: boolean;
  cloudUrl?: string | undefined;
  /** Ask an SNTP server after connect (the simulator only logs the time it would set). */
  ntp?: { host: string; port: number } | undefined;
  notifier?: Notifier | undefined;
}

export interface SimAdapters extends RuntimeAdapters {
  radio: SimRadio;
  /** Set once the device application's adapters are open. */
  simDevice(): SimDeviceAdapters | null;
}

/**
 * The simulator's adapter set: the simulated radio, the AP's DHCP and captive DNS servers for real
 * on loopback ports (a phone cannot reach them there; `dig -p` can), real files in a private
 * directory, and the device application on simulated hardware.
 */
export function createSimAdapters(options: SimAdaptersOptions): SimAdapters {
  const { logger } = options;
  const services: {
    dhcp?: { close(): Promise<void> } | undefined;
    dns?: { close(): Promise<void> } | undefined;
  } = {};
  const ports = { dhcp: 0, dns: 0 };
  const apServices: SimApServices = {
    async startDhcp() {
      const { createDhcpServer } = await import('@waved/dhcp-server');
      const s = createDhcpServer({
        serverAddress: '192.168.2.1',
        netmask: '255.255.255.0',
        range: ['192.168.2.50', '192.168.2.200'],
        router: '192.168.2.1',
        dns: '192.168.2.1',
        captivePortalUri: `http://127.0.0.1:${options.portalPort}/`,
        listenAddress: '127.0.0.1',
        port: ports.dhcp,
      });
      ports.dhcp = (await s.listen()).port;
      services.dhcp = s;
    },
    async stopDhcp() {
      await services.dhcp?.close();
      services.dhcp = undefined;
    },
    async startDns() {
      const { createCaptiveDns } = await import('@waved/captive-dns');
      const s = createCaptiveDns({ answer: '127.0.0.1', address: '127.0.0.1', port: ports.dns });
      ports.dns = (await s.listen()).port;
      services.dns = s;
    },
    async stopDns() {
      await services.dns?.close();
      services.dns = undefined;
    },
  };
  const radio = createSimRadio({ networks: SIM_NETWORKS, apServices, logger });
  let simDevice: SimDeviceAdapters | null = null;
  const clock: ClockAdapters | undefined = options.ntp
    ? {
        port: options.ntp.port,
        servers: [options.ntp.host],
        createSocket: createUdpSocket,
        setClock: async (d) => logger.info?.(`sim: the device clock would be set to ${d.toISOString()}`),
      }
    : undefined;
  return {
    radio,
    station: radio,
    files: createFileStore(),
    serve: serveHttp,
    clock,
    notifier: options.notifier,
    ...(options.device
      ? {
          async device(): Promise<DeviceAdapters> {
            const { createSimDeviceAdapters } = await import('./device.js');
            simDevice = await createSimDeviceAdapters({
              dir: options.deviceDir,
              logger,
              cloudUrl: options.cloudUrl || undefined,
            });
            return simDevice;
          },
          async consent(info: { kind: string; version: string }) {
            const { simConsent } = await import('./device.js');
            return simConsent(logger)(info);
          },
        }
      : {}),
    simDevice: () => simDevice,
    async close() {
      radio.close();
    },
  };
}

/**
 * What a person trying the simulator would do: open Set up Wi-Fi at once (a new device with no
 * saved network), and after the first connect walk once through a recording, its transcription
 * and a phone call.
 */
export function playSimulator(
  runtime: Runtime,
  adapters: SimAdapters,
  options: { logger: Logger; autoSetup: boolean; demo: boolean },
): void {
  const { logger } = options;
  if (options.demo) {
    const off = runtime.bus.on('WifiConnected', () => {
      off();
      const app = runtime.device();
      const simDevice = adapters.simDevice();
      if (!app || !simDevice) return;
      void import('./device.js')
        .then(({ runDeviceDemo }) => runDeviceDemo(app, simDevice.btModule, logger))
        .catch((error) => logger.warn?.('device demo failed', { error: (error as Error).message }));
    });
  }
  if (options.autoSetup) {
    setTimeout(() => {
      runtime.screens.press('open-wifi');
      runtime.screens.press('wifi-button');
    }, 100).unref();
  }
}

export { createSimRadio, type SimApServices, type SimNetwork, type SimRadio };
