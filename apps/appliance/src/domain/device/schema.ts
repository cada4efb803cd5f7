// The records the device application keeps (the tables are in adapters/system/migrations.ts).

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

/** One meeting recording. */
export interface RecordingRow {
  id: string;
  state: RecordingState;
  transcriptionMode: 0 | 1 | 2;
  language: string;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  durationMs: number;
  bytes: number;
  recovered: boolean;
  cloudState: CloudState;
  taskId: string | null;
  lastError: string | null;
}

/** One WAV file of a recording (a new one at each start or resume). */
export interface RecordingFileRow {
  recordingId: string;
  seq: number;
  fileName: string;
  state: FileState;
  bytes: number;
  durationMs: number;
  uploadStatus: UploadStatus;
  uploadAttempts: number;
  cloudFileId: string | null;
  lastError: string | null;
}

export type NewRecording = Pick<
  RecordingRow,
  'id' | 'state' | 'transcriptionMode' | 'language' | 'createdAt'
> &
  Partial<RecordingRow>;
export type NewRecordingFile = Pick<RecordingFileRow, 'recordingId' | 'seq' | 'fileName' | 'state'> &
  Partial<RecordingFileRow>;
