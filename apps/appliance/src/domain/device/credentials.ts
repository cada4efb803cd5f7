import type { CredentialStore } from '@waved/psp-cloud';
import { createDrizzleCredentialStore } from '@waved/psp-cloud/sqlite';
import { eq } from 'drizzle-orm';
import type { DeviceDatabase } from './db.js';
import { credentialValues, deviceMeta } from './schema.js';

/**
 * Spec B2 in the appliance database: key-store slots and database entries (0xe7, 0xe8, 0x11a,
 * 0x11b) as rows of `credential_values`. Each write is its own committed transaction.
 */
export function createDbCredentialStore(database: DeviceDatabase): CredentialStore {
  return createDrizzleCredentialStore(database.db, credentialValues);
}

/** Small key/value facts (installed versions, settings snapshot for change telemetry). */
export interface DeviceMeta {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

export function createDeviceMeta(database: DeviceDatabase): DeviceMeta {
  const { db } = database;
  return {
    get: (key) => db.select().from(deviceMeta).where(eq(deviceMeta.key, key)).get()?.value,
    set: (key, value) => {
      db.insert(deviceMeta)
        .values({ key, value })
        .onConflictDoUpdate({ target: deviceMeta.key, set: { value } })
        .run();
    },
  };
}
