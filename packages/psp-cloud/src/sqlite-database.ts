// The small synchronous SQLite port the stores are written against, and its two drivers:
// better-sqlite3 (the default, an optional peer loaded on first use) and Node's built-in node:sqlite.
import { createRequire } from 'node:module';
import { ensurePrivateFileSync } from '@waved/internal/private-file';
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

/** The files SQLite keeps beside a database. */
const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'] as const;

let BetterSqlite3: (new (path: string) => SqliteDatabase) | undefined;

/**
 * The default opener: better-sqlite3, loaded when the first store opens. Its addon loads with the
 * first database, so an in-memory one is opened once first: a package installed without a build
 * for this CPU (32-bit ARM) fails here with CLOUD_SQLITE_DRIVER, not as a file that cannot be opened.
 */
export const openBetterSqlite3: SqliteOpener = (path) => {
  if (!BetterSqlite3) {
    try {
      const Database = require('better-sqlite3') as new (path: string) => SqliteDatabase;
      new Database(':memory:').close();
      BetterSqlite3 = Database;
    } catch (error) {
      throw new CloudError(
        'CLOUD_SQLITE_DRIVER',
        `better-sqlite3 is not installed or has no build for this platform (${process.platform}-${process.arch}): \`npm install better-sqlite3\`, or pass \`open: openNodeSqlite\` (Node ≥ 22.13) or another SQLite driver`,
        { cause: error },
      );
    }
  }
  return new BetterSqlite3(path);
};

type NodeSqlite = typeof import('node:sqlite');

/**
 * Node's built-in SQLite (`node:sqlite`, `DatabaseSync`): no native addon to install, so it runs
 * wherever Node does, 32-bit ARM included. Unflagged from Node 22.13 (22.5–22.12 need
 * `--experimental-sqlite`). Pass it as `open`.
 */
export const openNodeSqlite: SqliteOpener = (path) => {
  // looked up at run time (not imported): importing this module costs nothing on a Node without it,
  // and the specifier keeps its `node:` prefix through any bundler
  let sqlite: NodeSqlite | undefined;
  try {
    sqlite = process.getBuiltinModule('node:sqlite') as NodeSqlite | undefined;
  } catch {
    sqlite = undefined;
  }
  if (!sqlite?.DatabaseSync) {
    throw new CloudError(
      'CLOUD_SQLITE_DRIVER',
      `node:sqlite is not available in Node ${process.version}: it needs Node ≥ 22.13 (22.5–22.12 with --experimental-sqlite), or pass another SQLite driver as \`open\``,
    );
  }
  return new sqlite.DatabaseSync(path);
};

/**
 * Creates the file 0600 (it holds device secrets and user activity) and makes its directory entry
 * durable, takes group and other access away from an existing file and its `-wal`, `-shm` and
 * `-journal` (SQLite gives those the database's mode), opens it and sets WAL. A file that cannot
 * be created or is not a SQLite database fails with CLOUD_SQLITE_OPEN; a missing driver fails with
 * CLOUD_SQLITE_DRIVER.
 */
export function openSqliteFile(
  path: string,
  open: SqliteOpener = openBetterSqlite3,
  synchronous: SqliteSynchronous = 'FULL',
): SqliteDatabase {
  let db: SqliteDatabase | undefined;
  try {
    if (path !== ':memory:') ensurePrivateFileSync(path, { companions: SQLITE_COMPANIONS });
    db = open(path);
    db.exec('PRAGMA journal_mode = WAL');
    // FULL (default): a committed write survives power loss, not only a killed process
    db.exec(`PRAGMA synchronous = ${synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
    db.exec('PRAGMA busy_timeout = 5000');
    return db;
  } catch (error) {
    try {
      db?.close();
    } catch {}
    if (error instanceof CloudError) throw error;
    throw new CloudError(
      'CLOUD_SQLITE_OPEN',
      `cannot open the SQLite database ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Prepares the statements of a store; a file whose tables cannot be made fails with CLOUD_SQLITE_OPEN. */
export function setUp<T>(db: SqliteDatabase, path: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    try {
      db.close();
    } catch {}
    throw new CloudError(
      'CLOUD_SQLITE_OPEN',
      `cannot open the SQLite database ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Closes `db` once: later calls do nothing (node:sqlite throws on a second close). */
export function closeOnce(db: SqliteDatabase): () => void {
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    db.close();
  };
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
