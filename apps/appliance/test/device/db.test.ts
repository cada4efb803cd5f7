import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { createDbCredentialStore, createDeviceMeta } from '../../src/domain/device/credentials.js';
import { migrationsFolder, openDeviceDatabase } from '../../src/domain/device/db.js';

describe('appliance and recordings databases', () => {
  const dir = tempDir('device-db-');
  afterAll(() => dir.remove());

  it('creates the file 0600, applies the migrations once, and keeps values across reopen', async () => {
    const file = dir.join('appliance.db');
    const first = openDeviceDatabase(file, 'appliance');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const store = createDbCredentialStore(first);
    await store.writeSlot(0, 'PSP0001');
    await store.writeEntry(0x11a, 'secret-a');
    await store.writeEntry(0x11a, 'secret-b');
    createDeviceMeta(first).set('version:psp_firmware', '1.2.3');
    first.close();

    const again = openDeviceDatabase(file, 'appliance');
    const tables = again.raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => (r as { name: string }).name);
    expect(tables).toEqual(['__drizzle_migrations', 'credential_values', 'device_meta']);
    expect(again.raw.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get()).toEqual({ n: 1 });
    const reread = createDbCredentialStore(again);
    expect(await reread.readSlot(0)).toBe('PSP0001');
    expect(await reread.readEntry(0x11a)).toBe('secret-b');
    expect(await reread.readEntry(0xe8)).toBeUndefined();
    expect(createDeviceMeta(again).get('version:psp_firmware')).toBe('1.2.3');
    again.close();
  });

  it('ships every migration listed in its journal', () => {
    for (const set of ['appliance', 'recordings'] as const) {
      const folder = migrationsFolder(set);
      const journal = JSON.parse(fs.readFileSync(`${folder}/meta/_journal.json`, 'utf8')) as {
        entries: Array<{ idx: number; tag: string }>;
      };
      expect(journal.entries.map((e) => e.idx)).toEqual(journal.entries.map((_, i) => i));
      for (const e of journal.entries) expect(fs.existsSync(`${folder}/${e.tag}.sql`)).toBe(true);
    }
  });

  it('survives prepared statements being garbage-collected (better-sqlite3 13 under Node 24)', () => {
    const hooks = fileURLToPath(import.meta.resolve('@waved/test-lab/ts-hooks'));
    const script = fileURLToPath(new URL('./fixtures/sqlite-gc.ts', import.meta.url));
    const out = execFileSync(process.execPath, ['--no-warnings', '--import', hooks, script, dir.path], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out).toContain('survived');
  });
});
