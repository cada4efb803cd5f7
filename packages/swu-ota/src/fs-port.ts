import nodeFs from 'node:fs/promises';
import { type AtomicFs, removeStaleTemps } from '@waved/internal';

/**
 * The parts of `node:fs/promises` this package uses; inject a wrapper to fake a full disk or a crash.
 * `readdir` (to find the temp files a power cut left) falls back to node's when a wrapper has none.
 */
export type FsPort = Pick<
  typeof nodeFs,
  'open' | 'rename' | 'rm' | 'readFile' | 'stat' | 'statfs' | 'mkdir' | 'truncate'
> &
  Partial<Pick<typeof nodeFs, 'readdir'>>;

export const realFs: FsPort = nodeFs;

/** Removes the temp files that a power cut during an atomic write of `file` left beside it. */
export function removeLeftTemps(file: string, fs: FsPort): Promise<number> {
  const port: AtomicFs = {
    open: fs.open,
    rename: fs.rename,
    rm: fs.rm,
    readdir: (fs.readdir ?? nodeFs.readdir) as AtomicFs['readdir'],
  };
  return removeStaleTemps(file, port);
}
