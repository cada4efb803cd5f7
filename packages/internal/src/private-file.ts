import fsSync from 'node:fs';
import path from 'node:path';

// A module of its own (`@waved/internal/private-file`): a package's entry that never opens a
// private file does not load node:fs through it.

/** `syncDir` for synchronous callers (a SQLite file about to be opened). */
export function syncDirSync(dir: string): void {
  const fd = fsSync.openSync(dir, 'r');
  try {
    fsSync.fsyncSync(fd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP') throw error;
  } finally {
    fsSync.closeSync(fd);
  }
}

export interface PrivateFileOptions {
  /** Mode of a new file (default 0600). */
  mode?: number;
  /** Create the missing parent directories (mode 0700), each fsynced into its parent (default false). */
  parents?: boolean;
  /** Suffixes of files that go with it (SQLite: `-wal`, `-shm`, `-journal`): narrowed like the file. */
  companions?: readonly string[];
}

/**
 * Makes `file` exist, readable by its owner only, and durably so, before another program (SQLite)
 * opens it: a missing file is created with `mode`, fsynced, and its directory fsynced (so its entry
 * survives a power cut); an existing file, and each existing companion, loses every group and
 * other permission bit (fsynced too). SQLite creates its `-wal` and `-shm` with the database
 * file's mode, so a 0600 database keeps them 0600.
 */
export function ensurePrivateFileSync(file: string, options: PrivateFileOptions = {}): void {
  const { mode = 0o600, parents = false, companions = [] } = options;
  const dir = path.dirname(file);
  if (parents) {
    const first = fsSync.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (first !== undefined) {
      // every new directory's entry is made durable in its parent, the deepest last
      const created: string[] = [];
      for (let d = dir; ; d = path.dirname(d)) {
        created.unshift(d);
        if (d === first || path.dirname(d) === d) break;
      }
      for (const d of created) syncDirSync(path.dirname(d));
    }
  }
  let fd: number | undefined;
  try {
    fd = fsSync.openSync(
      file,
      fsSync.constants.O_WRONLY | fsSync.constants.O_CREAT | fsSync.constants.O_EXCL,
      mode,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (fd !== undefined) {
    try {
      fsSync.fchmodSync(fd, mode);
      fsSync.fsyncSync(fd);
    } finally {
      fsSync.closeSync(fd);
    }
    syncDirSync(dir);
  }
  for (const f of [file, ...companions.map((suffix) => file + suffix)]) narrowSync(f);
}

/** Removes the group and other bits of `file` (when it exists and has any), durably. */
function narrowSync(file: string): void {
  let fd: number;
  try {
    fd = fsSync.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const { mode } = fsSync.fstatSync(fd);
    if ((mode & 0o077) === 0) return;
    fsSync.fchmodSync(fd, mode & 0o700);
    fsSync.fsyncSync(fd);
  } finally {
    fsSync.closeSync(fd);
  }
}
