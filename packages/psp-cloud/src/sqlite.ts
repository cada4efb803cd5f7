// @waved/psp-cloud/sqlite — SQLite stores. Needs better-sqlite3 (or another driver passed as `open`),
// and drizzle-orm for `createDrizzleCredentialStore`; both are optional peer dependencies.
import './node-guard.js';

export {
  openBetterSqlite3,
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
