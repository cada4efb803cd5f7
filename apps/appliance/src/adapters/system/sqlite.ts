import crypto from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { ensurePrivateFileSync } from '@waved/internal/private-file';
import { DeviceError } from '../../domain/device/errors.js';
import { MIGRATIONS, type MigrationSet } from './migrations.js';

export type { MigrationSet };

/** An open SQLite file (node:sqlite) with its migrations applied. */
export interface SqliteFile {
  readonly db: DatabaseSync;
  readonly path: string;
  close(): void;
}

/**
 * Applies the migrations of `set` that are newer than the last one recorded. The bookkeeping table
 * is the one drizzle-orm's migrator keeps (`__drizzle_migrations`: sha256 of the SQL text, creation
 * time), so files written by earlier releases open unchanged.
 */
export function migrate(db: DatabaseSync, set: MigrationSet): number {
  db.exec(
    'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)',
  );
  const last = db
    .prepare('SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1')
    .get() as { created_at: number } | undefined;
  const pending = MIGRATIONS[set].filter((m) => last === undefined || Number(last.created_at) < m.when);
  if (pending.length === 0) return 0;
  db.exec('BEGIN');
  try {
    for (const m of pending) {
      for (const statement of m.sql.split('--> statement-breakpoint')) db.exec(statement);
      const hash = crypto.createHash('sha256').update(m.sql).digest('hex');
      db.prepare('INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)').run(hash, m.when);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return pending.length;
}

/**
 * Opens (creating it 0600, its directory 0700, both entries fsynced) a SQLite file and applies the
 * migrations of `set`. An existing file and its `-wal`, `-shm`, `-journal` lose any group or other
 * access. WAL with `synchronous = FULL`: a committed transaction survives a killed process and a
 * power cut; a `-wal` a cut left is replayed by SQLite when the file opens.
 */
export function openSqliteFile(file: string, set: MigrationSet | null): SqliteFile {
  try {
    if (file !== ':memory:') {
      // created 0600 before SQLite opens it: it holds device facts and user activity
      ensurePrivateFileSync(file, { parents: true, companions: ['-wal', '-shm', '-journal'] });
    }
    const db = new DatabaseSync(file);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('PRAGMA foreign_keys = ON');
    if (set) migrate(db, set);
    let open = true;
    return {
      db,
      path: file,
      close() {
        if (open) {
          open = false;
          db.close();
        }
      },
    };
  } catch (error) {
    throw new DeviceError(
      'DEVICE_DATABASE',
      `cannot open the database ${file}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}
