import crypto from 'node:crypto';
import nodeFs from 'node:fs/promises';
import path from 'node:path';

/** The parts of `node:fs/promises` this package uses; inject a wrapper to fake a full disk or a crash. */
export type FsPort = Pick<
  typeof nodeFs,
  'open' | 'rename' | 'rm' | 'readFile' | 'stat' | 'statfs' | 'mkdir' | 'truncate'
>;

export const realFs: FsPort = nodeFs;

async function fsyncDir(fs: FsPort, dir: string): Promise<void> {
  const h = await fs.open(dir, 'r');
  try {
    await h.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename is still atomic there.
  } finally {
    await h.close();
  }
}

/**
 * Replaces `file` with `data`: written to a temp file in the same directory (mode 0600 unless
 * given), fsynced, renamed over `file`, then the directory fsynced. A crash leaves the old or the
 * new content, never a torn file. `durable: false` skips the fsyncs (for files in tmpfs).
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  { fs = realFs, mode = 0o600, durable = true }: { fs?: FsPort; mode?: number; durable?: boolean } = {},
): Promise<void> {
  const tmp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`,
  );
  const h = await fs.open(tmp, 'wx', mode);
  try {
    await h.writeFile(data);
    if (durable) await h.sync();
  } catch (error) {
    await h.close();
    await fs.rm(tmp, { force: true });
    throw error;
  }
  await h.close();
  try {
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  if (durable) await fsyncDir(fs, path.dirname(file));
}

export { fsyncDir };
