import fs from 'node:fs/promises';
import { writeFileAtomic } from '@waved/internal';
import type { FileStore } from '../../core/ports/files.js';

/** The real `FileStore`: node:fs, atomic writes (temp + fsync + rename + directory fsync). */
export function createFileStore(): FileStore {
  return {
    async read(path) {
      try {
        return await fs.readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    write: (path, data, mode = 0o600) => writeFileAtomic(path, data, { mode }),
    remove: (path) => fs.rm(path, { force: true }),
    async mkdir(path, mode = 0o700) {
      await fs.mkdir(path, { recursive: true, mode });
    },
  };
}
