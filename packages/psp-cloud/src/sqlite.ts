// @waved/psp-cloud/sqlite — SQLite stores. Needs better-sqlite3, or Node's built-in node:sqlite
// passed as `open: openNodeSqlite` (or another driver), and drizzle-orm for
// `createDrizzleCredentialStore`; better-sqlite3 and drizzle-orm are optional peer dependencies.
import './node-guard.js';

export {
  openBetterSqlite3,
  openNodeSqlite,
  type SqliteDatabase,
  type SqliteOpener,
  type SqliteStatement,
  type SqliteSynchronous,
  type SqliteValue,
} from './sqlite-database.js';
export {
  type CredentialValuesTable,
  createDrizzleCredentialStore,
  createSqliteCredentialStore,
  createSqliteTelemetryStore,
  type DrizzleSqliteDatabase,
  type SqliteTelemetryStoreOptions,
} from './sqlite-stores.js';
