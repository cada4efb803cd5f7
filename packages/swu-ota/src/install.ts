import nodeFs from 'node:fs/promises';
import type { Logger } from '@waved/internal';
import type { UpdateDescriptor } from './descriptor.js';
import { OtaError } from './errors.js';
import { type CommandRunner, runCommand } from './runner.js';
import { type SwuReport, verifySwu } from './verify.js';
import { compareVersions } from './version.js';

// Install steps: MD5 against file_md5, battery gate, install, reboot; `forced` skips consent.
// Stricter than the vendor (docs/decisions.md): a signature is required unless `allowUnsigned`,
// and only newer versions install unless a downgrade is allowed.

export interface InstallerOptions {
  /** Battery level in percent (0..100), or `'mains'` when on external power. */
  readBattery: () => Promise<number | 'mains'>;
  /** Minimum battery level to start an install (default 30 %). */
  minBattery?: number;
  /** Asked before a non-forced install; resolve true to go ahead. */
  consent: (descriptor: UpdateDescriptor, report: SwuReport) => Promise<boolean>;
  /** Reboots the device once swupdate succeeded. */
  reboot: () => Promise<void>;
  /**
   * Trusted certificate PEM for the CMS signature (checked by us and passed to swupdate as `-k`).
   * Required unless `allowUnsigned` is true.
   */
  certificate?: string;
  /**
   * Install packages without a signature check when no `certificate` is configured. Off by
   * default; every install made so logs a warning. With a certificate this has no effect: the
   * signature is always checked then.
   */
  allowUnsigned?: boolean;
  /**
   * Every artefact needs a sha256 in sw-description (default true). False accepts a vendor
   * package with the right MD5 and no per-image hashes; it only applies to unsigned installs,
   * because a signature covers the images only through their hashes (swupdate agrees).
   */
  requireHashes?: boolean;
  /**
   * The version installed now, for anti-rollback: the descriptor's version (and the signed
   * package's own version, when it has one) must be newer. A function is asked at each install.
   * Can also be given per install. Required unless `allowDowngrade`.
   */
  installedVersion?: string | (() => string | undefined | Promise<string | undefined>) | undefined;
  /**
   * Install versions that are not newer than the installed one (older ones, or the same one
   * again). Default false; a descriptor with `allow_downgrade: true` allows it for that package.
   */
  allowDowngrade?: boolean;
  /** `board:revision` for `swupdate -H`; its revision is also checked against hardware-compatibility. */
  hardware?: string | undefined;
  /**
   * `swupdate` runs `swupdate -i <file>`; `client` hands the file to a running swupdate daemon
   * over its IPC socket with `swupdate-client` (which honours `TMPDIR` like the daemon).
   */
  method?: 'swupdate' | 'client';
  /** Extra arguments for the swupdate/swupdate-client command line (e.g. `-e stable,main`). */
  extraArgs?: readonly string[];
  /** Binary path (default `swupdate` or `swupdate-client` on PATH). */
  command?: string;
  /** Installs may be slow: default 30 minutes. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  run?: CommandRunner | undefined;
  logger?: Logger;
  /** Remove a package that failed MD5 (default true: the package path must not keep it). */
  removeOnMismatch?: boolean;
}

export type InstallStep = 'verified' | 'consented' | 'battery-ok' | 'installed' | 'rebooting';

export interface InstallOptions {
  onStep?: (step: InstallStep) => void;
  signal?: AbortSignal;
  /** Overrides the installer's `installedVersion` (one installer for both channels). */
  installedVersion?: string;
}

export interface InstallResult {
  report: SwuReport;
  /** swupdate's stdout (INFO lines). */
  output: string;
}

export interface Installer {
  /**
   * Checks the version policy, verifies the package, asks consent unless forced, checks the
   * battery, installs, reboots. A refused package rejects with an `OtaError` whose `refusalOf()`
   * gives the reason; a declined or battery-blocked one stays on disk for a later install.
   */
  install(
    packageFile: string,
    descriptor: UpdateDescriptor,
    options?: InstallOptions,
  ): Promise<InstallResult>;
}

function errorLines(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const errors = lines.filter((l) => /ERROR|failed|Image invalid/i.test(l));
  return (errors.length > 0 ? errors : lines).slice(-3).join(' | ').slice(0, 500);
}

/**
 * Anti-rollback: `version` must be newer than `installed` (see compareVersions), unless allowed.
 * `what` names where the version comes from, for the message.
 */
function checkVersion(version: string, installed: string, what: string): void {
  const order = compareVersions(version, installed);
  if (order === 0) {
    throw new OtaError(
      'OTA_VERSION_SAME',
      `${what} ${version} is the installed version: not installed again (a replay) unless a downgrade is allowed`,
    );
  }
  if (order < 0) {
    throw new OtaError(
      'OTA_VERSION_DOWNGRADE',
      `${what} ${version} is older than the installed ${installed}: not installed unless a downgrade is allowed`,
    );
  }
}

export function createInstaller(options: InstallerOptions): Installer {
  const run = options.run ?? runCommand;
  const minBattery = options.minBattery ?? 30;
  const method = options.method ?? 'swupdate';
  const log = options.logger ?? {};
  if (options.hardware !== undefined && !/^[^:\s]+:[^:\s]+$/.test(options.hardware)) {
    throw new OtaError('OTA_OPTIONS', 'hardware must be board:revision');
  }
  if (options.certificate === undefined && options.allowUnsigned !== true) {
    throw new OtaError(
      'OTA_OPTIONS',
      'an installer needs the signing certificate (certificate: PEM path), or allowUnsigned: true to install packages nobody signed',
    );
  }
  const unsigned = options.certificate === undefined;

  async function installed(override: string | undefined): Promise<string | undefined> {
    if (override !== undefined) return override;
    const v = options.installedVersion;
    return typeof v === 'function' ? await v() : v;
  }

  return {
    async install(packageFile, descriptor, { onStep, signal, installedVersion } = {}) {
      const downgradeAllowed = options.allowDowngrade === true || descriptor.allow_downgrade === true;
      const current = await installed(installedVersion);
      if (!downgradeAllowed) {
        if (current === undefined) {
          throw new OtaError(
            'OTA_OPTIONS',
            'the installed version is unknown: give installedVersion (or allowDowngrade: true) so older packages can be refused',
          );
        }
        checkVersion(descriptor.version, current, 'the update');
      }
      if (unsigned) {
        log.warn?.(
          `installing ${descriptor.version} without a signature check (allowUnsigned): anyone who can serve the package can install code`,
          { version: descriptor.version, file: packageFile },
        );
      }
      let report: SwuReport;
      try {
        report = await verifySwu(packageFile, {
          md5: descriptor.file_md5,
          certificate: options.certificate,
          hardwareRevision: options.hardware?.split(':')[1],
          requireHashes: options.requireHashes,
          run,
          signal,
        });
      } catch (error) {
        if (
          error instanceof OtaError &&
          error.code === 'OTA_MD5_MISMATCH' &&
          options.removeOnMismatch !== false
        ) {
          await nodeFs.rm(packageFile, { force: true });
          log.warn?.(`removed ${packageFile}: ${error.message}`, { file: packageFile });
        }
        throw error;
      }
      // The signed package's own version cannot be relabelled by whoever serves the descriptor.
      if (!downgradeAllowed && report.signatureVerified && report.version !== undefined) {
        checkVersion(report.version, current!, 'the signed package version');
      }
      onStep?.('verified');
      if (!descriptor.forced) {
        const ok = await options.consent(descriptor, report);
        if (!ok)
          throw new OtaError('OTA_CONSENT_DECLINED', `the user declined the update to ${descriptor.version}`);
        onStep?.('consented');
      }
      const level = await options.readBattery();
      if (level !== 'mains' && !(typeof level === 'number' && level >= minBattery)) {
        throw new OtaError(
          'OTA_BATTERY_LOW',
          `battery at ${level}% is below the ${minBattery}% needed to install; charge the device and retry`,
        );
      }
      onStep?.('battery-ok');
      const args: string[] = [];
      if (method === 'swupdate') {
        if (options.certificate !== undefined) args.push('-k', options.certificate);
        if (options.hardware !== undefined) args.push('-H', options.hardware);
        args.push(...(options.extraArgs ?? []), '-i', packageFile);
      } else {
        args.push(...(options.extraArgs ?? []), packageFile);
      }
      const command = options.command ?? (method === 'swupdate' ? 'swupdate' : 'swupdate-client');
      const r = await run(command, args, { timeoutMs: options.timeoutMs ?? 30 * 60_000, env: options.env });
      if (r.code !== 0) {
        throw new OtaError(
          'OTA_INSTALL_FAILED',
          `${command} exited with ${r.code}: ${errorLines(r.stderr + r.stdout) || 'no error line'}`,
        );
      }
      onStep?.('installed');
      onStep?.('rebooting');
      try {
        await options.reboot();
      } catch (error) {
        throw new OtaError('OTA_REBOOT_FAILED', 'the update is installed but the reboot failed', {
          cause: error,
        });
      }
      return { report, output: r.stdout };
    },
  };
}
