import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `data` to `file` so that a crash or power cut leaves the old file or the new one, never a
 * torn one: temp file in the same directory (mode 0600), fsync, rename, fsync of the directory.
 */
export async function writeFileAtomic(file: string, data: Uint8Array, mode = 0o600): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'wx', mode);
  try {
    await handle.chmod(mode); // the umask cannot widen it, but be exact
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.rm(tmp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  const d = await fs.open(dir, 'r');
  try {
    await d.sync();
  } finally {
    await d.close();
  }
}
