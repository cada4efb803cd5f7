import fs from 'node:fs';
import path from 'node:path';
import { duplexPair } from 'node:stream';
import type { BtPort } from '@waved/bt-frame';
import { buildSwu, type CommandRunner, type UpdateKind } from '@waved/swu-ota';
import type { StateBus } from '../core/bus.js';
import type { Logger } from '../core/log/logger.js';
import {
  createDeviceApp,
  type DeviceApp,
  type DeviceAppOptions,
  type DevicePaths,
} from '../domain/device/app.js';
import type { OtaEvent } from '../domain/device/ota.js';
import { createGeneratedCapture } from '../domain/device/recording/audio.js';
import type { Settings } from '../domain/settings/index.js';
import { createSimAsrEngine } from './asr-engine.js';
import { attachSimBtModule, type SimBtModule } from './bt-module.js';

export interface SimDeviceOptions {
  bus: StateBus;
  settings?: { current(): Settings };
  /** A private directory: database, recordings, packages, PID and flag files, phone book. */
  dir: string;
  logger: Logger;
  /** A cloud to use; absent: a reference server is started on loopback with a firmware update. */
  cloudUrl?: string;
  /** Firmware version the simulated device runs (default 1.0.0; the sim server offers 1.1.0). */
  firmwareVersion?: string;
  /** Battery level the fake gauge reports (default 80). */
  battery?: number;
  onOtaEvent?: (event: OtaEvent) => void;
  /** Auto-consent delay for non-forced updates (default 500 ms; the screen would ask). */
  consentDelayMs?: number;
  /** The screen's consent dialog; absent: consent is given after `consentDelayMs`. */
  consent?: (info: { kind: UpdateKind; version: string; notes: string }) => Promise<boolean>;
  /** The screen's PC Link verification page. */
  showVerificationPage?: () => void;
  /** Where the verification page's answer goes (default: logged, as a PC would be told). */
  onUiVerification?: DeviceAppOptions['onUiVerification'];
  /** Overrides for the device app (tests). */
  overrides?: Partial<DeviceAppOptions>;
}

export interface SimDevice {
  app: DeviceApp;
  /** The simulated Bluetooth module on the far end of an in-memory serial link. */
  btModule: SimBtModule;
  cloudUrl: string;
  /** Installs the sim reports (the fake swupdate's argv). */
  readonly installs: string[][];
  start(): Promise<void>;
  /** Walks through recording, transcription and Bluetooth once, logging what happens. */
  demo(options?: { recordMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

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
export function simDevicePaths(dir: string): DevicePaths {
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

/**
 * Wires the device application to simulator adapters: generated audio, the simulated ASR
 * engine, an in-memory Bluetooth module, a fake battery, a fake swupdate, and (unless
 * `cloudUrl` is given) the reference cloud server on loopback offering a firmware update.
 */
export async function createSimDevice(options: SimDeviceOptions): Promise<SimDevice> {
  const { logger } = options;
  fs.mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  let server: { url: string; close(): Promise<void> } | null = null;
  let cloudUrl = options.cloudUrl;
  if (!cloudUrl) {
    const { createCloudServer } = await import('@waved/psp-cloud/server');
    // the simulated device is known to its cloud: it registers without an enrolment key
    const cloud = createCloudServer({ devices: [{ serial: 'SIM0001', secret: 'sim-factory-secret' }] });
    cloud.publishUpdate('psp_firmware', {
      version: '1.1.0',
      data: await buildSimPackage(options.dir, '1.1.0'),
      descriptions: { en: { html_note: '<p>Simulated update: faster Wi-Fi setup.</p>' } },
    });
    server = await cloud.listen({ host: '127.0.0.1', port: 0 });
    cloudUrl = server.url;
  }

  const [hostEnd, moduleEnd] = duplexPair();
  const btModule = attachSimBtModule(moduleEnd as unknown as Parameters<typeof attachSimBtModule>[0]);
  const installs: string[][] = [];
  const dir = options.dir;
  const app = createDeviceApp({
    bus: options.bus,
    ...(options.settings ? { settings: options.settings } : {}),
    paths: simDevicePaths(dir),
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
      consent:
        options.consent ??
        (async (info: { kind: UpdateKind; version: string }) => {
          logger.info(`ota: ${info.kind} ${info.version} — accepted on the simulated screen`);
          await new Promise((r) => setTimeout(r, options.consentDelayMs ?? 500));
          return true;
        }),
      reboot: async () => logger.info('ota: the device would reboot now (simulated)'),
    },
    ...(options.onOtaEvent ? { onOtaEvent: options.onOtaEvent } : {}),
    ...(options.showVerificationPage ? { showVerificationPage: options.showVerificationPage } : {}),
    onUiVerification:
      options.onUiVerification ??
      ((outcome) => logger.info(`pclink: the computer is told result ${outcome.result} (simulated)`)),
    telemetry: { flushIntervalMs: 2000, backoff: { baseMs: 500, maxMs: 10_000 } },
    session: { retryDelayMs: 5000 },
    logger,
    ...options.overrides,
  });

  return {
    app,
    btModule,
    cloudUrl,
    installs,
    start: () => app.start(),
    async demo({ recordMs = 3000 } = {}) {
      await app.session.ready();
      const rec = await app.initRecording({ mode: 0, language: 'en' });
      const off = app.asr.registerAsrOnlineSubtitleNotify((s) => {
        if (s.final) logger.info(`asr: "${s.text}"`);
      });
      await app.recorder.start();
      logger.info(`recording ${rec.id} started`);
      await new Promise((r) => setTimeout(r, recordMs / 2));
      await app.recorder.mark();
      await new Promise((r) => setTimeout(r, recordMs / 2));
      const row = await app.recorder.finish();
      off();
      logger.info(`recording finished: ${row.durationMs} ms, ${row.bytes} bytes`);
      await app.uploader.run();
      const after = app.recorder.list().find((r) => r.id === rec.id);
      logger.info(`recording cloud state: ${after?.cloudState ?? 'unknown'}`);
      btModule.connectPhone('Pixel of Ada');
      await new Promise((r) => setTimeout(r, 100));
      const bt = app.bluetooth;
      if (bt) {
        const contacts = await bt.downloadPhoneBook();
        logger.info(`bluetooth: ${contacts.length} contacts downloaded`);
        bt.once('incomingCall', ({ number, contacts: found }) =>
          logger.info(`bluetooth: call from ${number} (${found[0]?.name ?? 'unknown'})`),
        );
        btModule.incomingCall('+442079460958');
        btModule.answerCall();
        await new Promise((r) => setTimeout(r, 200));
        btModule.endCall();
      }
      await app.telemetry.flush();
    },
    async stop() {
      await app.stop();
      btModule.detach();
      hostEnd.destroy();
      moduleEnd.destroy();
      await server?.close();
    },
  };
}
