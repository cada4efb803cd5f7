import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@waved/test-lab';
import { describe, expect, it } from 'vitest';
import {
  type CredentialStore,
  createMemoryCredentialStore,
  DATABASE_ENTRY,
  KEY_STORE_SLOT,
  loadCredentials,
  saveRegistration,
} from '../src/index.js';
import { createSqliteCredentialStore as createStore, openNodeSqlite } from '../src/sqlite.js';

it('names the spec slots and entries', () => {
  expect(KEY_STORE_SLOT).toEqual({ serial: 0, deviceSecret: 0xe, salt: 0xf });
  expect(DATABASE_ENTRY).toEqual({ registrationSecret: 0xe7, token: 0xe8, deviceSecret: 0x11a, salt: 0x11b });
});

async function exercise(store: CredentialStore) {
  await expect(loadCredentials(store)).rejects.toMatchObject({ code: 'CLOUD_CREDENTIAL_MISSING' });
  await store.writeSlot(KEY_STORE_SLOT.serial, 'PSP9');
  await store.writeEntry(DATABASE_ENTRY.registrationSecret, 'factory');
  expect(await loadCredentials(store)).toEqual({
    serial: 'PSP9',
    registrationSecret: 'factory',
    deviceSecret: undefined,
    salt: undefined,
    token: undefined,
  });
  await saveRegistration(store, { deviceSecret: 'ds', salt: 'sa' });
  expect(await store.readEntry(0x11a)).toBe('ds');
  expect(await store.readEntry(0x11b)).toBe('sa');
  expect(await store.readSlot(0xe)).toBe('ds');
  expect(await store.readSlot(0xf)).toBe('sa');
  await store.writeEntry(DATABASE_ENTRY.token, 't1');
  await store.writeEntry(DATABASE_ENTRY.token, 't2');
  expect((await loadCredentials(store)).token).toBe('t2');
}

describe('credential stores', () => {
  it('memory', async () => {
    await exercise(createMemoryCredentialStore());
  });

  it('falls back to the key-store copy when the database entry is missing', async () => {
    const store = createMemoryCredentialStore({ serial: 'S', slots: { 14: 'from-slot', 15: 'salt-slot' } });
    expect(await loadCredentials(store)).toMatchObject({ deviceSecret: 'from-slot', salt: 'salt-slot' });
  });

  it.each([
    ['better-sqlite3', undefined],
    ['node:sqlite', openNodeSqlite],
  ] as const)('SQLite (%s): persists across reopening, file mode 0600', async (_, open) => {
    const dir = tempDir('psp-cloud-cred-');
    const createSqliteCredentialStore = (o: { path: string }) =>
      createStore({ ...o, ...(open ? { open } : {}) });
    try {
      const path = dir.join('cred.db');
      const a = createSqliteCredentialStore({ path });
      await exercise(a);
      a.close();
      expect(fs.statSync(path).mode & 0o777).toBe(0o600);
      const b = createSqliteCredentialStore({ path });
      expect(await loadCredentials(b)).toEqual({
        serial: 'PSP9',
        registrationSecret: 'factory',
        deviceSecret: 'ds',
        salt: 'sa',
        token: 't2',
      });
      b.close();
    } finally {
      dir.remove();
    }
  });
});

it('survives statements being garbage-collected mid-run (better-sqlite3 13 under Node 24)', () => {
  const dir = tempDir('psp-cloud-gc-');
  try {
    const hooks = fileURLToPath(new URL('./fixtures/ts-resolve.mjs', import.meta.url));
    const script = fileURLToPath(new URL('./fixtures/sqlite-gc.ts', import.meta.url));
    const out = execFileSync(
      process.execPath,
      ['--no-warnings', '--expose-gc', '--import', hooks, script, dir.path],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(out).toContain('survived');
  } finally {
    dir.remove();
  }
});
