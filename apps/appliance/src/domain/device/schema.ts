import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

// The appliance database (drizzle/appliance): credentials (spec B2) and device facts.

export const credentialValues = sqliteTable(
  'credential_values',
  {
    kind: text('kind', { enum: ['slot', 'entry'] }).notNull(),
    id: integer('id').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.id] })],
);

export const deviceMeta = sqliteTable('device_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

// A project's recordings database (drizzle/recordings).

export type RecordingState = 'initialized' | 'recording' | 'paused' | 'finished' | 'interrupted';
export type CloudState =
  | 'local'
  | 'uploading'
  | 'uploaded'
  | 'transcribing'
  | 'transcription_failed'
  | 'only_local';
export type FileState = 'writing' | 'complete' | 'recovered';
export type UploadStatus = 'pending' | 'uploaded' | 'failed';

export const recordings = sqliteTable('recordings', {
  id: text('id').primaryKey(),
  state: text('state').$type<RecordingState>().notNull(),
  transcriptionMode: integer('transcription_mode').$type<0 | 1 | 2>().notNull(),
  language: text('language').notNull(),
  createdAt: integer('created_at').notNull(),
  startedAt: integer('started_at'),
  endedAt: integer('ended_at'),
  durationMs: integer('duration_ms').notNull().default(0),
  bytes: integer('bytes').notNull().default(0),
  recovered: integer('recovered', { mode: 'boolean' }).notNull().default(false),
  cloudState: text('cloud_state').$type<CloudState>().notNull().default('local'),
  taskId: text('task_id'),
  lastError: text('last_error'),
});

export const recordingFiles = sqliteTable(
  'recording_files',
  {
    recordingId: text('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    fileName: text('file_name').notNull(),
    state: text('state').$type<FileState>().notNull(),
    bytes: integer('bytes').notNull().default(0),
    durationMs: integer('duration_ms').notNull().default(0),
    uploadStatus: text('upload_status').$type<UploadStatus>().notNull().default('pending'),
    uploadAttempts: integer('upload_attempts').notNull().default(0),
    cloudFileId: text('cloud_file_id'),
    lastError: text('last_error'),
  },
  (t) => [primaryKey({ columns: [t.recordingId, t.seq] })],
);

export const recordingMarks = sqliteTable(
  'recording_marks',
  {
    recordingId: text('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    atMs: integer('at_ms').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('recording_marks_recording').on(t.recordingId)],
);

export type RecordingRow = typeof recordings.$inferSelect;
export type RecordingFileRow = typeof recordingFiles.$inferSelect;
