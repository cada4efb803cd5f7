import type { FileStore } from '../../core/ports/files.js';
import { CRASH_REASON, PID_FILE, POWER_ON_FLAG_FILE } from './constants.js';

export interface BootPaths {
  pidFile?: string;
  powerOnFlagFile?: string;
}

export interface BootReport {
  /** An earlier run left its PID file behind: it did not shut down cleanly. */
  crashed: { reason: typeof CRASH_REASON; previousPid: number | null } | null;
  /** True the first time the application starts in this boot (telemetry `device_power_on`). */
  firstStartThisBoot: boolean;
}

/**
 * Start-of-run bookkeeping. `/tmp` is a tmpfs on the device, so both files vanish at reboot:
 * a PID file present at start means the previous run of this boot crashed, and a missing power-on
 * flag means this is the first start since power-on. Writes this run's PID file and the flag.
 */
export async function beginRun(
  files: FileStore,
  paths: BootPaths = {},
  pid = process.pid,
): Promise<BootReport> {
  const pidFile = paths.pidFile ?? PID_FILE;
  const flagFile = paths.powerOnFlagFile ?? POWER_ON_FLAG_FILE;
  const previous = await files.read(pidFile);
  const crashed: BootReport['crashed'] =
    previous === null
      ? null
      : { reason: CRASH_REASON, previousPid: /^\d+$/.test(previous.trim()) ? Number(previous.trim()) : null };
  const flag = await files.read(flagFile);
  await files.write(pidFile, `${pid}\n`, 0o644);
  if (flag === null) await files.write(flagFile, `${Math.floor(Date.now() / 1000)}\n`, 0o644);
  return { crashed, firstStartThisBoot: flag === null };
}

/** Clean shutdown: removes the PID file so the next start does not report a crash. */
export async function endRun(files: FileStore, paths: BootPaths = {}): Promise<void> {
  await files.remove(paths.pidFile ?? PID_FILE);
}
