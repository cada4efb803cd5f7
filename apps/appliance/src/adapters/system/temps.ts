import fs from 'node:fs/promises';
import path from 'node:path';
import { removeStaleTemps, syncDir } from '@waved/internal';

/** The temp file wpa_supplicant 2.10's `save_config` writes, fdatasyncs and renames over `conf`. */
export const supplicantTemp = (conf: string): string => `${conf}.tmp`;

export interface LeftTemps {
  /** Files written by `writeFileAtomic`: the temps a power cut left beside them are removed. */
  atomic: readonly string[];
  /** wpa_supplicant's configuration: a `<conf>.tmp` left by a cut during `save_config` is removed. */
  supplicantConfig: string;
}

/**
 * Removes the temp files that a power cut during a write left, before anything writes again:
 * ours (`.<name>.<12 hex>.tmp`, see `removeStaleTemps`) and wpa_supplicant's `<conf>.tmp`, which
 * holds every PSK and, from a daemon not started under umask 077, is readable by others. The
 * removals are made durable (directory fsync). Call it before wpa_supplicant starts. Returns the
 * number of files removed; `onError` hears of a file that could not be removed (the start goes on).
 */
export async function removeLeftTemps(
  files: LeftTemps,
  onError: (file: string, error: Error) => void = () => {},
): Promise<number> {
  let removed = 0;
  for (const file of files.atomic) {
    try {
      removed += await removeStaleTemps(file);
    } catch (error) {
      onError(file, error as Error);
    }
  }
  const tmp = supplicantTemp(files.supplicantConfig);
  try {
    await fs.unlink(tmp);
    await syncDir(path.dirname(tmp));
    removed++;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onError(tmp, error as Error);
  }
  return removed;
}
