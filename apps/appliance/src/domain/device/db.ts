import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { DeviceError } from './errors.js';

export type MigrationSet = 'appliance' | 'recordings';

export interface DeviceDatabase {
  readonly raw: Database.Database;
  readonly db: BetterSQLite3Database;
  readonly path: string;
  close(): void;
}

/**
 * The `drizzle/<set>` folder: found by walking up from this module, so it works from `src/device`
 * (tests, sim) and from the bundled `dist/` alike.
 */
export function migrationsFolder(set: MigrationSet): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'drizzle', set);
    if (fs.existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new DeviceError('DEVICE_DATABASE', `migrations for ${set} not found above ${import.meta.url}`);
}

/**
 * Opens (creating it 0600) a SQLite file, applies the migrations of `set` and returns drizzle on it.
 * WAL with `synchronous = FULL`: a committed transaction survives a killed process and a power cut.
 */
export function openDeviceDatabase(file: string, set: MigrationSet): DeviceDatabase {
  try {
    if (file !== ':memory:') {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
    }
    const raw = new Database(file);
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = FULL');
    raw.pragma('busy_timeout = 5000');
    raw.pragma('foreign_keys = ON');
    const db = drizzle({ client: raw });
    migrate(db, { migrationsFolder: migrationsFolder(set) });
    return { raw, db, path: file, close: () => raw.close() };
  } catch (error) {
    if (error instanceof DeviceError) throw error;
    throw new DeviceError(
      'DEVICE_DATABASE',
      `cannot open the ${set} database ${file}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}
