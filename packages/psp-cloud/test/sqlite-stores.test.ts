// The SQLite stores on each driver they support: better-sqlite3 (the default) and Node's built-in
// node:sqlite (`openNodeSqlite`, the driver for platforms without a better-sqlite3 build: armv7).
// Every case runs on both.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@waved/test-lab';
import { afterEach, describe, expect, it } from 'vitest';
import { isCloudError, loadCredentials, type TelemetryEvent, type TelemetryStore } from '../src/index.js';
import {
  createSqliteCredentialStore,
  createSqliteTelemetryStore,
  openBetterSqlite3,
  openNodeSqlite,
  type SqliteDatabase,
  type SqliteOpener,
} from '../src/sqlite.js';

const DRIVERS = [
  ['better-sqlite3', openBetterSqlite3],
  ['node:sqlite', openNodeSqlite],
] as const;

const event = (i: number): TelemetryEvent => ({
  uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  event: 'ai_record_mark',
  params: {
    mic_serial_number: 'PSP0001',
    fw_ver: '1.0.0',
    evt_language: 'en',
    evt_timezone: 'UTC',
    evt_time: 1_700_000_000_000 + i,
    record_id: String(i),
  },
});

const dirs: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
function dir() {
  const d = tempDir('psp-cloud-sqlite-');
  dirs.push(d);
  return d;
}

describe.each(DRIVERS)('SQLite stores on %s', (driver, open) => {
  /** The driver, keeping the connection the store opened so a test can ask it what it was set to. */
  function recording(): { open: SqliteOpener; db(): SqliteDatabase } {
    let last: SqliteDatabase | undefined;
    return {
      open: (path) => {
        last = open(path);
        return last;
      },
      db: () => last!,
    };
  }

  it('is the driver it names', () => {
    const db = open(':memory:');
    const version = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    expect(version).toMatch(/^3\.\d+\.\d+$/);
    expect(db.constructor.name).toBe(driver === 'node:sqlite' ? 'DatabaseSync' : 'Database');
    db.close();
  });

  it('telemetry: appends in order, ignores a repeated uuid, peeks, removes, counts, drops the oldest', async () => {
    const store = createSqliteTelemetryStore({ path: dir().join('t.db'), open });
    await store.append([]);
    await store.append([event(1), event(2), event(3)]);
    await store.append([event(2), event(4)]);
    expect(await store.count()).toBe(4);
    const head = await store.peek(2);
    expect(head.map((q) => q.event)).toEqual([event(1), event(2)]);
    expect(head.every((q) => typeof q.seq === 'number')).toBe(true);
    await store.remove([]);
    await store.remove([head[0]!.seq]);
    expect((await store.peek(10)).map((q) => q.event.uuid)).toEqual([2, 3, 4].map((i) => event(i).uuid));
    expect(await store.dropOldest(0)).toBe(0);
    expect(await store.dropOldest(2)).toBe(2);
    expect(await store.dropOldest(5)).toBe(1);
    expect(await store.count()).toBe(0);
    expect(await store.getMeta('device_id')).toBeUndefined();
    await store.setMeta('device_id', 'd1');
    await store.setMeta('device_id', 'd2');
    expect(await store.getMeta('device_id')).toBe('d2');
    await store.close();
    // a second close is harmless (node:sqlite's own close throws on a closed database)
    await store.close();
  });

  it('telemetry: a 0600 file in WAL mode with synchronous=FULL, kept across reopening', async () => {
    const path = dir().join('q.db');
    const spy = recording();
    const first = createSqliteTelemetryStore({ path, open: spy.open });
    expect(fs.statSync(path).mode & 0o777).toBe(0o600);
    expect(spy.db().prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 2 });
    expect(spy.db().prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: 5000 });
    await first.append([event(1), event(2)]);
    await first.setMeta('device_id', 'dev-1');
    // WAL is a property of the file: another connection sees it, and the log exists beside it
    const other = open(path);
    expect(other.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(fs.existsSync(`${path}-wal`)).toBe(true);
    expect(other.prepare('SELECT count(*) AS n FROM telemetry_events').get()).toEqual({ n: 2 });
    other.close();
    await first.close();

    const second = createSqliteTelemetryStore({ path, open });
    expect((await second.peek(10)).map((q) => q.event)).toEqual([event(1), event(2)]);
    expect(await second.getMeta('device_id')).toBe('dev-1');
    await second.close();
    expect(fs.statSync(path).mode & 0o777).toBe(0o600);
  });

  it('telemetry: the database, its -wal and its -shm are 0600, also those an older release left 0644', async () => {
    const path = dir().join('wide.db');
    // an older release (or a copy) left the database and its WAL readable by everyone
    const old = open(path);
    old.exec('PRAGMA journal_mode = WAL');
    old.exec('CREATE TABLE t (x)');
    old.exec('INSERT INTO t VALUES (1)');
    const mode = (f: string) => fs.statSync(f).mode & 0o777;
    for (const f of [path, `${path}-wal`, `${path}-shm`]) fs.chmodSync(f, 0o644);
    const store = createSqliteTelemetryStore({ path, open });
    await store.append([event(1)]);
    expect([path, `${path}-wal`, `${path}-shm`].map(mode)).toEqual([0o600, 0o600, 0o600]);
    await store.close();
    old.close();

    // a new database: SQLite gives its -wal and -shm the database file's mode, whatever the umask
    const fresh = dir().join('fresh.db');
    const umask = process.umask(0);
    try {
      const s2 = createSqliteTelemetryStore({ path: fresh, open });
      await s2.append([event(2)]);
      expect([fresh, `${fresh}-wal`, `${fresh}-shm`].map(mode)).toEqual([0o600, 0o600, 0o600]);
      await s2.close();
    } finally {
      process.umask(umask);
    }
  });

  it('telemetry: synchronous=NORMAL when asked', async () => {
    const spy = recording();
    const store = createSqliteTelemetryStore({
      path: dir().join('n.db'),
      open: spy.open,
      synchronous: 'NORMAL',
    });
    expect(spy.db().prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 1 });
    await store.close();
  });

  it('telemetry: a batch is all or nothing', async () => {
    const path = dir().join('atomic.db');
    const store = createSqliteTelemetryStore({ path, open });
    await store.append([event(1)]);
    const broken = { ...event(2), params: { ...event(2).params, big: 1n } } as unknown as TelemetryEvent;
    // JSON.stringify throws on a bigint half-way through the batch: the rows before it roll back
    await expect(store.append([event(3), broken])).rejects.toThrow(/BigInt/);
    expect((await store.peek(10)).map((q) => q.event.uuid)).toEqual([event(1).uuid]);
    await store.append([event(4)]);
    expect(await store.count()).toBe(2);
    await store.close();
  });

  it('telemetry: a file that is not a database fails with CLOUD_SQLITE_OPEN and is left as it was', async () => {
    const path = dir().join('junk.db');
    const junk = Buffer.alloc(8192, 0x5a);
    fs.writeFileSync(path, junk, { mode: 0o600 });
    let error: unknown;
    try {
      createSqliteTelemetryStore({ path, open });
    } catch (e) {
      error = e;
    }
    expect(isCloudError(error, 'CLOUD_SQLITE_OPEN'), String(error)).toBe(true);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(/not a database/);
    expect(fs.readFileSync(path).equals(junk)).toBe(true);
    expect(fs.existsSync(`${path}-wal`)).toBe(false);
  });

  it('a directory that does not exist fails with CLOUD_SQLITE_OPEN and creates nothing', () => {
    const d = dir();
    const path = d.join('missing', 'q.db');
    expect(() => createSqliteTelemetryStore({ path, open })).toThrow(
      expect.objectContaining({ name: 'CloudError', code: 'CLOUD_SQLITE_OPEN' }),
    );
    expect(() => createSqliteCredentialStore({ path, open })).toThrow(
      expect.objectContaining({ code: 'CLOUD_SQLITE_OPEN' }),
    );
    expect(fs.readdirSync(d.path)).toEqual([]);
  });

  it('credentials: slots and entries kept across reopening, in a 0600 WAL file', async () => {
    const path = dir().join('cred.db');
    const spy = recording();
    const a = createSqliteCredentialStore({ path, open: spy.open });
    expect(spy.db().prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 2 });
    await a.writeSlot(0, 'PSP1');
    await a.writeEntry(0xe7, 'factory');
    await a.writeEntry(0xe8, 't1');
    await a.writeEntry(0xe8, 't2');
    a.close();
    a.close();
    expect(fs.statSync(path).mode & 0o777).toBe(0o600);
    const b = createSqliteCredentialStore({ path, open });
    expect(await loadCredentials(b)).toMatchObject({
      serial: 'PSP1',
      registrationSecret: 'factory',
      token: 't2',
    });
    b.close();
    const other = open(path);
    expect(other.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    other.close();
  });

  it('a store written by one driver opens with the other', async () => {
    const path = dir().join('shared.db');
    const store = createSqliteTelemetryStore({ path, open });
    await store.append([event(1), event(2)]);
    await store.setMeta('device_id', 'dev-9');
    await store.close();
    const [, otherOpen] = DRIVERS.find(([name]) => name !== driver)!;
    const again = createSqliteTelemetryStore({ path, open: otherOpen });
    expect((await again.peek(10)).map((q) => q.event)).toEqual([event(1), event(2)]);
    expect(await again.getMeta('device_id')).toBe('dev-9');
    await again.append([event(3)]);
    expect(await again.count()).toBe(3);
    await again.close();
  });

  it('keeps 1 000 events through a store used the way the queue uses it', async () => {
    const store: TelemetryStore = createSqliteTelemetryStore({ path: dir().join('many.db'), open });
    for (let i = 0; i < 20; i++) await store.append(Array.from({ length: 50 }, (_, j) => event(i * 50 + j)));
    let seen = 0;
    for (;;) {
      const batch = await store.peek(50);
      if (batch.length === 0) break;
      expect(batch[0]!.event.uuid).toBe(event(seen).uuid);
      seen += batch.length;
      await store.remove(batch.map((q) => q.seq));
    }
    expect(seen).toBe(1000);
    await store.close();
  });
});

it('openNodeSqlite without node:sqlite fails with CLOUD_SQLITE_DRIVER, naming the Node it needs', () => {
  const d = dir();
  const hooks = fileURLToPath(new URL('./fixtures/ts-resolve.mjs', import.meta.url));
  const script = fileURLToPath(new URL('./fixtures/sqlite-open.ts', import.meta.url));
  // Node 24 with its SQLite turned off stands for a Node built without it (22.0–22.4, or 22.5–22.12
  // without --experimental-sqlite)
  const out = execFileSync(
    process.execPath,
    ['--no-warnings', '--no-experimental-sqlite', '--import', hooks, script, d.join('q.db')],
    { encoding: 'utf8', timeout: 60_000 },
  );
  const result = JSON.parse(out.trim().split('\n').pop()!) as { code: string; message: string };
  expect(result.code).toBe('CLOUD_SQLITE_DRIVER');
  expect(result.message).toContain('Node ≥ 22.13');
  expect(result.message).toContain(process.version);
});
