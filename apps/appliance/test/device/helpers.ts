import { inspect } from 'node:util';
import type { Logger } from '../../src/core/log/logger.js';

/** A logger that keeps every line (tests assert on what a user would read, and on what must not be there). */
export function memoryLogger(echo = false): Logger & { lines: string[] } {
  const lines: string[] = [];
  const add =
    (level: string) =>
    (message: unknown, ...args: unknown[]) => {
      const line = `${level} ${[message, ...args].map((a) => (typeof a === 'object' && a !== null ? inspect(a) : String(a))).join(' ')}`;
      lines.push(line);
      if (echo) process.stderr.write(`${line}\n`);
    };
  return { lines, debug: add('debug'), info: add('info'), warn: add('warn'), error: add('error') };
}

import { type CloudServer, type CloudServerOptions, createCloudServer } from '@waved/psp-cloud/server';
import { StateBus } from '../../src/core/bus.js';
import { createDeviceApp, type DeviceApp, type DeviceAppOptions } from '../../src/domain/device/app.js';
import { defaultSettings, type Settings } from '../../src/domain/settings/index.js';
import { createGeneratedCapture } from '../../src/sim/audio.js';
import { buildSimPackage, openSimDeviceStores, simDevicePaths } from '../../src/sim/device.js';

export interface Harness {
  server: CloudServer;
  url: string;
  bus: StateBus;
  settings: Settings;
  logger: ReturnType<typeof memoryLogger>;
  /** A device app on the harness paths (a new one per call: a new "run" of the process). */
  app(overrides?: Partial<DeviceAppOptions>): Promise<DeviceApp>;
  close(): Promise<void>;
}

/** The reference cloud server on loopback and device apps whose every path is inside `dir`. */
export async function startHarness(dir: string, serverOptions: CloudServerOptions = {}): Promise<Harness> {
  const server = createCloudServer({
    devices: [{ serial: 'PSP0001', secret: 'factory-secret' }],
    ...serverOptions,
  });
  const listening = await server.listen({ host: '127.0.0.1', port: 0 });
  const bus = new StateBus();
  const settings = defaultSettings();
  const logger = memoryLogger(!!process.env.DEBUG_DEVICE);
  const apps: DeviceApp[] = [];
  return {
    server,
    url: listening.url,
    bus,
    settings,
    logger,
    async app(overrides = {}) {
      const app = createDeviceApp({
        bus,
        settings: { current: () => settings },
        paths: simDevicePaths(dir),
        stores: await openSimDeviceStores(dir),
        identity: {
          serial: 'PSP0001',
          registrationSecret: 'factory-secret',
          mac: '02:00:00:00:00:01',
          firmwareVersion: '1.0.0',
        },
        cloud: { baseUrl: listening.url, retry: { retries: 0 } },
        audio: createGeneratedCapture({ chunkMs: 50 }),
        battery: { read: async () => 90 },
        ota: { reboot: async () => {} },
        logger,
        clock: { now: Date.now, uptimeMs: () => 1234 },
        telemetry: { flushIntervalMs: 60_000 },
        storage: async () => ({ totalMb: 32768, freeMb: 30000 }),
        ...overrides,
      });
      apps.push(app);
      return app;
    },
    async close() {
      await listening.close();
    },
  };
}

export interface OtaHarness extends Harness {
  /** The simulated 1.1.0 update package, built in the harness directory. */
  pkg: Uint8Array;
  /** While true, package downloads arrive with one byte flipped (the MD5 no longer matches). */
  corrupt: boolean;
}

/** A harness for update tests: the simulated package, and a switch that corrupts its download. */
export async function startOtaHarness(dir: string): Promise<OtaHarness> {
  const pkg = await buildSimPackage(dir, '1.1.0');
  let ota: OtaHarness | undefined;
  const h = await startHarness(dir, {
    intercept: (r) => {
      if (!ota?.corrupt || r.route !== 'otaPackage' || r.method !== 'GET') return undefined;
      const bad = Buffer.from(pkg);
      bad.writeUInt8(bad.readUInt8(bad.length - 100) ^ 0xff, bad.length - 100);
      return new Response(bad, { headers: { 'content-type': 'application/octet-stream' } });
    },
  });
  ota = { ...h, pkg, corrupt: false };
  return ota;
}

/** Telemetry the server received, by event name. */
export function received(server: CloudServer, name: string) {
  return server.telemetry().filter((e) => e.event === name);
}
