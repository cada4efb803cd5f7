import path from 'node:path';
import type { CloudClient } from '@waved/psp-cloud';
import {
  type CommandRunner,
  createInstaller,
  createPackageStore,
  type DownloadProgress,
  formatProgressLine,
  type InstallStep,
  isOtaError,
  type OtaRefusal,
  progressFilePath,
  refusalOf,
  UPDATE_KINDS,
  type UpdateDescriptor,
  type UpdateKind,
} from '@waved/swu-ota';
import { type Logger, scopedLogger } from '../../core/log/logger.js';
import { matchLanguage } from '../../i18n/negotiate.js';
import type { DeviceTelemetry } from './telemetry.js';

/** Battery level in percent, or `'mains'` on external power. The device's fuel-gauge reader plugs in here. */
export interface BatteryPort {
  read(): Promise<number | 'mains'>;
}

/** What the terminal and the screen show while an update runs. */
export type OtaEvent =
  | { type: 'checking' }
  | { type: 'up-to-date'; kind: UpdateKind }
  | { type: 'check-failed'; kind: UpdateKind; message: string }
  | { type: 'available'; kind: UpdateKind; version: string; forced: boolean; notes: string }
  | {
      type: 'progress';
      kind: UpdateKind;
      received: number;
      total: number | undefined;
      percent: number | undefined;
      /** The curl-style bar line, as in the progress file. */
      bar: string;
    }
  | { type: 'downloaded'; kind: UpdateKind; size: number; resumedBytes: number }
  | { type: 'consent-required'; kind: UpdateKind; version: string; notes: string }
  | { type: 'step'; kind: UpdateKind; step: InstallStep }
  | { type: 'installed'; kind: UpdateKind; version: string }
  | {
      type: 'failed';
      kind: UpdateKind;
      stage: 'download' | 'install';
      code: string;
      message: string;
      /** Set when the package itself was refused (MD5, hash, signature, policy, package): it is remembered and not downloaded again until the descriptor changes. */
      refusal?: OtaRefusal;
    }
  /** This package was refused before under the same descriptor: not downloaded again (the screen was told the first time). */
  | { type: 'skipped'; kind: UpdateKind; version: string; refusal: OtaRefusal };

/** Installed versions per channel (kept in the appliance database). */
export interface VersionStore {
  get(kind: UpdateKind): string;
  set(kind: UpdateKind, version: string): void;
}

export interface OtaServiceOptions {
  client: Pick<CloudClient, 'getUpdateDescriptor'>;
  telemetry: Pick<DeviceTelemetry, 'track'>;
  versions: VersionStore;
  battery: BatteryPort;
  /** Asked for a non-forced update (the screen's consent dialog). */
  consent: (info: { kind: UpdateKind; version: string; notes: string }) => Promise<boolean>;
  /** Reboots once the package is installed. */
  reboot: () => Promise<void>;
  /**
   * Directory of the packages: `software.swu` and `model.swu`, each with its refusals
   * (`software.refused.json`, `model.refused.json`) and the record of a complete package
   * (`software.swu.json`), so a refused package is not downloaded again and a declined one
   * installs later from disk.
   */
  packageDir: string;
  /** Directory of `curl_progress_<name>` (default /tmp). */
  progressDir?: string;
  /** `done` is written here after a download (default /tmp/swu.done). */
  doneFile?: string;
  /** Runs swupdate (real runner on a device; a fake installer in the simulator). */
  run?: CommandRunner | undefined;
  /** Trusted certificate for the CMS signature, passed to swupdate as `-k`. */
  certificate?: string | undefined;
  /** `board:revision` for swupdate `-H`. */
  hardware?: string | undefined;
  /** Minimum battery percent to install (default 30). */
  minBattery?: number | undefined;
  /** Install versions that are not newer than the installed one (profile `ota.allow_downgrade`). */
  allowDowngrade?: boolean;
  /**
   * Every image of an unsigned package needs its sha256 in sw-description (profile
   * `ota.require_image_sha256`, default true). False installs a vendor package with the right MD5
   * and no hashes; with a certificate the hashes stay required (a signature covers the images
   * only through them).
   */
  requireImageSha256?: boolean;
  /**
   * Keeps the trust policy of the last check (certificate, image hashes, downgrades, hardware); when
   * it changes, the packages refused under the old one are forgotten and may be offered again.
   */
  policyMemory?: { get(): string | undefined; set(policy: string): void };
  /** Durable checkpoint interval of the partial download (default 256 KiB). */
  checkpointBytes?: number | undefined;
  /** Extra CA for the package server; `insecure` mirrors the vendor's curl -k (logged). */
  ca?: string | Buffer | undefined;
  insecure?: boolean;
  /** Language of the release notes to show (default en). */
  language?: () => string;
  onEvent?: ((event: OtaEvent) => void) | undefined;
  logger: Logger;
  now?: () => number;
}

export interface OtaService {
  /** Checks firmware then model and updates what is offered; returns what was installed. */
  checkNow(): Promise<UpdateKind[]>;
  /** Stops a running check or download (shutdown); the partial download is kept for the next run. */
  abort(): void;
  /** Resolves when no check is running. */
  idle(): Promise<void>;
  readonly busy: boolean;
}

/**
 * The release notes for the device language `lang`: the cloud's text in that language, else in the
 * nearest one it has (`pt` takes `pt-BR`, `zh-CN` takes `zh` or `zh-Hans`, as the portal matches
 * languages), else English, else any; '' when there are none.
 */
export function releaseNotes(descriptions: UpdateDescriptor['descriptions'], lang: string): string {
  const tags = Object.keys(descriptions);
  const best = matchLanguage(lang, tags) ?? matchLanguage('en', tags) ?? tags[0];
  return best === undefined ? '' : (descriptions[best]?.html_note ?? '');
}

/**
 * Whether `candidate` is newer than `installed`: their numeric parts compared in order (`1.10.0` >
 * `1.9.3`; a prefix such as `PSP_` or `v` is ignored). Anything without a number is not newer.
 */
export function isNewerVersion(candidate: string, installed: string): boolean {
  const parts = (v: string) => (v.match(/\d+/g) ?? []).map((d) => BigInt(d));
  const a = parts(candidate);
  const b = parts(installed);
  if (a.length === 0) return false;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0n;
    const y = b[i] ?? 0n;
    if (x !== y) return x > y;
  }
  return false;
}

function packageName(kind: UpdateKind): string {
  return kind === 'psp_firmware' ? 'software' : 'model';
}

function codeOf(error: unknown): string {
  if (isOtaError(error)) return error.code;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'ERROR';
}

/**
 * When Wi-Fi is connected, fetch the firmware descriptor then the model descriptor;
 * download with resume (progress file, done file), compare the MD5, ask consent unless `forced`,
 * check the battery, install with swupdate, reboot. Telemetry: `check_update`, `firmware_download`,
 * `firmware_install` (with `result` ok / cached / failed / refused / declined / battery_low / aborted
 * and the error code in `error`).
 */
export function createOtaService(options: OtaServiceOptions): OtaService {
  const { client, telemetry, versions, logger } = options;
  const now = options.now ?? Date.now;
  const emit = (e: OtaEvent) => {
    try {
      options.onEvent?.(e);
    } catch (error) {
      logger.warn?.(`ota: event listener failed: ${(error as Error).message}`);
    }
  };
  const notesOf = (d: UpdateDescriptor) => releaseNotes(d.descriptions, options.language?.() ?? 'en');
  let busy = false;
  let controller: AbortController | null = null;
  let running: Promise<unknown> | null = null;

  const otaLogger = scopedLogger(logger, 'ota');

  // The package path with a memory (@waved/swu-ota): refusals by MD5 and descriptor, the record
  // of a complete package, and a partial download that belongs to the MD5 and not to the URL.
  function storeFor(kind: UpdateKind, onProgress?: (p: DownloadProgress) => void) {
    const name = packageName(kind);
    return createPackageStore({
      dest: path.join(options.packageDir, `${name}.swu`),
      refusalsFile: path.join(options.packageDir, `${name}.refused.json`),
      name,
      progressFile: progressFilePath(name, options.progressDir ?? '/tmp'),
      doneFile: options.doneFile ?? '/tmp/swu.done',
      checkpointBytes: options.checkpointBytes ?? 256 * 1024,
      ca: options.ca || undefined,
      ...(options.insecure ? { insecure: true } : {}),
      progressIntervalMs: 100,
      onProgress,
      logger: otaLogger,
    });
  }

  /**
   * A package refused under one trust policy may pass under another (a certificate installed, the
   * hash requirement or the downgrade rule changed): the refusals are forgotten when it changes.
   */
  async function followPolicy(): Promise<void> {
    if (!options.policyMemory) return;
    const policy = JSON.stringify({
      certificate: options.certificate ?? null,
      requireImageSha256: options.requireImageSha256 !== false,
      allowDowngrade: options.allowDowngrade === true,
      hardware: options.hardware ?? null,
    });
    const was = options.policyMemory.get();
    if (was === policy) return;
    if (was !== undefined) {
      for (const kind of UPDATE_KINDS) await storeFor(kind).forget();
      logger.info?.(
        'ota: the update policy changed; packages refused under the old one may be offered again',
      );
    }
    options.policyMemory.set(policy);
  }

  async function update(kind: UpdateKind, d: UpdateDescriptor, signal: AbortSignal): Promise<boolean> {
    const name = packageName(kind);
    let lastTenth = -1;
    const store = storeFor(kind, (p: DownloadProgress) => {
      const bar = formatProgressLine(p.received, p.total).trimEnd();
      emit({ type: 'progress', kind, received: p.received, total: p.total, percent: p.percent, bar });
      const tenth = p.percent === undefined ? -1 : Math.floor(p.percent / 10);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        logger.info?.(`ota: ${name} ${bar}`);
      }
    });
    const before = await store.refusal(d).catch(() => undefined);
    if (before) {
      // refused before under this very descriptor: no download, no screen, no new telemetry
      logger.info?.(
        `ota: ${kind} ${d.version} was refused before (${before.code}); not downloaded again until the cloud offers another package`,
      );
      emit({
        type: 'skipped',
        kind,
        version: d.version,
        refusal: { code: before.code, category: before.category },
      });
      return false;
    }
    emit({ type: 'available', kind, version: d.version, forced: d.forced, notes: notesOf(d) });
    logger.info?.(`ota: ${kind} ${d.version} available${d.forced ? ' (forced)' : ''}`);
    const started = now();
    let file: string;
    try {
      const r = await store.fetch(d, { signal });
      file = r.path;
      emit({ type: 'downloaded', kind, size: r.size, resumedBytes: r.resumedBytes });
      if (r.cached) logger.info?.(`ota: ${kind} ${d.version} is already on disk; not downloaded again`);
      await telemetry.track('firmware_download', {
        package: kind,
        version: d.version,
        // cached: the complete package kept from an earlier check (declined, low battery)
        result: r.cached ? 'cached' : 'ok',
        duration_ms: now() - started,
      });
    } catch (error) {
      const code = signal.aborted ? 'OTA_ABORTED' : codeOf(error);
      // the store has recorded a refusal of the downloaded bytes (MD5, size) already
      const refusal = signal.aborted ? undefined : refusalOf(error);
      emit({
        type: 'failed',
        kind,
        stage: 'download',
        code,
        message: (error as Error).message,
        // an event handed to listeners carries `refusal` only when there is one
        ...(refusal ? { refusal } : {}),
      });
      logger.warn?.(
        `ota: ${kind} download ${signal.aborted ? 'stopped' : refusal ? 'refused' : 'failed'}: ${(error as Error).message}`,
      );
      await telemetry.track('firmware_download', {
        package: kind,
        version: d.version,
        result: signal.aborted ? 'aborted' : refusal ? 'refused' : 'failed',
        duration_ms: now() - started,
        error: code,
      });
      return false;
    }

    const installStarted = now();
    const installer = createInstaller({
      readBattery: () => options.battery.read(),
      minBattery: options.minBattery ?? 30,
      consent: async () => {
        emit({ type: 'consent-required', kind, version: d.version, notes: notesOf(d) });
        return options.consent({ kind, version: d.version, notes: notesOf(d) });
      },
      reboot: async () => {
        await telemetry.track('firmware_install', {
          package: kind,
          version: d.version,
          result: 'ok',
          duration_ms: now() - installStarted,
        });
        // installed: the package has done its job and would only fill the storage
        await store.remove();
        await options.reboot();
      },
      run: options.run,
      // A device without ota.certificate runs no OTA service unless its profile says
      // ota.allow_unsigned = true (profile/features.ts); then, as in the simulator, installs go
      // ahead without a signature check and @waved/swu-ota logs a warning at every one.
      ...(options.certificate ? { certificate: options.certificate } : { allowUnsigned: true }),
      // ota.require_image_sha256 = false lets an unsigned vendor package without hashes through
      ...(options.requireImageSha256 === false ? { requireHashes: false } : {}),
      installedVersion: versions.get(kind),
      // the profile's ota.allow_downgrade reaches the installer's own anti-rollback check too
      ...(options.allowDowngrade ? { allowDowngrade: true } : {}),
      hardware: options.hardware || undefined,
      logger: otaLogger,
    });
    try {
      await installer.install(file, d, {
        signal,
        onStep: (step) => {
          emit({ type: 'step', kind, step });
          // persisted before the reboot, so the next check does not offer the same package again
          if (step === 'installed') versions.set(kind, d.version);
        },
      });
      emit({ type: 'installed', kind, version: d.version });
      logger.info?.(`ota: ${kind} ${d.version} installed`);
      return true;
    } catch (error) {
      const code = codeOf(error);
      // a refusal is remembered and the package removed; declined or battery-blocked stays on disk
      const refused = await store.refuse(d, error).catch((e: unknown) => {
        logger.warn?.(`ota: the refusal of ${d.version} was not recorded: ${(e as Error).message}`);
        return refusalOf(error);
      });
      const refusal = refused ? { code: refused.code, category: refused.category } : undefined;
      const result = refusal
        ? 'refused'
        : code === 'OTA_CONSENT_DECLINED'
          ? 'declined'
          : code === 'OTA_BATTERY_LOW'
            ? 'battery_low'
            : 'failed';
      emit({
        type: 'failed',
        kind,
        stage: 'install',
        code,
        message: (error as Error).message,
        ...(refusal ? { refusal } : {}),
      });
      logger.warn?.(`ota: ${kind} ${d.version} not installed: ${(error as Error).message}`);
      if (code !== 'OTA_REBOOT_FAILED') {
        await telemetry.track('firmware_install', {
          package: kind,
          version: d.version,
          result,
          duration_ms: now() - installStarted,
          error: code,
        });
      }
      return false;
    }
  }

  async function check(): Promise<UpdateKind[]> {
    busy = true;
    controller = new AbortController();
    const { signal } = controller;
    const installed: UpdateKind[] = [];
    try {
      emit({ type: 'checking' });
      await telemetry.track('check_update', {});
      await followPolicy().catch((error: unknown) =>
        logger.warn?.(
          `ota: the refusals of the old update policy were not forgotten: ${(error as Error).message}`,
        ),
      );
      for (const kind of UPDATE_KINDS) {
        if (signal.aborted) break;
        let descriptor: UpdateDescriptor | null;
        try {
          // spec Endpoints B, Versioning 2: X-Device-Version is the firmware version on both checks
          descriptor = await client.getUpdateDescriptor(kind, {
            firmwareVersion: versions.get('psp_firmware'),
          });
        } catch (error) {
          emit({ type: 'check-failed', kind, message: (error as Error).message });
          logger.warn?.(`ota: ${kind} check failed: ${(error as Error).message}`);
          continue;
        }
        if (!descriptor || descriptor.version === versions.get(kind)) {
          emit({ type: 'up-to-date', kind });
          continue;
        }
        if (!options.allowDowngrade && !isNewerVersion(descriptor.version, versions.get(kind))) {
          // anti-rollback: only newer versions install unless the profile allows a downgrade
          logger.warn?.(
            `ota: ${kind} ${descriptor.version} is not newer than the installed ${versions.get(kind)}; not installed`,
          );
          emit({ type: 'up-to-date', kind });
          continue;
        }
        if (await update(kind, descriptor, signal)) installed.push(kind);
      }
    } finally {
      busy = false;
      controller = null;
    }
    return installed;
  }

  return {
    get busy() {
      return busy;
    },
    checkNow() {
      if (busy) return Promise.resolve([]);
      const p = check();
      running = p;
      return p;
    },
    abort() {
      controller?.abort();
    },
    async idle() {
      while (running) {
        const p = running;
        await p.catch(() => {});
        if (running === p) running = null;
      }
    },
  };
}
