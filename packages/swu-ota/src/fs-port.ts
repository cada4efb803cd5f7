import nodeFs from 'node:fs/promises';

/** The parts of `node:fs/promises` this package uses; inject a wrapper to fake a full disk or a crash. */
export type FsPort = Pick<
  typeof nodeFs,
  'open' | 'rename' | 'rm' | 'readFile' | 'stat' | 'statfs' | 'mkdir' | 'truncate'
>;

export const realFs: FsPort = nodeFs;
