import crypto from 'node:crypto';
import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tempDir } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createFileCredentialStore,
  createSqliteDeviceMeta,
  openTelemetryStore,
} from '../../src/adapters/system/device-stores.js';
import { MIGRATIONS } from '../../src/adapters/system/migrations.js';
import { openSqliteFile } from '../../src/adapters/system/sqlite.js';

/** sha256 of the migration files drizzle-kit wrote for the first release (its migrator recorded these). */
const SHIPPED = {
  appliance: 'b35d98c7ceb07fd1f42301a87fa634541abd89e36b60acdf92f05bc5fd00b549',
  recordings: '10bb824a95380e593946476dec52716d13ec48943f2db4b996b5158b4a5545e7',
};

describe('the appliance databases (node:sqlite)', () => {
  const dir = tempDir('device-db-');
  afterAll(() => dir.remove());

  it('a database an older release left 0644 (with its -wal and -shm) is 0600 again once opened', () => {
    const file = dir.join('deep', 'er', 'recordings.db');
    const first = openSqliteFile(file, 'recordings');
    first.db.exec('CREATE TABLE extra (x)');
    const mode = (f: string) => fs.statSync(f).mode & 0o777;
    const all = [file, `${file}-wal`, `${file}-shm`];
    expect(all.map(mode)).toEqual([0o600, 0o600, 0o600]);
    expect(mode(dir.join('deep'))).toBe(0o700);
    for (const f of all) fs.chmodSync(f, 0o644);
    const again = openSqliteFile(file, 'recordings');
    expect(all.map(mode)).toEqual([0o600, 0o600, 0o600]);
    again.close();
    first.close();
  });

  it('creates the file 0600, applies the migrations once, and keeps values across reopen', () => {
    const file = dir.join('appliance.db');
    const first = openSqliteFile(file, 'appliance');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    createSqliteDeviceMeta(first).set('version:psp_firmware', '1.2.3');
    first.close();
    const again = openSqliteFile(file, 'appliance');
    const tables = (
      again.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{
        name: string;
      }>
    ).map((r) => r.name);
    expect(tables).toEqual(['__drizzle_migrations', 'credential_values', 'device_meta']);
    expect({ ...again.db.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() }).toEqual({ n: 1 });
    expect(createSqliteDeviceMeta(again).get('version:psp_firmware')).toBe('1.2.3');
    again.close();
  });

  it('records each migration as drizzle-orm did, so files of the first release open unchanged', () => {
    for (const set of ['appliance', 'recordings'] as const) {
      const [m] = MIGRATIONS[set];
      expect(crypto.createHash('sha256').update(m!.sql).digest('hex')).toBe(SHIPPED[set]);
    }
    // a file migrated by the first release: its bookkeeping row is there, so nothing runs again
    const file = dir.join('old.db');
    const old = new DatabaseSync(file);
    old.exec(
      'CREATE TABLE "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)',
    );
    for (const statement of MIGRATIONS.appliance[0]!.sql.split('--> statement-breakpoint'))
      old.exec(statement);
    old
      .prepare('INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (?, ?)')
      .run(SHIPPED.appliance, 1763683200000);
    old.prepare("INSERT INTO device_meta (key, value) VALUES ('version:psp_firmware', '1.0.7')").run();
    old.close();
    const reopened = openSqliteFile(file, 'appliance');
    expect(createSqliteDeviceMeta(reopened).get('version:psp_firmware')).toBe('1.0.7');
    expect({ ...reopened.db.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() }).toEqual({
      n: 1,
    });
    reopened.close();
  });

  it('keeps the credentials in a 0600 file written atomically, and takes over those of an earlier release', async () => {
    const legacyFile = dir.join('legacy.db');
    const legacy = openSqliteFile(legacyFile, 'appliance');
    legacy.db.prepare("INSERT INTO credential_values (kind, id, value) VALUES ('slot', 0, 'PSP0001')").run();
    legacy.db
      .prepare("INSERT INTO credential_values (kind, id, value) VALUES ('entry', 282, 'secret-a')")
      .run();
    const path = dir.join('credentials.json');
    const store = await createFileCredentialStore({ path, legacy });
    expect(await store.readSlot(0)).toBe('PSP0001');
    expect(await store.readEntry(0x11a)).toBe('secret-a');
    expect(fs.statSync(path).mode & 0o777).toBe(0o600);
    await store.writeEntry(0x11a, 'secret-b');
    await store.writeEntry(0xe8, 'token');
    legacy.close();
    const reread = await createFileCredentialStore({ path });
    expect(await reread.readEntry(0x11a)).toBe('secret-b');
    expect(await reread.readEntry(0xe8)).toBe('token');
    expect(await reread.readEntry(0xe7)).toBeUndefined();
    expect(fs.readdirSync(dir.path).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('keeps telemetry in the store of @waved/psp-cloud on node:sqlite, oldest first, de-duplicated by UUID', async () => {
    const file = dir.join('analytics/events.db');
    const store = await openTelemetryStore(file);
    const event = (uuid: string) => ({ uuid, event: 'check_update', params: {} }) as never;
    await store.append([event('a'), event('b'), event('a')]);
    expect(await store.count()).toBe(2);
    const [first] = await store.peek(1);
    expect((first!.event as { uuid: string }).uuid).toBe('a');
    expect(await store.dropOldest(1)).toBe(1);
    await store.setMeta('k', 'v');
    expect(await store.getMeta('k')).toBe('v');
    await store.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir.join('analytics')).mode & 0o777).toBe(0o700);
    // WAL on the file, read by another connection
    const other = new DatabaseSync(file);
    expect({ ...other.prepare('PRAGMA journal_mode').get() }).toEqual({ journal_mode: 'wal' });
    other.close();
  });

  it('opens a telemetry queue written by the earlier appliance store, events and device id intact', async () => {
    // the tables the appliance created before it used @waved/psp-cloud's store
    const file = dir.join('analytics-old/events.db');
    fs.mkdirSync(dir.join('analytics-old'), { mode: 0o700 });
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE telemetry_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid TEXT NOT NULL UNIQUE,
  payload TEXT NOT NULL
);
CREATE TABLE telemetry_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
    const insert = old.prepare('INSERT INTO telemetry_events (uuid, payload) VALUES (?, ?)');
    for (const uuid of ['u1', 'u2'])
      insert.run(uuid, JSON.stringify({ uuid, event: 'check_update', params: {} }));
    old.prepare("INSERT INTO telemetry_meta (key, value) VALUES ('device_id', 'dev-7')").run();
    old.close();
    const store = await openTelemetryStore(file);
    expect((await store.peek(10)).map((q) => q.event.uuid)).toEqual(['u1', 'u2']);
    expect(await store.getMeta('device_id')).toBe('dev-7');
    await store.append([{ uuid: 'u1', event: 'check_update', params: {} } as never]);
    expect(await store.count()).toBe(2);
    await store.close();
  });

  it('a telemetry file that is not a database fails with DEVICE_DATABASE and is left as it was', async () => {
    const file = dir.join('analytics-bad/events.db');
    fs.mkdirSync(dir.join('analytics-bad'), { mode: 0o700 });
    const junk = Buffer.alloc(4096, 0x41);
    fs.writeFileSync(file, junk, { mode: 0o600 });
    const error = (await openTelemetryStore(file).then(
      () => new Error('opened'),
      (e: unknown) => e,
    )) as Error & { code?: string };
    expect(error).toMatchObject({ name: 'DeviceError', code: 'DEVICE_DATABASE' });
    expect(error.message).toContain(file);
    expect(error.cause).toMatchObject({ name: 'CloudError', code: 'CLOUD_SQLITE_OPEN' });
    expect(fs.readFileSync(file).equals(junk)).toBe(true);
  });
});
