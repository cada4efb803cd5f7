import path from 'node:path';
import type { BtPort } from '@waved/bt-frame';
import { type Appliance, runWebhookSetupTest, startAppliance } from './app.js';
import { type ProvisioningState, StateBus } from './core/bus.js';
import type { ApplianceLogger } from './core/log/logger.js';
import type { SetClock } from './core/ports/clock.js';
import type { FileStore } from './core/ports/files.js';
import type { HttpServe, ServerHandle } from './core/ports/http.js';
import { type Notifier, silentNotifier } from './core/ports/notify.js';
import type { PinHash } from './core/ports/pin-hash.js';
import type { Radio, Station } from './core/ports/radio.js';
import type { CreateUdpSocket, ResolveHost } from './core/ports/udp.js';
import type {
  DeviceApp,
  DeviceAppOptions,
  DeviceCloud,
  DeviceIdentity,
  DevicePaths,
} from './domain/device/app.js';
import type { AsrEngine } from './domain/device/asr/controller.js';
import type { PowerOffType } from './domain/device/constants.js';
import type { BatteryPort } from './domain/device/ota.js';
import type { DeviceStores, StorageSizes } from './domain/device/ports.js';
import type { AudioCapture } from './domain/device/recording/audio.js';
import { describePlan, type FeaturePlan } from './domain/profile/features.js';
import type { DeviceProfile } from './domain/profile/schema.js';
import { createScreens, type Screens } from './domain/screens/view.js';
import { createAttemptLimiter } from './domain/security/attempts.js';
import { createSettingsStore, defaultSettings, type Settings } from './domain/settings/index.js';
import { createClockSync } from './domain/sntp/schedule.js';
import type { WebhookHttp } from './domain/webhook.js';

/** The hardware and stores of the device application, from one adapter set. */
export interface DeviceAdapters {
  stores: DeviceStores;
  identity: DeviceIdentity;
  cloud: DeviceCloud;
  paths: DevicePaths;
  audio: AudioCapture;
  battery: BatteryPort;
  asrEngine?: AsrEngine;
  bluetooth?: { port: BtPort; probeIntervalMs?: number } | undefined;
  ota: Pick<
    DeviceAppOptions['ota'],
    | 'run'
    | 'certificate'
    | 'hardware'
    | 'minBattery'
    | 'allowDowngrade'
    | 'requireImageSha256'
    | 'insecure'
    | 'ca'
    | 'checkpointBytes'
  > & { reboot: () => Promise<void> };
  storage: StorageSizes;
  uptimeMs?: () => number;
  /** Timings and hooks only the simulator changes. */
  tuning?: Partial<Pick<DeviceAppOptions, 'telemetry' | 'session' | 'onUiVerification' | 'recordingSyncMs'>>;
  /** Closes what the adapters opened besides the stores (a serial port, a simulated cloud). */
  close?(): Promise<void>;
}

/** The SNTP client's ports; absent: the clock is never set (the simulator). */
export interface ClockAdapters {
  setClock: SetClock;
  createSocket: CreateUdpSocket;
  resolveHost?: ResolveHost | undefined;
  /** Port asked on every server (default 123; the lab uses another). */
  port?: number | undefined;
  /** Servers to ask instead of the settings' `ntp.servers` (the simulator's `--ntp`). */
  servers?: string[];
  /** A second source for a step of more than 24 h: the cloud's HTTPS `Date`. */
  secondSource?: (() => Promise<Date | null>) | undefined;
}

/**
 * One adapter set: the system's (`waved start`), the simulator's (`waved sim`) or a test's. The
 * runtime does not know which one it runs on.
 */
export interface RuntimeAdapters {
  radio: Radio;
  station: Station & { close?(): void };
  files: FileStore;
  serve: HttpServe;
  clock?: ClockAdapters | undefined;
  notifier?: Notifier | undefined;
  /** Where PINs are hashed (default: libuv's thread pool). */
  pinHash?: PinHash | undefined;
  /**
   * Brings the machine into a known state before anything runs: leftovers of a crash, stray
   * daemons on the interface, `wpa_supplicant.conf`, wpa_supplicant itself. Throws a message that
   * names the fix when the device cannot run.
   */
  prepare?(settings: Settings): Promise<void>;
  /** Applies the Wi-Fi country (`00`: world) to the radio's regulatory domain and configs. */
  applyCountry?(country: string, settings: Settings): Promise<void>;
  /** Opens the device application's adapters (called only when the plan turns it on). */
  device?(): Promise<DeviceAdapters>;
  /** Update consent when nobody can press the screen (default: declined; forced updates still install). */
  consent?: (info: { kind: string; version: string; notes: string }) => Promise<boolean>;
  close?(): Promise<void>;
}

export interface RuntimeOptions {
  profile: DeviceProfile;
  adapters: RuntimeAdapters;
  /** What runs (from `planFeatures` on a device, `simulatedPlan` in the simulator). */
  plan: FeaturePlan;
  log: ApplianceLogger;
  /** Where the portal listens and what the screen shows (default: the profile's AP address). */
  portal?: { host: string; port: number; setupUrl: string; gateway: string };
  /** Open Set up Wi-Fi at the first start (a device with no saved network). */
  openSetupOnStart?: boolean;
  /** Someone can press the screen's buttons (a display with keys, or the screen page). */
  interactive?: boolean;
  /**
   * Plain-http webhook URLs allowed (default: the profile's `security.webhook_http`, `never` on a
   * device; the simulator allows `loopback`).
   */
  webhookHttp?: WebhookHttp;
  /** Overrides of the profile's Wi-Fi timings (`wifi.*_ms`) and the poll intervals (tests). */
  timing?: {
    timeoutMs?: number;
    associationTimeoutMs?: number;
    stepTimeoutMs?: number;
    finishDelayMs?: number;
    pollMs?: number;
    wifiPollMs?: number;
  };
}

export interface RuntimeInfo {
  /** The screen page for a kiosk browser, when it runs. */
  screenPage: ServerHandle | null;
  /** What the portal will be at while the setup network is up. */
  setupUrl: string;
}

export interface Runtime {
  readonly bus: StateBus;
  readonly screens: Screens;
  /** The current Area A snapshot (replaced after each valid save). */
  appliance(): Appliance | null;
  /** The device application, when it runs. */
  device(): DeviceApp | null;
  start(): Promise<RuntimeInfo>;
  /** A clean stop: the AP torn down, `device_power_off` sent, everything closed. Idempotent. */
  stop(options?: { powerOffType?: PowerOffType }): Promise<void>;
  /**
   * After a crash: tears the AP down without trusting the state machines (hostapd stopped, its
   * config removed, the station restored), each step bounded. Never throws.
   */
  teardown(): Promise<void>;
}

const STEP_LIMIT_MS = 5_000;

function bounded<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref?.())]);
}

/**
 * The composition root: builds Area A (Wi-Fi service, provisioning, portal, settings, SNTP) and
 * Area B (the device application) from a device profile and one adapter set. `waved start`,
 * `waved sim` and the end-to-end test all run this; the restart after a valid save is here, once.
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const { profile, adapters, plan } = options;
  const { logger, secrets } = options.log;
  const bus = new StateBus();
  const notifier = adapters.notifier ?? silentNotifier;
  const gateway = profile.wifi.gateway;
  const portalPort = profile.wifi.portal_port;
  const portal = options.portal ?? {
    host: gateway,
    port: portalPort,
    setupUrl: `http://${gateway}${portalPort === 80 ? '' : `:${portalPort}`}/`,
    gateway: portalPort === 80 ? gateway : `${gateway}:${portalPort}`,
  };
  let device: DeviceApp | null = null;
  let deviceAdapters: DeviceAdapters | null = null;
  let current: Appliance | null = null;
  let settingsSnapshot: Settings | null = null;
  let page: ServerHandle | null = null;
  let watchdog: ReturnType<typeof setInterval> | null = null;
  let loop: Promise<void> | null = null;
  let stopRequested: (() => void) | null = null;
  let stopping: Promise<void> | null = null;
  let appliedCountry: string | null = null;
  const webhookHttp: WebhookHttp = options.webhookHttp ?? profile.security.webhook_http;
  // One failed-PIN counter for the portal and PC Link, next to config.toml: a restart after a
  // save, a crash or a power cut does not reset it.
  const pinAttempts = createAttemptLimiter({
    persist: {
      path: path.join(path.dirname(profile.paths.settings), 'pin-attempts.json'),
      files: adapters.files,
    },
    logger,
  });

  const screens = createScreens({
    bus,
    // The saved device language, read for every view; English until the settings load.
    language: () => (current?.current() ?? settingsSnapshot)?.device.language ?? 'en',
    verification: {
      verify: (pin) => device?.verifyDevicePassword(pin) ?? { result: 0 },
      report: (outcome) => device?.reportUiVerification(outcome),
    },
    device: { bluetooth: () => device?.bluetooth ?? null, ui: () => device?.ui ?? null },
  });

  const clockSync = adapters.clock
    ? createClockSync({
        bus,
        logger,
        enabled: () => !!adapters.clock?.servers || (current?.current().ntp.enabled ?? false),
        sync: async () => {
          const clock = adapters.clock!;
          const { createSntpClient } = await import('./domain/sntp/client.js');
          const servers = clock.servers ?? current?.current().ntp.servers ?? [];
          return createSntpClient({
            servers,
            setClock: clock.setClock,
            createSocket: clock.createSocket,
            resolveHost: clock.resolveHost,
            port: clock.port || undefined,
            secondSource: clock.secondSource,
            logger,
          }).sync();
        },
      })
    : null;

  async function applySettings(settings: Settings): Promise<void> {
    settingsSnapshot = settings;
    // The screens speak the saved language from the first view after the settings load.
    screens.refresh();
    const country = settings.wifi.country;
    if (adapters.applyCountry && country !== appliedCountry) {
      try {
        await adapters.applyCountry(country, settings);
        appliedCountry = country;
      } catch (error) {
        logger.warn?.(`Wi-Fi country ${country} not applied: ${(error as Error).message}`);
      }
    }
  }

  /** Area A, restarted with a fresh settings snapshot after every valid save, until stopped. */
  async function runAreaA(stopSignal: Promise<void>): Promise<void> {
    let initialState: ProvisioningState | undefined;
    let pendingWebhookTest = false;
    let first = true;
    for (;;) {
      let restart: () => void = () => {};
      const restarted = new Promise<'restart'>((resolve) => {
        restart = () => resolve('restart');
      });
      const app = await startAppliance({
        bus,
        radio: adapters.radio,
        station: adapters.station,
        files: adapters.files,
        serve: adapters.serve,
        logger,
        secrets,
        settingsPath: profile.paths.settings,
        pinAttempts,
        pinHash: adapters.pinHash,
        webhookHttp,
        portal: { host: portal.host, port: portal.port },
        setupUrl: portal.setupUrl,
        gateway: portal.gateway,
        hostapdConfigPath: profile.wifi.hostapd_config,
        onSettings: applySettings,
        initialState,
        timing: {
          associationTimeoutMs: profile.wifi.association_timeout_ms,
          stepTimeoutMs: profile.wifi.step_limit_ms,
          timeoutMs: profile.wifi.setup_timeout_ms,
          ...options.timing,
        },
        wifiPollMs: options.timing?.wifiPollMs || undefined,
        onRestart: (info) => {
          pendingWebhookTest = info.pendingWebhookTest;
          restart();
        },
      });
      current = app;
      if (first) {
        first = false;
        startedAreaA();
        if (options.openSetupOnStart) bus.send({ type: 'OpenWifiProvisioning' });
      }
      if (pendingWebhookTest) {
        pendingWebhookTest = false;
        void runWebhookSetupTest(app.current(), logger, { http: webhookHttp });
      }
      const why = await Promise.race([restarted, stopSignal.then(() => 'stop' as const)]);
      initialState = app.controller.state();
      await app.stop();
      if (why === 'stop') return;
      logger.info?.('restarting with the saved settings');
    }
  }
  let startedAreaA: () => void = () => {};

  async function startDevice(): Promise<void> {
    if (!plan.isOn('cloud') || !adapters.device) return;
    const { createDeviceApp } = await import('./domain/device/app.js');
    deviceAdapters = await adapters.device();
    const a = deviceAdapters;
    const consent = options.interactive
      ? (info: { kind: 'psp_firmware' | 'psp_model'; version: string; notes: string }) =>
          screens.consent(info)
      : (adapters.consent ?? (async () => false));
    device = createDeviceApp({
      bus,
      settings: { current: () => current?.current() ?? settingsSnapshot ?? defaultSettings() },
      paths: a.paths,
      stores: a.stores,
      identity: a.identity,
      cloud: a.cloud,
      audio: a.audio,
      battery: a.battery,
      asrEngine: a.asrEngine,
      bluetooth: plan.isOn('bluetooth') ? a.bluetooth : undefined,
      ota: { ...a.ota, consent },
      onOtaEvent: (event) => screens.otaEvent(event),
      showVerificationPage: () => screens.showVerificationPage(),
      pinAttempts,
      pinHash: adapters.pinHash,
      logger,
      storage: a.storage,
      ...(a.uptimeMs ? { clock: { now: Date.now, uptimeMs: a.uptimeMs } } : {}),
      ...a.tuning,
    });
    await device.start();
    // the menu offers Bluetooth and Sound and privacy now
    screens.refresh();
  }

  const runtime: Runtime = {
    bus,
    screens,
    appliance: () => current,
    device: () => device,
    async start() {
      const started = performance.now();
      for (const line of describePlan(plan)) {
        if (line.startsWith('on ')) logger.info?.(`feature ${line.slice(5)}`);
        else logger.warn?.(`feature ${line.replace(/^off {2}/, '').replace(/^MISSING /, 'missing: ')}`);
      }
      // A fresh image has neither: without them every save would fail.
      await adapters.files.mkdir(path.dirname(profile.paths.settings), 0o700);
      await adapters.files.mkdir(profile.paths.data_dir, 0o700);
      // Area A reads the settings again; the preparation and the Wi-Fi country need them first.
      const early = await createSettingsStore({
        path: profile.paths.settings,
        files: adapters.files,
        logger,
        webhookHttp,
      }).load();
      await adapters.prepare?.(early);
      await applySettings(early);
      try {
        await startDevice();
      } catch (error) {
        logger.error?.(`device application not started: ${(error as Error).message}`);
        await device?.stop().catch(() => {});
        device = null;
      }
      const stopSignal = new Promise<void>((resolve) => {
        stopRequested = resolve;
      });
      const areaAUp = new Promise<void>((resolve) => {
        startedAreaA = resolve;
      });
      loop = runAreaA(stopSignal);
      loop.catch(() => {});
      await Promise.race([areaAUp, loop]);
      clockSync?.start();
      if (profile.screen.page_port > 0) {
        const { createScreenPage } = await import('./domain/screens/page.js');
        page = await adapters.serve(createScreenPage({ screens }), {
          host: '127.0.0.1',
          port: profile.screen.page_port,
        });
        logger.info?.(`screen page on ${page.url} (loopback only)`);
      }
      const took = Math.round(performance.now() - started);
      logger.info?.(`running (started in ${took} ms)`);
      notifier.ready(`running in ${took} ms`);
      if (notifier.watchdogMs) {
        watchdog = setInterval(() => notifier.watchdog(), notifier.watchdogMs);
        watchdog.unref?.();
      }
      return { screenPage: page, setupUrl: portal.setupUrl };
    },
    stop({ powerOffType = 'shutdown' } = {}) {
      stopping ??= (async () => {
        notifier.stopping();
        if (watchdog) clearInterval(watchdog);
        clockSync?.stop();
        stopRequested?.();
        await loop?.catch((error) => logger.error?.('Wi-Fi service stopped with an error:', error));
        screens.close();
        await page?.close();
        await device
          ?.stop({ powerOffType })
          .catch((error) => logger.warn?.(`device application stop: ${(error as Error).message}`));
        await deviceAdapters?.close?.().catch(() => {});
        adapters.station.close?.();
        await adapters.close?.();
        notifier.close();
      })();
      return stopping;
    },
    async teardown() {
      const { radio, files } = adapters;
      const config = profile.wifi.hostapd_config;
      const apUp =
        ['Scanning', 'ApActive', 'Failed', 'Connecting'].includes(current?.controller.state().state ?? '') ||
        (await bounded(files.read(config), STEP_LIMIT_MS).catch(() => null)) != null;
      const step = async (name: string, fn: () => Promise<unknown>) => {
        try {
          await bounded(fn(), STEP_LIMIT_MS);
        } catch (error) {
          logger.error?.(`teardown: ${name} failed:`, error);
        }
      };
      notifier.stopping('tearing the setup network down after a crash');
      await step('stop DNS server', () => radio.stopDnsServer());
      await step('stop DHCP server', () => radio.stopDhcpServer());
      await step('stop hostapd', () => radio.stopHostapd());
      await step('remove the hostapd config', () => files.remove(config));
      if (apUp) {
        await step('flush addresses', () => radio.flushAddresses());
        await step('start station', () => radio.startStation());
      }
    },
  };
  return runtime;
}
