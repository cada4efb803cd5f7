import fs from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { syncDir } from '@waved/internal';
import {
  type CredentialStore,
  type DatabaseEntry,
  fileUploadSource,
  type KeyStoreSlot,
  type TelemetryStore,
} from '@waved/psp-cloud';
import { createSqliteTelemetryStore, openNodeSqlite } from '@waved/psp-cloud/sqlite';
import { ANALYTICS_DB_DIR } from '../../domain/device/constants.js';
import { DeviceError } from '../../domain/device/errors.js';
import type { DeviceMeta, DeviceStores } from '../../domain/device/ports.js';
import type { RecordingStore } from '../../domain/device/recording/store.js';
import type {
  CloudState,
  NewRecording,
  NewRecordingFile,
  RecordingFileRow,
  RecordingRow,
} from '../../domain/device/schema.js';
import { createFileStore } from './files.js';
import { openSqliteFile, type SqliteFile } from './sqlite.js';
import { recoverWav, WavWriter } from './wav-file.js';

type Row = Record<string, unknown>;

/** `device_meta` of the appliance database. */
export function createSqliteDeviceMeta(file: SqliteFile): DeviceMeta {
  const get = file.db.prepare('SELECT value FROM device_meta WHERE key = ?');
  const set = file.db.prepare(
    'INSERT INTO device_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  return {
    get: (key) => (get.get(key) as { value: string } | undefined)?.value,
    set: (key, value) => {
      set.run(key, value);
    },
  };
}

/**
 * The telemetry queue's store (spec B4): `@waved/psp-cloud/sqlite`'s, on node:sqlite, so no SQLite
 * addon is needed on any architecture. The file is created 0600 (WAL, synchronous=FULL), its
 * directory 0700.
 */
export async function openTelemetryStore(file: string): Promise<TelemetryStore> {
  try {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    return createSqliteTelemetryStore({ path: file, open: openNodeSqlite });
  } catch (error) {
    throw new DeviceError(
      'DEVICE_DATABASE',
      `cannot open the database ${file}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

const RECORDING_COLUMNS: Record<keyof RecordingRow, string> = {
  id: 'id',
  state: 'state',
  transcriptionMode: 'transcription_mode',
  language: 'language',
  createdAt: 'created_at',
  startedAt: 'started_at',
  endedAt: 'ended_at',
  durationMs: 'duration_ms',
  bytes: 'bytes',
  recovered: 'recovered',
  cloudState: 'cloud_state',
  taskId: 'task_id',
  lastError: 'last_error',
};

const FILE_COLUMNS: Record<keyof RecordingFileRow, string> = {
  recordingId: 'recording_id',
  seq: 'seq',
  fileName: 'file_name',
  state: 'state',
  bytes: 'bytes',
  durationMs: 'duration_ms',
  uploadStatus: 'upload_status',
  uploadAttempts: 'upload_attempts',
  cloudFileId: 'cloud_file_id',
  lastError: 'last_error',
};

function toSql(value: unknown): string | number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value as string | number | null;
}

function recordingOf(r: Row): RecordingRow {
  return {
    id: r.id as string,
    state: r.state as RecordingRow['state'],
    transcriptionMode: r.transcription_mode as RecordingRow['transcriptionMode'],
    language: r.language as string,
    createdAt: r.created_at as number,
    startedAt: (r.started_at as number | null) ?? null,
    endedAt: (r.ended_at as number | null) ?? null,
    durationMs: r.duration_ms as number,
    bytes: r.bytes as number,
    recovered: r.recovered === 1,
    cloudState: r.cloud_state as CloudState,
    taskId: (r.task_id as string | null) ?? null,
    lastError: (r.last_error as string | null) ?? null,
  };
}

function fileOf(r: Row): RecordingFileRow {
  return {
    recordingId: r.recording_id as string,
    seq: r.seq as number,
    fileName: r.file_name as string,
    state: r.state as RecordingFileRow['state'],
    bytes: r.bytes as number,
    durationMs: r.duration_ms as number,
    uploadStatus: r.upload_status as RecordingFileRow['uploadStatus'],
    uploadAttempts: r.upload_attempts as number,
    cloudFileId: (r.cloud_file_id as string | null) ?? null,
    lastError: (r.last_error as string | null) ?? null,
  };
}

function insertInto<K extends string>(
  db: DatabaseSync,
  table: string,
  columns: Record<K, string>,
  row: Partial<Record<K, unknown>>,
): void {
  const keys = (Object.keys(row) as K[]).filter((k) => row[k] !== undefined && k in columns);
  db.prepare(
    `INSERT INTO ${table} (${keys.map((k) => columns[k]).join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`,
  ).run(...keys.map((k) => toSql(row[k])));
}

function setClause<K extends string>(
  columns: Record<K, string>,
  set: Partial<Record<K, unknown>>,
): { sql: string; values: Array<string | number | null> } {
  const keys = (Object.keys(set) as K[]).filter((k) => set[k] !== undefined && k in columns);
  return {
    sql: keys.map((k) => `${columns[k]} = ?`).join(', '),
    values: keys.map((k) => toSql(set[k])),
  };
}

/** The recordings of one project directory: `<dir>/recordings.db` and its WAV files. */
export function openSqliteRecordingStore(dir: string): RecordingStore {
  const file = openSqliteFile(path.join(dir, 'recordings.db'), 'recordings');
  const { db } = file;
  const filePath = (fileName: string) => {
    if (fileName !== path.basename(fileName)) throw new Error(`not a file name: ${fileName}`);
    return path.join(dir, fileName);
  };
  const byCreated = db.prepare('SELECT * FROM recordings ORDER BY created_at ASC');
  const one = db.prepare('SELECT * FROM recordings WHERE id = ?');
  const filesOf = db.prepare('SELECT * FROM recording_files WHERE recording_id = ? ORDER BY seq ASC');
  const writing = db.prepare("SELECT * FROM recording_files WHERE state = 'writing'");
  const waiting = db.prepare(
    `SELECT * FROM recordings WHERE state IN ('finished', 'interrupted')
       AND cloud_state IN ('local', 'uploading', 'uploaded', 'transcription_failed')
       AND transcription_mode <> 1 ORDER BY created_at ASC`,
  );
  const addMark = db.prepare(
    'INSERT INTO recording_marks (recording_id, at_ms, created_at) VALUES (?, ?, ?)',
  );
  const marks = db.prepare('SELECT at_ms FROM recording_marks WHERE recording_id = ? ORDER BY at_ms ASC');
  return {
    dir,
    insertRecording: (row: NewRecording) => insertInto(db, 'recordings', RECORDING_COLUMNS, row),
    updateRecording(id, set) {
      const c = setClause(RECORDING_COLUMNS, set);
      if (c.sql) db.prepare(`UPDATE recordings SET ${c.sql} WHERE id = ?`).run(...c.values, id);
    },
    getRecording: (id) => {
      const r = one.get(id) as Row | undefined;
      return r ? recordingOf(r) : undefined;
    },
    listRecordings: () => (byCreated.all() as Row[]).map(recordingOf),
    deleteRecording: (id) => {
      db.prepare('DELETE FROM recordings WHERE id = ?').run(id);
    },
    insertFile: (row: NewRecordingFile) => insertInto(db, 'recording_files', FILE_COLUMNS, row),
    updateFile(recordingId, seq, set) {
      const c = setClause(FILE_COLUMNS, set);
      if (c.sql) {
        db.prepare(`UPDATE recording_files SET ${c.sql} WHERE recording_id = ? AND seq = ?`).run(
          ...c.values,
          recordingId,
          seq,
        );
      }
    },
    files: (recordingId) => (filesOf.all(recordingId) as Row[]).map(fileOf),
    unfinishedFiles: () => (writing.all() as Row[]).map(fileOf),
    awaitingCloud: () => (waiting.all() as Row[]).map(recordingOf),
    addMark: (recordingId, atMs, createdAt) => {
      addMark.run(recordingId, atMs, createdAt);
    },
    marks: (recordingId) => (marks.all(recordingId) as Array<{ at_ms: number }>).map((r) => r.at_ms),
    filePath,
    createWavWriter: (fileName, format) => WavWriter.create(filePath(fileName), format),
    async recoverWav(fileName, format, syncedBytes) {
      try {
        return await recoverWav(filePath(fileName), format, syncedBytes);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async removeFile(fileName) {
      await fs.rm(filePath(fileName), { force: true });
      await syncDir(dir);
    },
    uploadSource: (fileName) => fileUploadSource(filePath(fileName)),
    close: () => file.close(),
  };
}

type Credentials = { slots: Record<string, string>; entries: Record<string, string> };

/**
 * The key-store slots and database entries in one JSON file (0600, written atomically).
 * Values an earlier release kept in the appliance database (`credential_values`) are taken over
 * when the file does not exist yet.
 */
export async function createFileCredentialStore(options: {
  path: string;
  /** The appliance database of an earlier release, to take its credentials over once. */
  legacy?: SqliteFile;
}): Promise<CredentialStore> {
  const files = createFileStore();
  let data: Credentials = { slots: {}, entries: {} };
  const text = await files.read(options.path);
  if (text !== null) {
    const parsed = JSON.parse(text) as Partial<Credentials>;
    data = { slots: { ...parsed.slots }, entries: { ...parsed.entries } };
  } else if (options.legacy) {
    const rows = options.legacy.db.prepare('SELECT kind, id, value FROM credential_values').all() as Array<{
      kind: string;
      id: number;
      value: string;
    }>;
    for (const r of rows) (r.kind === 'slot' ? data.slots : data.entries)[String(r.id)] = r.value;
    if (rows.length > 0) {
      await files.mkdir(path.dirname(options.path));
      await files.write(options.path, JSON.stringify(data, null, 2), 0o600);
    }
  }
  let chain: Promise<void> = Promise.resolve();
  const write = (kind: 'slots' | 'entries', id: number, value: string) => {
    const next = chain.then(async () => {
      data[kind][String(id)] = value;
      await files.mkdir(path.dirname(options.path));
      await files.write(options.path, JSON.stringify(data, null, 2), 0o600);
    });
    chain = next.catch(() => {});
    return next;
  };
  return {
    readSlot: async (slot: KeyStoreSlot) => data.slots[String(slot)],
    writeSlot: (slot: KeyStoreSlot, value) => write('slots', slot, value),
    readEntry: async (entry: DatabaseEntry) => data.entries[String(entry)],
    writeEntry: (entry: DatabaseEntry, value) => write('entries', entry, value),
  };
}

/** Where the stores of the device application live. */
export interface DeviceStorePaths {
  /** `appliance.db`, `credentials.json` and the default recordings directory. */
  dataDir: string;
  /** Telemetry queue directory (the device analytics database directory). */
  analyticsDir?: string;
  /** Recordings project directory (default `<dataDir>/recordings/default`). */
  recordingsDir?: string;
  /** The credentials file (default `<dataDir>/credentials.json`). */
  credentialsFile?: string;
}

/** Opens every store of the device application on a device (SQLite files, the credentials file). */
export async function openDeviceStores(paths: DeviceStorePaths): Promise<DeviceStores> {
  const appliance = openSqliteFile(path.join(paths.dataDir, 'appliance.db'), 'appliance');
  try {
    const credentials = await createFileCredentialStore({
      path: paths.credentialsFile ?? path.join(paths.dataDir, 'credentials.json'),
      legacy: appliance,
    });
    const telemetry = await openTelemetryStore(
      path.join(paths.analyticsDir ?? ANALYTICS_DB_DIR, 'events.db'),
    );
    const recordings = openSqliteRecordingStore(
      paths.recordingsDir ?? path.join(paths.dataDir, 'recordings', 'default'),
    );
    return {
      meta: createSqliteDeviceMeta(appliance),
      credentials,
      telemetry,
      recordings,
      files: createFileStore(),
      async close() {
        recordings.close();
        await telemetry.close();
        appliance.close();
      },
    };
  } catch (error) {
    appliance.close();
    throw error;
  }
}
