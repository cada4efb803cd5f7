import type { UploadSource } from '@waved/psp-cloud';
import type { NewRecording, NewRecordingFile, RecordingFileRow, RecordingRow } from '../schema.js';
import type { WavFormat } from './wav.js';

/** Appends PCM to one WAV file; `sync()` patches the header and makes the audio durable. */
export interface WavFileWriter {
  readonly bytes: number;
  readonly durationMs: number;
  /** Bytes of PCM known to be on stable storage. */
  readonly syncedBytes: number;
  write(chunk: Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<{ bytes: number; durationMs: number }>;
}

/**
 * The recordings of one project: their rows (a SQLite file on a device) and their audio files.
 * Each row write is its own committed transaction.
 */
export interface RecordingStore {
  readonly dir: string;
  insertRecording(row: NewRecording): void;
  updateRecording(id: string, set: Partial<RecordingRow>): void;
  getRecording(id: string): RecordingRow | undefined;
  listRecordings(): RecordingRow[];
  deleteRecording(id: string): void;
  insertFile(row: NewRecordingFile): void;
  updateFile(recordingId: string, seq: number, set: Partial<RecordingFileRow>): void;
  files(recordingId: string): RecordingFileRow[];
  /** Files a killed writer left in state `writing`. */
  unfinishedFiles(): RecordingFileRow[];
  /** Recordings whose files or transcription still wait for the cloud. */
  awaitingCloud(): RecordingRow[];
  addMark(recordingId: string, atMs: number, createdAt: number): void;
  marks(recordingId: string): number[];
  /** Where a file of this project lives (shown to the user, handed to a player). */
  filePath(fileName: string): string;
  /** Creates the file (0600) with a header for zero bytes. */
  createWavWriter(fileName: string, format: WavFormat): Promise<WavFileWriter>;
  /**
   * Rebuilds the header of a file a killed writer or a power cut left behind, keeping at least
   * `syncedBytes` (what was reported durable) and no tail of zeros past it; null when the file is missing.
   */
  recoverWav(
    fileName: string,
    format: WavFormat,
    syncedBytes: number,
  ): Promise<{ bytes: number; durationMs: number } | null>;
  removeFile(fileName: string): Promise<void>;
  /** The file as an upload body for the cloud client. */
  uploadSource(fileName: string): Promise<UploadSource>;
  close(): void;
}
