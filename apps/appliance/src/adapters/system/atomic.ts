import { removeStaleTemps, syncDir, writeFileAtomic as write } from '@waved/internal';

/**
 * Writes a file so that a power cut leaves either the old or the new content, never a torn file:
 * temp file in the same directory (exact mode, 0600 by default) + fsync + rename + directory fsync.
 * The writer is the one every waved package shares (@waved/internal).
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  return write(file, data, { mode });
}

export { removeStaleTemps, syncDir };
