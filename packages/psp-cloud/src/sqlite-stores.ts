// The durable telemetry store and the credential stores on SQLite, in plain SQL over the
// `SqliteDatabase` port, plus a credential store on an application's own drizzle database.
import type { CredentialStore } from './credentials.js';
import { CloudError } from './errors.js';
import {
  closeOnce,
  openSqliteFile,
  type SqliteDatabase,
  type SqliteOpener,
  type SqliteSynchronous,
  setUp,
  transaction,
} from './sqlite-database.js';
import type { TelemetryEvent } from './telemetry-events.js';
import type { QueuedEvent, TelemetryStore } from './telemetry-store.js';

const TELEMETRY_SCHEMA = `
CREATE TABLE IF NOT EXISTS telemetry_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid TEXT NOT NULL UNIQUE,
  payload TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS telemetry_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`;

const CREDENTIAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS credential_values (
  kind TEXT NOT NULL, id INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, id)
);`;

export interface SqliteTelemetryStoreOptions {
  /** The database file (created 0600), or `:memory:`. */
  path: string;
  /** Default FULL. */
  synchronous?: SqliteSynchronous;
  /** Opens the database: default better-sqlite3; `openNodeSqlite` for Node's built-in SQLite. */
  open?: SqliteOpener;
}

/** The telemetry queue's store in a SQLite file (created 0600, WAL, synchronous=FULL by default). */
export function createSqliteTelemetryStore(options: SqliteTelemetryStoreOptions): TelemetryStore {
  const db = openSqliteFile(options.path, options.open, options.synchronous);
  // prepared once and kept for the life of the store: the hot path builds no statement per call
  const s = setUp(db, options.path, () => {
    db.exec(TELEMETRY_SCHEMA);
    return {
      insert: db.prepare(
        'INSERT INTO telemetry_events (uuid, payload) VALUES (?, ?) ON CONFLICT (uuid) DO NOTHING',
      ),
      oldest: db.prepare('SELECT seq, payload FROM telemetry_events ORDER BY seq ASC LIMIT ?'),
      removeOne: db.prepare('DELETE FROM telemetry_events WHERE seq = ?'),
      total: db.prepare('SELECT count(*) AS n FROM telemetry_events'),
      dropN: db.prepare(
        'DELETE FROM telemetry_events WHERE seq IN (SELECT seq FROM telemetry_events ORDER BY seq ASC LIMIT ?)',
      ),
      getMeta: db.prepare('SELECT value FROM telemetry_meta WHERE key = ?'),
      setMeta: db.prepare(
        'INSERT INTO telemetry_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
    };
  });
  const close = closeOnce(db);
  return {
    async append(events: readonly TelemetryEvent[]) {
      if (events.length === 0) return;
      transaction(db, () => {
        for (const e of events) s.insert.run(e.uuid, JSON.stringify(e));
      });
    },
    async peek(limit: number): Promise<QueuedEvent[]> {
      const rows = s.oldest.all(limit) as Array<{ seq: number | bigint; payload: string }>;
      return rows.map((r) => ({ seq: Number(r.seq), event: JSON.parse(r.payload) as TelemetryEvent }));
    },
    async remove(seqs: readonly number[]) {
      if (seqs.length === 0) return;
      transaction(db, () => {
        for (const seq of seqs) s.removeOne.run(seq);
      });
    },
    async count() {
      return Number((s.total.get() as { n: number | bigint }).n);
    },
    async dropOldest(n: number) {
      if (n <= 0) return 0;
      return Number(s.dropN.run(n).changes);
    },
    async getMeta(key: string) {
      return (s.getMeta.get(key) as { value: string } | undefined)?.value;
    },
    async setMeta(key: string, value: string) {
      s.setMeta.run(key, value);
    },
    async close() {
      close();
    },
  };
}

function credentialStoreOn(db: SqliteDatabase): CredentialStore {
  const read = db.prepare('SELECT value FROM credential_values WHERE kind = ? AND id = ?');
  const write = db.prepare(
    'INSERT INTO credential_values (kind, id, value) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET value = excluded.value',
  );
  const get = (kind: string, id: number) => (read.get(kind, id) as { value: string } | undefined)?.value;
  return {
    readSlot: async (slot) => get('slot', slot),
    writeSlot: async (slot, value) => {
      write.run('slot', slot, value);
    },
    readEntry: async (entry) => get('entry', entry),
    writeEntry: async (entry, value) => {
      write.run('entry', entry, value);
    },
  };
}

/**
 * Credentials in a SQLite file (created 0600): key-store slots and database entries, one row each
 * in `credential_values`. Each write is its own committed transaction.
 */
export function createSqliteCredentialStore(options: {
  path: string;
  /** Opens the database: default better-sqlite3; `openNodeSqlite` for Node's built-in SQLite. */
  open?: SqliteOpener;
}): CredentialStore & { close(): void } {
  const db = openSqliteFile(options.path, options.open);
  const store = setUp(db, options.path, () => {
    db.exec(CREDENTIAL_SCHEMA);
    return credentialStoreOn(db);
  });
  return { ...store, close: closeOnce(db) };
}

/**
 * An open drizzle-orm SQLite database (`BetterSQLite3Database`, or another synchronous SQLite
 * driver of drizzle). Typed by the two methods used, so these declarations need none of drizzle's.
 */
export interface DrizzleSqliteDatabase {
  select(...args: never[]): unknown;
  insert(...args: never[]): unknown;
}

/**
 * A drizzle table with the columns of `credential_values`: `kind` (text, `'slot' | 'entry'`), `id`
 * (integer), `value` (text), primary key (kind, id).
 */
export interface CredentialValuesTable {
  readonly kind: object;
  readonly id: object;
  readonly value: object;
}

type Drizzle = typeof import('drizzle-orm');
type DrizzleSqliteCore = typeof import('drizzle-orm/sqlite-core');
// imported (not required) so that the application's own drizzle-orm instance is the one used
let drizzle: Promise<{ orm: Drizzle; core: DrizzleSqliteCore }> | undefined;
const loadDrizzle = () =>
  (drizzle ??= Promise.all([import('drizzle-orm'), import('drizzle-orm/sqlite-core')]).then(
    ([orm, core]) => ({ orm, core }),
    (error: unknown) => {
      drizzle = undefined;
      throw new CloudError('CLOUD_SQLITE_DRIVER', 'drizzle-orm is not installed: `npm install drizzle-orm`', {
        cause: error,
      });
    },
  ));

function credentialTableOf(core: DrizzleSqliteCore) {
  return core.sqliteTable(
    'credential_values',
    {
      kind: core.text('kind', { enum: ['slot', 'entry'] }).notNull(),
      id: core.integer('id').notNull(),
      value: core.text('value').notNull(),
    },
    (t) => [core.primaryKey({ columns: [t.kind, t.id] })],
  );
}
let defaultTable: ReturnType<typeof credentialTableOf> | undefined;

/**
 * Credentials in a `credential_values` table of an application's own drizzle database (the table
 * can be the application's, with the columns above). Each write is its own committed transaction.
 */
export function createDrizzleCredentialStore(
  database: DrizzleSqliteDatabase,
  credentialTable?: CredentialValuesTable,
): CredentialStore {
  // the structural types above stand for these drizzle types
  const db = database as unknown as import('drizzle-orm/better-sqlite3').BetterSQLite3Database;
  type Table = NonNullable<typeof defaultTable>;
  const ready = () =>
    loadDrizzle().then(({ orm, core }) => {
      defaultTable ??= credentialTableOf(core);
      return { orm, table: (credentialTable ?? defaultTable) as Table };
    });
  const read = async (kind: 'slot' | 'entry', id: number) => {
    const { orm, table } = await ready();
    return db
      .select({ value: table.value })
      .from(table)
      .where(orm.and(orm.eq(table.kind, kind), orm.eq(table.id, id)))
      .get()?.value;
  };
  const write = async (kind: 'slot' | 'entry', id: number, value: string) => {
    const { table } = await ready();
    db.insert(table)
      .values({ kind, id, value })
      .onConflictDoUpdate({ target: [table.kind, table.id], set: { value } })
      .run();
  };
  return {
    readSlot: (slot) => read('slot', slot),
    writeSlot: (slot, value) => write('slot', slot, value),
    readEntry: (entry) => read('entry', entry),
    writeEntry: (entry, value) => write('entry', entry, value),
  };
}
