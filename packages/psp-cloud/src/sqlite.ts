// SQLite adapters (better-sqlite3 through drizzle-orm): the durable telemetry store and a credential store.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { CredentialStore } from './credentials.js';
import type { TelemetryEvent } from './telemetry-events.js';
import type { QueuedEvent, TelemetryStore } from './telemetry-store.js';

export const telemetryEvents = sqliteTable('telemetry_events', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  uuid: text('uuid').notNull().unique(),
  payload: text('payload').notNull(),
});

export const telemetryMeta = sqliteTable('telemetry_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const credentialValues = sqliteTable(
  'credential_values',
  {
    kind: text('kind', { enum: ['slot', 'entry'] }).notNull(),
    id: integer('id').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.id] })],
);

const SCHEMA = `
CREATE TABLE IF NOT EXISTS telemetry_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid TEXT NOT NULL UNIQUE,
  payload TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS telemetry_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS credential_values (
  kind TEXT NOT NULL, id INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, id)
);`;

/** SQLite `synchronous` level: FULL survives power loss; NORMAL (WAL) survives a killed process only. */
export type SqliteSynchronous = 'FULL' | 'NORMAL';

function openDatabase(
  path: string,
  synchronous: SqliteSynchronous = 'FULL',
): { raw: Database.Database; db: BetterSQLite3Database } {
  if (path !== ':memory:' && !fs.existsSync(path)) {
    // create the file 0600 before SQLite opens it: it holds device secrets and user activity
    fs.closeSync(fs.openSync(path, 'a', 0o600));
  }
  const raw = new Database(path);
  raw.pragma('journal_mode = WAL');
  // FULL (default): a committed append survives power loss, not only a killed process
  raw.pragma(`synchronous = ${synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
  raw.pragma('busy_timeout = 5000');
  raw.exec(SCHEMA);
  return { raw, db: drizzle({ client: raw }) };
}

/** The telemetry queue's store in a SQLite file (created 0600, WAL, synchronous=FULL by default). */
export function createSqliteTelemetryStore(options: {
  path: string;
  synchronous?: SqliteSynchronous;
}): TelemetryStore {
  const { raw, db } = openDatabase(options.path, options.synchronous);
  // prepared once and kept for the life of the store: the hot path builds no statement per call
  const insert = db
    .insert(telemetryEvents)
    .values({ uuid: sql.placeholder('uuid'), payload: sql.placeholder('payload') })
    .onConflictDoNothing()
    .prepare();
  const oldest = db
    .select()
    .from(telemetryEvents)
    .orderBy(asc(telemetryEvents.seq))
    .limit(sql.placeholder('limit'))
    .prepare();
  const total = db.select({ n: count() }).from(telemetryEvents).prepare();
  return {
    async append(events: readonly TelemetryEvent[]) {
      if (events.length === 0) return;
      db.transaction(() => {
        for (const e of events) insert.run({ uuid: e.uuid, payload: JSON.stringify(e) });
      });
    },
    async peek(limit: number): Promise<QueuedEvent[]> {
      const rows = oldest.all({ limit });
      return rows.map((r) => ({ seq: r.seq, event: JSON.parse(r.payload) as TelemetryEvent }));
    },
    async remove(seqs: readonly number[]) {
      if (seqs.length === 0) return;
      db.delete(telemetryEvents)
        .where(inArray(telemetryEvents.seq, [...seqs]))
        .run();
    },
    async count() {
      return total.get()?.n ?? 0;
    },
    async dropOldest(n: number) {
      if (n <= 0) return 0;
      const r = db.run(
        sql`DELETE FROM telemetry_events WHERE seq IN (SELECT seq FROM telemetry_events ORDER BY seq ASC LIMIT ${n})`,
      );
      return r.changes;
    },
    async getMeta(key: string) {
      return db.select().from(telemetryMeta).where(eq(telemetryMeta.key, key)).get()?.value;
    },
    async setMeta(key: string, value: string) {
      db.insert(telemetryMeta)
        .values({ key, value })
        .onConflictDoUpdate({ target: telemetryMeta.key, set: { value } })
        .run();
    },
    async close() {
      raw.close();
    },
  };
}

/** The shape of the `credential_values` table a drizzle credential store reads and writes. */
export type CredentialValuesTable = typeof credentialValues;

/**
 * Credentials in a `credential_values` table of an open drizzle better-sqlite3 database (for an
 * application that keeps them in its own database): key-store slots and database entries, one row
 * each. Each write is its own committed transaction.
 */
export function createDrizzleCredentialStore(
  db: BetterSQLite3Database,
  table: CredentialValuesTable = credentialValues,
): CredentialStore {
  const read = (kind: 'slot' | 'entry', id: number) =>
    db
      .select({ value: table.value })
      .from(table)
      .where(and(eq(table.kind, kind), eq(table.id, id)))
      .get()?.value;
  const write = (kind: 'slot' | 'entry', id: number, value: string) => {
    db.insert(table)
      .values({ kind, id, value })
      .onConflictDoUpdate({ target: [table.kind, table.id], set: { value } })
      .run();
  };
  return {
    readSlot: async (slot) => read('slot', slot),
    writeSlot: async (slot, value) => write('slot', slot, value),
    readEntry: async (entry) => read('entry', entry),
    writeEntry: async (entry, value) => write('entry', entry, value),
  };
}

/** Credentials in a SQLite file (created 0600): key-store slots and database entries in one table. */
export function createSqliteCredentialStore(options: { path: string }): CredentialStore & { close(): void } {
  const { raw, db } = openDatabase(options.path);
  return { ...createDrizzleCredentialStore(db), close: () => raw.close() };
}
