import fs from 'node:fs';
import path from 'node:path';
import { duplexPair } from 'node:stream';
import type { BtPort } from '@waved/bt-frame';
import { buildSwu, type CommandRunner, type UpdateKind } from '@waved/swu-ota';
import { openDeviceStores } from '../adapters/system/device-stores.js';
import type { StateBus } from '../core/bus.js';
import type { Logger } from '../core/log/logger.js';
import {
  createDeviceApp,
  type DeviceApp,
  type DeviceAppOptions,
  type DevicePaths,
} from '../domain/device/app.js';
import type { OtaEvent } from '../domain/device/ota.js';
import type { Settings } from '../domain/settings/index.js';
import type { DeviceAdapters } from '../runtime.js';
import { createSimAsrEngine } from './asr-engine.js';
import { createGeneratedCapture } from './audio.js';
import { attachSimBtModule, type SimBtModule } from './bt-module.js';

/** A swupdate stand-in: succeeds and prints what the real one prints. */
export function fakeSwupdateRunner(installs: string[][]): CommandRunner {
  return async (_file, args) => {
    installs.push([...args]);
    return {
      code: 0,
      stdout:
        '[INFO ] : SWUPDATE started :  Software Update started !\n[INFO ] : SWUPDATE successful ! SWUPDATE successful !\n',
      stderr: '',
      timedOut: false,
      signal: null,
    } as Awaited<ReturnType<CommandRunner>>;
  };
}

/** A small unsigned .swu with one raw image, for the simulated cloud's update. */
export async function buildSimPackage(dir: string, version: string): Promise<Uint8Array> {
  const output = path.join(dir, `sim-${version}.swu`);
  await buildSwu({
    description: {
      software: {
        version,
        'hardware-compatibility': ['1.0'],
        images: [{ filename: 'rootfs.img', type: 'raw', device: '/dev/null' }],
      },
    },
    files: [{ name: 'rootfs.img', data: Buffer.alloc(256 * 1024, 0x5a) }],
    output,
  });
  const data = fs.readFileSync(output);
  fs.rmSync(output, { force: true });
  return data;
}

/** Every file of a device application inside one private directory (the simulator's and the tests'). */
export function simDevicePaths(dir: string): DevicePaths & { analyticsDir: string } {
  return {
    dataDir: dir,
    pidFile: path.join(dir, 'pspapp.pid'),
    powerOnFlagFile: path.join(dir, 'power_on_report.txt'),
    analyticsDir: path.join(dir, 'analytics'),
    phoneBookPath: path.join(dir, 'PHONE_BOOK.bin'),
    progressDir: dir,
    doneFile: path.join(dir, 'swu.done'),
  };
}

/** The stores of a device application inside `dir` (real SQLite files and a credentials file). */
export function openSimDeviceStores(dir: string) {
  return openDeviceStores({ dataDir: dir, analyticsDir: path.join(dir, 'analytics') });
}

export interface SimDeviceAdaptersOptions {
  /** A private directory: database, recordings, packages, PID and flag files, phone book. */
  dir: string;
  logger: Logger;
  /** A cloud to use; absent: a reference server is started on loopback with a firmware update. */
  cloudUrl?: string | undefined;
  /** Firmware version the simulated device runs (default 1.0.0; the sim server offers 1.1.0). */
  firmwareVersion?: string;
  /** Battery level the fake gauge reports (default 80). */
  battery?: number;
}

/** The simulator's device adapters, and what a demo or a test drives on the far ends. */
export interface SimDeviceAdapters extends DeviceAdapters {
  /** The simulated Bluetooth module on the far end of an in-memory serial link. */
  btModule: SimBtModule;
  cloudUrl: string;
  /** Installs the sim reports (the fake swupdate's argv). */
  readonly installs: string[][];
}

/**
 * The device application's adapters in the simulator: generated audio, the simulated ASR engine,
 * an in-memory Bluetooth module, a battery gauge at 80 %, a swupdate that succeeds, a reboot that
 * only logs, real SQLite stores in `dir`, and (unless `cloudUrl` is given) the reference cloud
 * server on loopback offering firmware 1.1.0.
 */
export async function createSimDeviceAdapters(options: SimDeviceAdaptersOptions): Promise<SimDeviceAdapters> {
  const { logger, dir } = options;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  let server: { url: string; close(): Promise<void> } | null = null;
  let cloudUrl = options.cloudUrl;
  if (!cloudUrl) {
    const { createCloudServer } = await import('@waved/psp-cloud/server');
    // the simulated device is known to its cloud: it registers without an enrolment key
    const cloud = createCloudServer({ devices: [{ serial: 'SIM0001', secret: 'sim-factory-secret' }] });
    cloud.publishUpdate('psp_firmware', {
      version: '1.1.0',
      data: await buildSimPackage(dir, '1.1.0'),
      descriptions: { en: { html_note: '<p>Simulated update: faster Wi-Fi setup.</p>' } },
    });
    server = await cloud.listen({ host: '127.0.0.1', port: 0 });
    cloudUrl = server.url;
  }
  const [hostEnd, moduleEnd] = duplexPair();
  const btModule = attachSimBtModule(moduleEnd as unknown as Parameters<typeof attachSimBtModule>[0]);
  const installs: string[][] = [];
  return {
    btModule,
    cloudUrl,
    installs,
    paths: simDevicePaths(dir),
    stores: await openSimDeviceStores(dir),
    identity: {
      serial: 'SIM0001',
      registrationSecret: 'sim-factory-secret',
      mac: '02:00:5e:00:00:01',
      firmwareVersion: options.firmwareVersion ?? '1.0.0',
    },
    cloud: { baseUrl: cloudUrl, retry: { retries: 1, baseDelayMs: 200 } },
    audio: createGeneratedCapture(),
    battery: { read: async () => options.battery ?? 80 },
    asrEngine: createSimAsrEngine(),
    bluetooth: { port: hostEnd as unknown as BtPort, probeIntervalMs: 0 },
    ota: {
      run: fakeSwupdateRunner(installs),
      reboot: async () => logger.info?.('ota: the device would reboot now (simulated)'),
    },
    storage: async () => ({ totalMb: 32_768, freeMb: 30_000 }),
    tuning: {
      telemetry: { flushIntervalMs: 2000, backoff: { baseMs: 500, maxMs: 10_000 } },
      session: { retryDelayMs: 5000 },
      onUiVerification: (outcome) =>
        logger.info?.(`pclink: the computer is told result ${outcome.result} (simulated)`),
    },
    async close() {
      btModule.detach();
      hostEnd.destroy();
      moduleEnd.destroy();
      await server?.close();
    },
  };
}

/** Consent as a user of the simulator who says yes after a moment (no one can press the screen). */
export function simConsent(logger: Logger, delayMs = 500) {
  return async (info: { kind: string; version: string }) => {
    logger.info?.(`ota: ${info.kind} ${info.version} — accepted on the simulated screen`);
    await new Promise((r) => setTimeout(r, delayMs));
    return true;
  };
}

/** Walks through recording, transcription and Bluetooth once, logging what happens. */
export async function runDeviceDemo(
  app: DeviceApp,
  btModule: SimBtModule,
  logger: Logger,
  { recordMs = 3000 } = {},
): Promise<void> {
  await app.session.ready();
  const rec = await app.initRecording({ mode: 0, language: 'en' });
  const off = app.asr.registerAsrOnlineSubtitleNotify((s) => {
    if (s.final) logger.info?.(`asr: "${s.text}"`);
  });
  await app.recorder.start();
  logger.info?.(`recording ${rec.id} started`);
  await new Promise((r) => setTimeout(r, recordMs / 2));
  await app.recorder.mark();
  await new Promise((r) => setTimeout(r, recordMs / 2));
  const row = await app.recorder.finish();
  off();
  logger.info?.(`recording finished: ${row.durationMs} ms, ${row.bytes} bytes`);
  await app.uploader.run();
  const after = app.recorder.list().find((r) => r.id === rec.id);
  logger.info?.(`recording cloud state: ${after?.cloudState ?? 'unknown'}`);
  btModule.connectPhone('Pixel of Ada');
  await new Promise((r) => setTimeout(r, 100));
  const bt = app.bluetooth;
  if (bt) {
    const contacts = await bt.downloadPhoneBook();
    logger.info?.(`bluetooth: ${contacts.length} contacts downloaded`);
    bt.once('incomingCall', ({ number, contacts: found }) =>
      logger.info?.(`bluetooth: call from ${number} (${found[0]?.name ?? 'unknown'})`),
    );
    btModule.incomingCall('+442079460958');
    btModule.answerCall();
    await new Promise((r) => setTimeout(r, 200));
    btModule.endCall();
  }
  await app.telemetry.flush();
}

export interface SimDeviceOptions extends SimDeviceAdaptersOptions {
  bus: StateBus;
  settings?: { current(): Settings };
  onOtaEvent?: (event: OtaEvent) => void;
  /** Auto-consent delay for non-forced updates (default 500 ms; the screen would ask). */
  consentDelayMs?: number;
  /** The screen's consent dialog; absent: consent is given after `consentDelayMs`. */
  consent?: (info: { kind: UpdateKind; version: string; notes: string }) => Promise<boolean>;
  /** The screen's PC Link verification page. */
  showVerificationPage?: () => void;
  /** Overrides for the device app (tests). */
  overrides?: Partial<DeviceAppOptions>;
}

export interface SimDevice {
  app: DeviceApp;
  btModule: SimBtModule;
  cloudUrl: string;
  readonly installs: string[][];
  start(): Promise<void>;
  demo(options?: { recordMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

/** The device application alone on the simulator's adapters (tests of Area B). */
export async function createSimDevice(options: SimDeviceOptions): Promise<SimDevice> {
  const { logger } = options;
  const a = await createSimDeviceAdapters(options);
  const app = createDeviceApp({
    bus: options.bus,
    settings: options.settings,
    paths: a.paths,
    stores: a.stores,
    storage: a.storage,
    identity: a.identity,
    cloud: a.cloud,
    audio: a.audio,
    battery: a.battery,
    asrEngine: a.asrEngine,
    bluetooth: a.bluetooth,
    ota: { ...a.ota, consent: options.consent ?? simConsent(logger, options.consentDelayMs) },
    onOtaEvent: options.onOtaEvent,
    showVerificationPage: options.showVerificationPage,
    ...a.tuning,
    logger,
    ...options.overrides,
  });
  return {
    app,
    btModule: a.btModule,
    cloudUrl: a.cloudUrl,
    installs: a.installs,
    start: () => app.start(),
    demo: (o) => runDeviceDemo(app, a.btModule, logger, o),
    async stop() {
      await app.stop();
      await a.close?.();
    },
  };
}
