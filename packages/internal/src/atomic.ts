import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import nodeFs from 'node:fs/promises';
import path from 'node:path';

/** The calls of `node:fs/promises` the writer makes; a wrapper can inject a full disk or a crash. */
export type AtomicFs = Pick<typeof nodeFs, 'open' | 'rename' | 'rm' | 'readdir'>;

export interface WriteFileAtomicOptions {
  /** Mode of the new file, exact whatever the umask (default 0600). */
  mode?: number;
  /** `false` skips both fsyncs: only for files on tmpfs, which a power cut empties anyway. */
  durable?: boolean;
  /** The writer calls only `open`, `rename` and `rm` (and `open` of the directory for its fsync). */
  fs?: Pick<AtomicFs, 'open' | 'rename' | 'rm'>;
}

const TEMP_SUFFIX = '.tmp';

/** The temp name of one write of `file`: hidden, in the same directory, unique, `.tmp` suffix. */
function tempName(file: string): string {
  return path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`,
  );
}

/** Whether `name` (a directory entry) is a temp file the writer made for `base`. */
export function isAtomicTemp(name: string, base: string): boolean {
  const prefix = `.${base}.`;
  if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) return false;
  return /^[0-9a-f]{12}$/.test(name.slice(prefix.length, -TEMP_SUFFIX.length));
}

/**
 * Fsyncs a directory, so that an entry created, renamed or removed in it survives a power cut.
 * Filesystems that cannot fsync a directory (EINVAL, ENOTSUP) are accepted: their renames are
 * ordered by the filesystem itself. Every other error is thrown.
 */
export async function syncDir(dir: string, fs: Pick<AtomicFs, 'open'> = nodeFs): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP') throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `file` with `data` so that a crash or a power cut at any moment leaves either the old
 * content or the new one, never a mix, and never a file wider than `mode`:
 *
 * 1. create a temp file in the same directory with `O_EXCL` and `mode`, then `fchmod(mode)` (the
 *    umask can only narrow a mode; the writer makes it exact);
 * 2. write all of `data`, then `fsync` the temp file;
 * 3. `rename` it over `file` (atomic within one filesystem);
 * 4. `fsync` the directory, so the rename itself is on disk when the promise resolves.
 *
 * When the promise resolves, the new content is durable. When it rejects, `file` is untouched and
 * the temp file is removed. A temp file left by a crash is found by `removeStaleTemps()`.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const { mode = 0o600, durable = true, fs = nodeFs } = options;
  const tmp = tempName(file);
  const handle = await fs.open(tmp, 'wx', mode);
  try {
    try {
      await handle.chmod(mode);
      await handle.writeFile(data);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true }).catch(() => {});
    throw error;
  }
  if (durable) await syncDir(path.dirname(file), fs);
}

/**
 * Removes the temp files a crash left beside `file` (see `isAtomicTemp`), and returns how many.
 * Call it once at start, before the first write of `file`.
 */
export async function removeStaleTemps(file: string, fs: AtomicFs = nodeFs): Promise<number> {
  const dir = path.dirname(file);
  const base = path.basename(file);
  let entries: string[];
  try {
    entries = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const stale = entries.filter((name) => isAtomicTemp(name, base));
  for (const name of stale) await fs.rm(path.join(dir, name), { force: true });
  if (stale.length > 0) await syncDir(dir, fs);
  return stale.length;
}

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
