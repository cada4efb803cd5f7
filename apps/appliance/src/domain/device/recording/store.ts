import path from 'node:path';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import { type DeviceDatabase, openDeviceDatabase } from '../db.js';
import {
  type CloudState,
  type RecordingFileRow,
  type RecordingRow,
  recordingFiles,
  recordingMarks,
  recordings,
} from '../schema.js';

/** The recordings database of one project directory (`<dir>/recordings.db`) and its audio files. */
export interface RecordingStore {
  readonly dir: string;
  readonly database: DeviceDatabase;
  insertRecording(row: typeof recordings.$inferInsert): void;
  updateRecording(id: string, set: Partial<typeof recordings.$inferInsert>): void;
  getRecording(id: string): RecordingRow | undefined;
  listRecordings(): RecordingRow[];
  deleteRecording(id: string): void;
  insertFile(row: typeof recordingFiles.$inferInsert): void;
  updateFile(recordingId: string, seq: number, set: Partial<typeof recordingFiles.$inferInsert>): void;
  files(recordingId: string): RecordingFileRow[];
  /** Files a killed writer left in state `writing`. */
  unfinishedFiles(): RecordingFileRow[];
  /** Recordings whose files or transcription still wait for the cloud. */
  awaitingCloud(): RecordingRow[];
  addMark(recordingId: string, atMs: number, createdAt: number): void;
  marks(recordingId: string): number[];
  filePath(fileName: string): string;
  close(): void;
}

export function openRecordingStore(dir: string): RecordingStore {
  const database = openDeviceDatabase(path.join(dir, 'recordings.db'), 'recordings');
  const { db } = database;
  const waiting: CloudState[] = ['local', 'uploading', 'uploaded', 'transcription_failed'];
  return {
    dir,
    database,
    insertRecording: (row) => {
      db.insert(recordings).values(row).run();
    },
    updateRecording: (id, set) => {
      db.update(recordings).set(set).where(eq(recordings.id, id)).run();
    },
    getRecording: (id) => db.select().from(recordings).where(eq(recordings.id, id)).get(),
    listRecordings: () => db.select().from(recordings).orderBy(asc(recordings.createdAt)).all(),
    deleteRecording: (id) => {
      db.delete(recordings).where(eq(recordings.id, id)).run();
    },
    insertFile: (row) => {
      db.insert(recordingFiles).values(row).run();
    },
    updateFile: (recordingId, seq, set) => {
      db.update(recordingFiles)
        .set(set)
        .where(and(eq(recordingFiles.recordingId, recordingId), eq(recordingFiles.seq, seq)))
        .run();
    },
    files: (recordingId) =>
      db
        .select()
        .from(recordingFiles)
        .where(eq(recordingFiles.recordingId, recordingId))
        .orderBy(asc(recordingFiles.seq))
        .all(),
    unfinishedFiles: () => db.select().from(recordingFiles).where(eq(recordingFiles.state, 'writing')).all(),
    awaitingCloud: () =>
      db
        .select()
        .from(recordings)
        .where(
          and(
            inArray(recordings.state, ['finished', 'interrupted']),
            inArray(recordings.cloudState, waiting),
            ne(recordings.transcriptionMode, 1),
          ),
        )
        .orderBy(asc(recordings.createdAt))
        .all(),
    addMark: (recordingId, atMs, createdAt) => {
      db.insert(recordingMarks).values({ recordingId, atMs, createdAt }).run();
    },
    marks: (recordingId) =>
      db
        .select({ atMs: recordingMarks.atMs })
        .from(recordingMarks)
        .where(eq(recordingMarks.recordingId, recordingId))
        .orderBy(asc(recordingMarks.atMs))
        .all()
        .map((r) => r.atMs),
    filePath: (fileName) => path.join(dir, fileName),
    close: () => database.close(),
  };
}
