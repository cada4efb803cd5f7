import { randomBytes } from 'node:crypto';
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
