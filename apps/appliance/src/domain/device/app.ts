import path from 'node:path';
import type { BtPort } from '@waved/bt-frame';
import {
  type BaseUrlOverrides,
  type CloudClient,
  type CloudTlsOptions,
  createCloudClient,
  DATABASE_ENTRY,
  KEY_STORE_SLOT,
  openUdidFromMac,
  regionForCountry,
  resolveCloudArea,
  type TelemetryEventName,
  type TelemetryParams,
} from '@waved/psp-cloud';
import type { UpdateKind } from '@waved/swu-ota';
import type { StateBus } from '../../core/bus.js';
import { type Logger, scopedLogger } from '../../core/log/logger.js';
import type { PinHash } from '../../core/ports/pin-hash.js';
import { type AttemptLimiter, createAttemptLimiter } from '../security/attempts.js';
import type { Settings } from '../settings/index.js';
import {
  type AsrController,
  type AsrEngine,
  createAsrController,
  localAudioServerInfo,
} from './asr/controller.js';
import { type BluetoothService, createBluetoothService } from './bluetooth/service.js';
import { beginRun, endRun } from './boot.js';
import {
  PHONE_BOOK_PATH,
  PID_FILE,
  POWER_ON_FLAG_FILE,
  type PowerOffType,
  type TranscriptionMode,
} from './constants.js';
import {
  type BatteryPort,
  createOtaService,
  type OtaEvent,
  type OtaService,
  type OtaServiceOptions,
  type VersionStore,
} from './ota.js';
import { slaveVerifyDevPasswd, type VerifyResult } from './pclink.js';
import type { DeviceStores, StorageSizes } from './ports.js';
import type { AudioCapture } from './recording/audio.js';
import { createMeetingRecorder, type MeetingRecorder, type RecordingInfo } from './recording/recorder.js';
import { createUploader, type Uploader } from './recording/uploader.js';
import { createPasswordRecovery, type PasswordRecovery } from './recovery.js';
import { type CloudSession, createCloudSession } from './session.js';
import { createDeviceTelemetry, type DeviceTelemetry } from './telemetry.js';

/** Where the application keeps its files. Defaults are the device's. */
export interface DevicePaths {
  /** Packages live under this directory unless `packageDir` is given (the stores are opened by the adapters). */
  dataDir: string;
  pidFile?: string;
  powerOnFlagFile?: string;
  phoneBookPath?: string;
  /** Where `software.swu` and `model.swu` are downloaded (default `<dataDir>/ota`). */
  packageDir?: string;
  /** `curl_progress_<name>` and `swu.done` (default /tmp). */
  progressDir?: string;
  doneFile?: string;
}

export interface DeviceIdentity {
  /** Device serial (key-store slot 0); written there on first start when the slot is empty. */
  serial: string;
  /** Factory secret (database entry 0xe7), idem. */
  registrationSecret?: string | undefined;
  /** Wi-Fi MAC: the telemetry open UDID. */
  mac?: string | undefined;
  /** Version the firmware image reports until an OTA install records a newer one. */
  firmwareVersion: string;
  modelVersion?: string;
}

export type DeviceCloud =
  | {
      /** One URL for all three services (the reference server); wins over `urls`. */
      baseUrl?: string;
      /** The deployment's hosts per environment and region (the device profile's `[cloud]` tables). */
      urls?: BaseUrlOverrides;
      tls?: CloudTlsOptions;
      /** `'production' | 'test'`, or the global OTA environment flag (1 = test). */
      environment?: 'production' | 'test' | number;
      retry?: { retries?: number; baseDelayMs?: number };
    }
  | { client: CloudClient };

export interface DeviceAppOptions {
  bus: StateBus;
  /** The settings store (its `current()` snapshot: country, language, time zone, PIN, auto upload). */
  settings?: { current(): Settings } | undefined;
  paths: DevicePaths;
  /** The databases, the credential store and the files (opened by the adapters, closed by `stop()`). */
  stores: DeviceStores;
  identity: DeviceIdentity;
  cloud: DeviceCloud;
  audio: AudioCapture;
  battery: BatteryPort;
  asrEngine?: AsrEngine | undefined;
  /** Serial port of the Bluetooth module (a `SerialPort`); absent: no Bluetooth. */
  bluetooth?: { port: BtPort; probeIntervalMs?: number } | undefined;
  ota: Pick<
    OtaServiceOptions,
    | 'reboot'
    | 'run'
    | 'certificate'
    | 'hardware'
    | 'minBattery'
    | 'allowDowngrade'
    | 'requireImageSha256'
    | 'insecure'
    | 'ca'
    | 'checkpointBytes'
  > & {
    /** Screen consent for non-forced updates (default: declined). */
    consent?: OtaServiceOptions['consent'];
  };
  /** The UI page PC Link verification asks for (empty password). */
  showVerificationPage?: (() => void) | undefined;
  /**
   * The failed-PIN counter the portal shares (one per device). Default: one kept in
   * `<dataDir>/pin-attempts.json`.
   */
  pinAttempts?: AttemptLimiter;
  /** Where the PIN is hashed (default: libuv's thread pool; a device: `createLowPriorityPinHash`). */
  pinHash?: PinHash | undefined;
  /** The PC Link transport: receives the final answer of the UI verification page. */
  onUiVerification?: (outcome: UiVerificationOutcome) => void;
  onOtaEvent?: ((event: OtaEvent) => void) | undefined;
  logger: Logger;
  /** Wall time, and the system uptime for `init_start`/`init_end` (default: this process's uptime). */
  clock?: { now(): number; uptimeMs?(): number };
  telemetry?: { flushIntervalMs?: number; backoff?: { baseMs?: number; maxMs?: number } };
  session?: { refreshIntervalMs?: number; retryDelayMs?: number };
  /** Storage sizes for `device_power_on` (statfs of the data directory on a device). */
  storage: StorageSizes;
  /** fdatasync interval of recordings (default 500 ms). */
  recordingSyncMs?: number;
}

/** The answer of the UI verification page that goes back to the PC Link (1 verified, 0 not). */
export type UiVerificationOutcome =
  | { result: 1 }
  | { result: 0; reason: 'wrong-password' | 'no-password-set' | 'cancelled' | 'timeout' };

/** The device's own switches the options screen shows (kept in the appliance database). */
export interface DeviceUiState {
  /** Recordings and transcription get silence while muted. */
  micMuted: boolean;
  speakerMuted: boolean;
  privacyAgreed: boolean;
  experienceJoined: boolean;
}

/**
 * UI telemetry triggers. The mute switches, the privacy agreement and the experience programme
 * change the device's state (`uiState`) and report it; the others only report what hardware or a
 * companion app did.
 */
export interface DeviceUiEvents {
  factoryReset(): Promise<void>;
  privacyAgreement(): Promise<void>;
  joinUserExperience(): Promise<void>;
  toggleMicMute(muted: boolean): Promise<void>;
  toggleSpeakerMute(muted: boolean): Promise<void>;
  uiState(): DeviceUiState;
  enterReverseChargingPage(battery?: number): Promise<void>;
  reverseChargingStart(battery?: number): Promise<void>;
  reverseChargingEnd(battery?: number, durationS?: number): Promise<void>;
  enterUsbStorageMode(): Promise<void>;
  mechanicalHeightAdjust(): Promise<void>;
  bind(): Promise<void>;
  unbind(): Promise<void>;
}

export interface DeviceApp {
  start(): Promise<void>;
  /** A clean stop; `device_power_off` carries `powerOffType` (default `shutdown`) unless a reboot sent it. */
  stop(options?: { powerOffType?: PowerOffType }): Promise<void>;
  /** Password recovery (spec Endpoints B): the cloud sends a code to the owner, the device checks it. */
  readonly passwordRecovery: PasswordRecovery;
  readonly boot: { crashed: boolean; firstStartThisBoot: boolean } | null;
  readonly session: CloudSession;
  readonly telemetry: DeviceTelemetry;
  readonly ota: OtaService;
  readonly recorder: MeetingRecorder;
  readonly uploader: Uploader;
  readonly asr: AsrController;
  readonly bluetooth: BluetoothService | null;
  readonly ui: DeviceUiEvents;
  readonly client: CloudClient;
  /** Init a recording with its transcription mode (the ASR follows the recorder). */
  initRecording(options?: { mode?: TranscriptionMode; language?: string }): Promise<RecordingInfo>;
  /** PC Link `slave_verify_dev_passwd` against the PIN of the settings (shared failed-attempt counter). */
  verifyDevicePassword(password: string): Promise<VerifyResult>;
  /** The UI verification page is done: its result goes back to the PC Link (`onUiVerification`). */
  reportUiVerification(outcome: UiVerificationOutcome): void;
  /** Installed versions (updated by OTA installs). */
  versions(): Record<UpdateKind, string>;
}

interface SettingsSnapshot {
  name?: string;
  language: string;
  country: string;
  prompt: boolean;
  volume: number;
  locked: boolean;
  autoUpload: boolean;
}

function snapshotOf(s: Settings): SettingsSnapshot {
  return {
    name: s.device.name,
    language: s.device.language,
    country: s.device.country,
    prompt: s.audio.prompt_tones,
    volume: s.audio.volume,
    locked: s.security.device_password !== '',
    autoUpload: s.storage.auto_upload,
  };
}

/**
 * A cloud client that follows the device's country: CN, US, everything else EU. The region is
 * looked at when a session is established (registration or token refresh), so a changed country
 * takes effect at the next session; telemetry, OTA and uploads go to the bound area.
 */
function createAreaClient(
  build: (country: string | undefined) => CloudClient,
  country: () => string | undefined,
  onChange: (from: string, to: string) => void,
): CloudClient & { close(): Promise<void> } {
  let current = build(country());
  const follow = () => {
    const wanted = regionForCountry(country());
    if (wanted === current.region) return;
    const old = current;
    current = build(country());
    onChange(old.region, current.region);
    void old.close().catch(() => {});
  };
  return new Proxy({} as CloudClient & { close(): Promise<void> }, {
    get(_, prop) {
      if (prop === 'register' || prop === 'refreshToken') follow();
      const value = Reflect.get(current, prop, current);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

/**
 * The device application on the appliance: boot bookkeeping, the cloud session,
 * durable telemetry, OTA, meeting recording with upload and transcription, ASR, Bluetooth and
 * PC Link verification. Everything that touches hardware is a port in the options.
 */
export function createDeviceApp(options: DeviceAppOptions): DeviceApp {
  const { bus, logger, identity } = options;
  const now = options.clock?.now ?? Date.now;
  const uptimeMs = options.clock?.uptimeMs ?? (() => Math.round(performance.now()));
  const paths = options.paths;
  const settings = () => options.settings?.current();
  const { stores } = options;
  const { credentials, meta, files } = stores;
  const pinAttempts =
    options.pinAttempts ??
    createAttemptLimiter({
      persist: { path: path.join(paths.dataDir, 'pin-attempts.json'), files },
      logger,
    });
  const versions: VersionStore = {
    get: (kind) =>
      meta.get(`version:${kind}`) ??
      (kind === 'psp_firmware' ? identity.firmwareVersion : (identity.modelVersion ?? '0.0.0')),
    set: (kind, v) => meta.set(`version:${kind}`, v),
  };

  const cloud = options.cloud;
  const client: CloudClient =
    'client' in cloud
      ? cloud.client
      : createAreaClient(
          (country) =>
            createCloudClient({
              credentials,
              // the profile's hosts for the device's area: region from the country, environment from the flag
              area: resolveCloudArea({
                country: country ?? null,
                environment: cloud.environment ?? 0,
                baseUrl: cloud.baseUrl || undefined,
                hosts: cloud.urls,
              }),
              tls: cloud.tls,
              retry: cloud.retry,
              firmwareVersion: versions.get('psp_firmware'),
              logger: scopedLogger(logger, 'cloud'),
            }),
          () => settings()?.device.country || undefined,
          (from, to) =>
            logger.info?.(`cloud: the device country moved it from the ${from} to the ${to} area`),
        );

  // set by the first lines of the body below; the session calls it after each successful establish
  let sessionReady: () => void = () => {};
  const session = createCloudSession({
    client,
    credentials,
    logger,
    ...options.session,
    onReady: () => sessionReady(),
  });
  const telemetry = createDeviceTelemetry({
    store: stores.telemetry,
    client,
    serial: identity.serial,
    openUdid: openUdidFromMac(identity.mac ?? ''),
    common: () => ({
      fw_ver: versions.get('psp_firmware'),
      evt_language: settings()?.device.language ?? 'en',
      evt_timezone: settings()?.device.timezone ?? 'UTC',
    }),
    logger,
    ready: () => session.isReady(),
    ...options.telemetry,
  });
  const track = <N extends TelemetryEventName>(name: N, params: TelemetryParams[N]) =>
    telemetry.track(name, params);

  const ota = createOtaService({
    client,
    telemetry,
    versions,
    battery: options.battery,
    consent: options.ota.consent ?? (async () => false),
    // an install reboots the device: it says so before it goes, and the stop that follows does not again
    reboot: async () => {
      await powerOff('ota_reboot');
      try {
        await options.ota.reboot();
      } catch (error) {
        powerOffSent = false;
        throw error;
      }
    },
    packageDir: paths.packageDir ?? path.join(paths.dataDir, 'ota'),
    progressDir: paths.progressDir ?? '/tmp',
    doneFile: paths.doneFile ?? path.join(paths.progressDir ?? '/tmp', 'swu.done'),
    run: options.ota.run,
    certificate: options.ota.certificate || undefined,
    hardware: options.ota.hardware || undefined,
    minBattery: options.ota.minBattery,
    ...(options.ota.allowDowngrade ? { allowDowngrade: true } : {}),
    ...(options.ota.requireImageSha256 === false ? { requireImageSha256: false } : {}),
    ...(options.ota.insecure ? { insecure: true } : {}),
    ca: options.ota.ca || undefined,
    checkpointBytes: options.ota.checkpointBytes || undefined,
    policyMemory: { get: () => meta.get('ota_policy'), set: (p) => meta.set('ota_policy', p) },
    language: () => settings()?.device.language ?? 'en',
    onEvent: options.onOtaEvent,
    logger,
    now,
  });

  const UI_STATE_KEY = 'ui_state';
  const uiState = (): DeviceUiState => ({
    micMuted: false,
    speakerMuted: false,
    privacyAgreed: false,
    experienceJoined: false,
    ...(JSON.parse(meta.get(UI_STATE_KEY) ?? '{}') as Partial<DeviceUiState>),
  });
  const setUiState = (change: Partial<DeviceUiState>) =>
    meta.set(UI_STATE_KEY, JSON.stringify({ ...uiState(), ...change }));
  // the microphone switch: a muted device records (and transcribes) silence
  const audio: AudioCapture = {
    async *capture(signal) {
      for await (const chunk of options.audio.capture(signal)) {
        yield uiState().micMuted ? new Uint8Array(chunk.length) : chunk;
      }
    },
  };

  const recStore = stores.recordings;
  const recorder = createMeetingRecorder({
    store: recStore,
    audio,
    telemetry,
    logger,
    now,
    syncIntervalMs: options.recordingSyncMs || undefined,
  });
  const uploader = createUploader({
    store: recStore,
    client,
    telemetry,
    logger,
    autoUpload: () => settings()?.storage.auto_upload ?? true,
    ready: () => session.isReady(),
  });
  const asr = createAsrController({
    engine: options.asrEngine ?? createNullAsrEngine(),
    telemetry,
    client,
    logger,
    language: settings()?.device.language ?? 'en',
  });

  let powerOffSent = false;
  async function powerOff(type: PowerOffType): Promise<void> {
    const battery = await options.battery.read().catch(() => 'mains' as const);
    await track('device_power_off', { battery: battery === 'mains' ? 100 : battery, power_off_type: type });
    powerOffSent = true;
    logger.info?.(`device: power off (${type})`);
    if (session.isReady()) await telemetry.flush().catch(() => {});
  }

  let bluetooth: BluetoothService | null = null;
  let bootInfo: DeviceApp['boot'] = null;
  const unsubscribe: Array<() => void> = [];
  const inflight = new Set<Promise<void>>();
  const background = (what: string, task: Promise<void>) => {
    const p = task.catch((error) => logger.warn?.(`device: ${what}: ${(error as Error).message}`));
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };
  let started = false;

  const asrStep = (what: string, fn: () => Promise<void>) => {
    fn().catch((error) => logger.warn?.(`asr: ${what}: ${(error as Error).message}`));
  };
  recorder.on('state', ({ state, previous, recording }) => {
    if (!recording && state !== 'idle') return;
    if (state === 'recording' && previous === 'ready' && recording) {
      asrStep('open', () => asr.openAsrFeature(localAudioServerInfo(recording.id)));
    } else if (state === 'recording' && previous === 'paused') {
      asrStep('restart', () => asr.restartAsrFeature());
    } else if (state === 'paused') {
      asrStep('pause', () => asr.pauseAsrFeature());
    } else if (state === 'idle' && asr.state !== 'closed') {
      asrStep('close', () => asr.closeAsrFeature());
    }
  });
  recorder.on('audio', (pcm) => asr.feed(pcm));
  recorder.on('mark', ({ atMs }) => asr.dot(atMs));
  recorder.on('finished', () => uploader.kick());
  recorder.on('error', (e) => logger.error?.(`recording: ${e.message}`));
  // the durable acknowledgement of the audio: these bytes survive a power cut
  recorder.on('synced', ({ recording, bytes, durationMs }) =>
    logger.debug?.(`recording: ${recording.id} synced ${bytes} bytes (${durationMs} ms) on disk`),
  );

  async function settingsChanged(): Promise<void> {
    const s = settings();
    if (!s) return;
    const next = snapshotOf(s);
    const raw = meta.get('settings_snapshot');
    meta.set('settings_snapshot', JSON.stringify(next));
    if (!raw) return;
    const prev = JSON.parse(raw) as SettingsSnapshot;
    if (prev.country !== next.country && session.isReady()) {
      // the next session binds the new area (CN, US or EU)
      background('after the country changed', session.establish());
    }
    if (prev.language !== next.language || prev.country !== next.country) {
      await track('set_language_region', {
        language: next.language,
        region: next.country || undefined,
      });
    }
    if (prev.prompt !== next.prompt || prev.volume !== next.volume) {
      await track('prompt_tone_setting', { enabled: next.prompt, volume: next.volume });
    }
    if (prev.locked !== next.locked) await track('password_lock_toggle', { state: next.locked });
    if (prev.autoUpload !== next.autoUpload) await track('upload_to_cloud_toggle', {});
    if (next.name && prev.name !== next.name) await followName(next.name);
  }

  /** Phones see the device under its name (`device.name`): `bt_set_name` when it differs. */
  async function followName(name: string): Promise<void> {
    const bt = bluetooth;
    if (!bt) return;
    try {
      if ((await bt.module.getName()) === name) return;
      await bt.setName(name);
      logger.info?.(`bluetooth: the module is named ${JSON.stringify(name)}`);
    } catch (error) {
      logger.warn?.(`bluetooth: name not set: ${(error as Error).message}`);
    }
  }

  /** A Wi-Fi connect asks for an update check; it runs once the session is ready. */
  let otaPending = false;
  async function afterSessionReady(): Promise<void> {
    void telemetry.flush();
    uploader.kick();
    if (otaPending) {
      otaPending = false;
      await ota.checkNow();
    }
  }
  sessionReady = () => {
    if (started) background('after the session became ready', afterSessionReady());
  };

  async function onConnected(ssid: string): Promise<void> {
    const d = bus.last('ConnectionDetails');
    await track('device_network_connect', {
      ssid,
      ...(d?.rssi != null ? { signal_dbm: d.rssi } : {}),
      ...(d?.ipv4 ? { ipv4: d.ipv4 } : {}),
    });
    otaPending = true;
    if (session.isReady()) {
      await afterSessionReady();
      return;
    }
    // on success the session calls afterSessionReady; on failure its timer retries
    await session.establish().catch(() => {});
  }

  const ui: DeviceUiEvents = {
    factoryReset: () => track('factory_reset', {}),
    privacyAgreement: async () => {
      setUiState({ privacyAgreed: true });
      await track('privacy_agreement', {});
    },
    joinUserExperience: async () => {
      setUiState({ experienceJoined: true });
      await track('join_user_experience', {});
    },
    toggleMicMute: async (state) => {
      setUiState({ micMuted: state });
      logger.info?.(`device: microphone ${state ? 'muted' : 'on'}`);
      await track('toggle_mic_mute', { state });
    },
    toggleSpeakerMute: async (state) => {
      setUiState({ speakerMuted: state });
      await track('toggle_speaker_mute', { state });
    },
    uiState,
    enterReverseChargingPage: (battery) => track('enter_reverse_charging_page', { battery }),
    reverseChargingStart: (battery) => track('reverse_charging_start', { battery }),
    reverseChargingEnd: (battery, durationS) =>
      track('reverse_charging_end', {
        battery,
        duration_s: durationS,
      }),
    enterUsbStorageMode: () => track('enter_usb_storage_mode', {}),
    mechanicalHeightAdjust: () => track('mechanical_height_adjust', {}),
    bind: () => track('bind_id', {}),
    unbind: () => track('unbind_id', {}),
  };

  return {
    get boot() {
      return bootInfo;
    },
    session,
    telemetry,
    ota,
    recorder,
    uploader,
    asr,
    get bluetooth() {
      return bluetooth;
    },
    ui,
    client,
    passwordRecovery: createPasswordRecovery({ client, session, logger }),
    async start() {
      if (started) return;
      started = true;
      const initStarted = now();
      const initUptime = uptimeMs();
      if (!(await credentials.readSlot(KEY_STORE_SLOT.serial))) {
        await credentials.writeSlot(KEY_STORE_SLOT.serial, identity.serial);
      }
      if (identity.registrationSecret && !(await credentials.readEntry(DATABASE_ENTRY.registrationSecret))) {
        await credentials.writeEntry(DATABASE_ENTRY.registrationSecret, identity.registrationSecret);
      }
      await track('init_start', { uptime_ms: initUptime });
      const boot = await beginRun(files, {
        pidFile: paths.pidFile ?? PID_FILE,
        powerOnFlagFile: paths.powerOnFlagFile ?? POWER_ON_FLAG_FILE,
      });
      bootInfo = { crashed: boot.crashed !== null, firstStartThisBoot: boot.firstStartThisBoot };
      if (boot.crashed) {
        logger.warn?.(`the previous run did not stop cleanly (pid ${boot.crashed.previousPid ?? 'unknown'})`);
        await track('system_crash', { reason: boot.crashed.reason });
      }
      if (boot.firstStartThisBoot) {
        const sizes = await options.storage().catch(() => ({
          totalMb: 0,
          freeMb: 0,
        }));
        await track('device_power_on', { storage_total_mb: sizes.totalMb, storage_free_mb: sizes.freeMb });
      }
      await settingsChanged();
      const recovered = await recorder.recover();
      if (recovered.recordings.length > 0) {
        logger.warn?.(
          `recording: ${recovered.recordings.length} recording(s) interrupted by the previous run recovered`,
        );
      }
      session.start();
      unsubscribe.push(
        bus.on('WifiConnected', ({ ssid }) => background('after connect', onConnected(ssid))),
        bus.on('WifiDisconnected', () => {
          void track('device_network_disconnect', {});
        }),
        bus.on('command', (c) => {
          if (c.type === 'SettingsSaved') void settingsChanged();
        }),
      );
      if (options.bluetooth) {
        bluetooth = createBluetoothService({
          port: options.bluetooth.port,
          telemetry,
          logger,
          phoneBookPath: paths.phoneBookPath ?? PHONE_BOOK_PATH,
          probeIntervalMs: options.bluetooth.probeIntervalMs,
        });
        const name = settings()?.device.name;
        background(
          'bluetooth',
          bluetooth.info().then(async (i) => {
            logger.info?.(`bluetooth: module ${i.name} ${i.version} built ${i.buildtime} (${i.mac})`);
            if (name && name !== i.name) await followName(name);
          }),
        );
      }
      const details = bus.last('ConnectionDetails');
      if (details?.ssid && details.ipv4) {
        background('after connect', onConnected(details.ssid));
      }
      await track('init_end', { uptime_ms: uptimeMs(), duration_ms: now() - initStarted });
    },
    async stop({ powerOffType = 'shutdown' } = {}) {
      if (!started) {
        await stores.close();
        return;
      }
      started = false;
      for (const u of unsubscribe.splice(0)) u();
      session.stop();
      ota.abort();
      await Promise.all([...inflight]);
      await ota.idle();
      await recorder.close();
      if (asr.state !== 'closed') await asr.closeAsrFeature().catch(() => {});
      await asr.settled();
      await uploader.idle();
      if (!powerOffSent) await powerOff(powerOffType);
      else if (session.isReady()) await telemetry.flush();
      await telemetry.close();
      await bluetooth?.close();
      if (!('client' in cloud)) await client.close();
      await endRun(files, { pidFile: paths.pidFile ?? PID_FILE });
      await stores.close();
    },
    async initRecording(opts = {}) {
      const mode = opts.mode ?? 0;
      if (mode !== asr.mode) await asr.setTranscriptionMode(mode);
      if (opts.language && opts.language !== asr.language) await asr.setTranscriptionLanguage(opts.language);
      return recorder.init({ mode, language: opts.language ?? asr.language });
    },
    verifyDevicePassword(password) {
      const record = settings()?.security.device_password ?? '';
      return slaveVerifyDevPasswd(
        password,
        record === '' ? null : record,
        () => {
          logger.info?.('pclink: asking the user to verify on the device');
          options.showVerificationPage?.();
        },
        pinAttempts,
        options.pinHash,
      );
    },
    reportUiVerification(outcome) {
      logger.info?.(
        `pclink: UI verification result ${outcome.result}${outcome.result === 0 ? ` (${outcome.reason})` : ''}`,
      );
      options.onUiVerification?.(outcome);
    },
    versions() {
      return { psp_firmware: versions.get('psp_firmware'), psp_model: versions.get('psp_model') };
    },
  };
}

/** An engine that accepts every call and produces nothing (a device without ASR). */
export function createNullAsrEngine(): AsrEngine {
  return {
    open: async () => {},
    close: async () => {},
    pause: async () => {},
    restart: async () => {},
    switchType: async () => {},
    setOnlyTrans: async () => {},
    feed: () => {},
  };
}
