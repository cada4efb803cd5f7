import nodeFs from 'node:fs/promises';
import type { Logger } from '@waved/internal';
import type { UpdateDescriptor } from './descriptor.js';
import { OtaError } from './errors.js';
import { type CommandRunner, runCommand } from './runner.js';
import { type SwuReport, verifySwu } from './verify.js';

// Install steps: MD5 against file_md5, battery gate, install, reboot; `forced` skips consent.

export interface InstallerOptions {
  /** Battery level in percent (0..100), or `'mains'` when on external power. */
  readBattery: () => Promise<number | 'mains'>;
  /** Minimum battery level to start an install (default 30 %). */
  minBattery?: number;
  /** Asked before a non-forced install; resolve true to go ahead. */
  consent: (descriptor: UpdateDescriptor, report: SwuReport) => Promise<boolean>;
  /** Reboots the device once swupdate succeeded. */
  reboot: () => Promise<void>;
  /** Trusted certificate PEM for the CMS signature (checked by us and passed to swupdate as `-k`). */
  certificate?: string;
  /** `board:revision` for `swupdate -H`; its revision is also checked against hardware-compatibility. */
  hardware?: string;
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
  run?: CommandRunner;
  logger?: Logger;
  /** Remove a package that failed MD5 (default true: the package path must not keep it). */
  removeOnMismatch?: boolean;
}

export type InstallStep = 'verified' | 'consented' | 'battery-ok' | 'installed' | 'rebooting';

export interface InstallResult {
  report: SwuReport;
  /** swupdate's stdout (INFO lines). */
  output: string;
}

export interface Installer {
  /** Verifies, asks consent unless forced, checks the battery, installs, reboots. */
  install(
    packageFile: string,
    descriptor: UpdateDescriptor,
    options?: { onStep?: (step: InstallStep) => void; signal?: AbortSignal },
  ): Promise<InstallResult>;
}

function errorLines(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const errors = lines.filter((l) => /ERROR|failed|Image invalid/i.test(l));
  return (errors.length > 0 ? errors : lines).slice(-3).join(' | ').slice(0, 500);
}

export function createInstaller(options: InstallerOptions): Installer {
  const run = options.run ?? runCommand;
  const minBattery = options.minBattery ?? 30;
  const method = options.method ?? 'swupdate';
  if (options.hardware !== undefined && !/^[^:\s]+:[^:\s]+$/.test(options.hardware)) {
    throw new OtaError('OTA_OPTIONS', 'hardware must be board:revision');
  }
  return {
    async install(packageFile, descriptor, { onStep, signal } = {}) {
      let report: SwuReport;
      try {
        report = await verifySwu(packageFile, {
          md5: descriptor.file_md5,
          certificate: options.certificate,
          hardwareRevision: options.hardware?.split(':')[1],
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
          options.logger?.warn?.(`removed ${packageFile}: ${error.message}`);
        }
        throw error;
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
