// Device credentials behind a port: key-store slots and database entries.
import { DATABASE_ENTRY, type DatabaseEntry, KEY_STORE_SLOT, type KeyStoreSlot } from './constants.js';
import { CloudError } from './errors.js';

/** Where the device keeps its credentials: a key store with numbered slots and a database of entries. */
export interface CredentialStore {
  readSlot(slot: KeyStoreSlot): Promise<string | undefined>;
  writeSlot(slot: KeyStoreSlot, value: string): Promise<void>;
  readEntry(entry: DatabaseEntry): Promise<string | undefined>;
  writeEntry(entry: DatabaseEntry, value: string): Promise<void>;
}

export interface DeviceCredentials {
  serial: string;
  /** factory secret sent at registration (entry 0xe7) */
  registrationSecret: string | undefined;
  /** from registration (entry 0x11a, mirrored in slot 0xe) */
  deviceSecret: string | undefined;
  /** from registration (entry 0x11b, mirrored in slot 0xf) */
  salt: string | undefined;
  /** from the last refresh (entry 0xe8) */
  token: string | undefined;
}

/** Reads every credential; the database entry wins over the key-store copy when both exist. */
export async function loadCredentials(store: CredentialStore): Promise<DeviceCredentials> {
  const serial = await store.readSlot(KEY_STORE_SLOT.serial);
  if (!serial) {
    throw new CloudError('CLOUD_CREDENTIAL_MISSING', 'the device serial (key-store slot 0) is not set');
  }
  return {
    serial,
    registrationSecret: await store.readEntry(DATABASE_ENTRY.registrationSecret),
    deviceSecret:
      (await store.readEntry(DATABASE_ENTRY.deviceSecret)) ??
      (await store.readSlot(KEY_STORE_SLOT.deviceSecret)),
    salt: (await store.readEntry(DATABASE_ENTRY.salt)) ?? (await store.readSlot(KEY_STORE_SLOT.salt)),
    token: await store.readEntry(DATABASE_ENTRY.token),
  };
}

/** Stores what registration returned in both places the device keeps it (entries 0x11a/0x11b, slots 0xe/0xf). */
export async function saveRegistration(
  store: CredentialStore,
  value: { deviceSecret: string; salt: string },
): Promise<void> {
  await store.writeEntry(DATABASE_ENTRY.deviceSecret, value.deviceSecret);
  await store.writeEntry(DATABASE_ENTRY.salt, value.salt);
  await store.writeSlot(KEY_STORE_SLOT.deviceSecret, value.deviceSecret);
  await store.writeSlot(KEY_STORE_SLOT.salt, value.salt);
}

export interface MemoryCredentialInit {
  serial?: string;
  registrationSecret?: string;
  slots?: Partial<Record<KeyStoreSlot, string>>;
  entries?: Partial<Record<DatabaseEntry, string>>;
}

/** Credentials kept in memory (tests, simulators). */
export function createMemoryCredentialStore(init: MemoryCredentialInit = {}): CredentialStore {
  const slots = new Map<number, string>(
    Object.entries(init.slots ?? {}).map(([k, v]) => [Number(k), v as string]),
  );
  const entries = new Map<number, string>(
    Object.entries(init.entries ?? {}).map(([k, v]) => [Number(k), v as string]),
  );
  if (init.serial !== undefined) slots.set(KEY_STORE_SLOT.serial, init.serial);
  if (init.registrationSecret !== undefined)
    entries.set(DATABASE_ENTRY.registrationSecret, init.registrationSecret);
  return {
    readSlot: async (slot) => slots.get(slot),
    writeSlot: async (slot, value) => {
      slots.set(slot, value);
    },
    readEntry: async (entry) => entries.get(entry),
    writeEntry: async (entry, value) => {
      entries.set(entry, value);
    },
  };
}
