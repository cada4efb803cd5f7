import type { CredentialStore, TelemetryStore } from '@waved/psp-cloud';
import type { FileStore } from '../../core/ports/files.js';
import type { RecordingStore } from './recording/store.js';

/** Small facts the application keeps across runs (installed versions, the last seen settings). */
export interface DeviceMeta {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** Storage usage of the user partition, for `device_power_on`. */
export type StorageSizes = () => Promise<{ totalMb: number; freeMb: number }>;

/**
 * Everything the device application keeps: opened by the adapters (SQLite files and a credentials
 * file on a device), closed by `DeviceApp.stop()`.
 */
export interface DeviceStores {
  meta: DeviceMeta;
  /** Key-store slots and database entries. */
  credentials: CredentialStore;
  /** The durable telemetry queue. */
  telemetry: TelemetryStore;
  recordings: RecordingStore;
  /** PID and power-on flag files, downloaded packages. */
  files: FileStore;
  close(): Promise<void>;
}
