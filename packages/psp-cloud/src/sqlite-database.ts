// The small synchronous SQLite port the stores are written against, and its default driver
// (better-sqlite3, an optional peer loaded on first use).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { CloudError } from './errors.js';

export type SqliteValue = string | number | bigint | null | Uint8Array;

export interface SqliteStatement {
  run(...params: SqliteValue[]): { changes: number | bigint };
  get(...params: SqliteValue[]): unknown;
  all(...params: SqliteValue[]): unknown[];
}

/**
 * What the SQLite stores need of a database: better-sqlite3's `Database` fits it as it is, and so
 * does node:sqlite's `DatabaseSync` (positional `?` parameters only, transactions by `exec`).
 */
export interface SqliteDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): SqliteStatement;
  close(): unknown;
}

/** Opens the database at `path` (a file the store has already created with mode 0600, or `:memory:`). */
export type SqliteOpener = (path: string) => SqliteDatabase;

/** SQLite `synchronous` level: FULL survives power loss; NORMAL (WAL) survives a killed process only. */
export type SqliteSynchronous = 'FULL' | 'NORMAL';

const require = createRequire(import.meta.url);

/** The default opener: better-sqlite3, loaded when the first store opens. */
export const openBetterSqlite3: SqliteOpener = (path) => {
  let Database: new (path: string) => SqliteDatabase;
  try {
    Database = require('better-sqlite3') as typeof Database;
  } catch (error) {
    throw new CloudError(
      'CLOUD_SQLITE_DRIVER',
      'better-sqlite3 is not installed or has no build for this platform: `npm install better-sqlite3`, or pass `open` with another SQLite driver',
      { cause: error },
    );
  }
  return new Database(path);
};

/** Creates the file 0600 (it holds device secrets and user activity), opens it and sets WAL. */
export function openSqliteFile(
  path: string,
  open: SqliteOpener = openBetterSqlite3,
  synchronous: SqliteSynchronous = 'FULL',
): SqliteDatabase {
  if (path !== ':memory:' && !fs.existsSync(path)) fs.closeSync(fs.openSync(path, 'a', 0o600));
  const db = open(path);
  try {
    db.exec('PRAGMA journal_mode = WAL');
    // FULL (default): a committed write survives power loss, not only a killed process
    db.exec(`PRAGMA synchronous = ${synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
    db.exec('PRAGMA busy_timeout = 5000');
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Runs `fn` in one write transaction. */
export function transaction<T>(db: SqliteDatabase, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = fn();
    db.exec('COMMIT');
    return out;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
