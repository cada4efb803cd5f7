import { randomUUID } from 'node:crypto';
import { createEvents, type Subscribable } from '@waved/internal';
import type { Logger } from '../../../core/log/logger.js';
import { AUDIO_BYTES_PER_SECOND, AUDIO_FORMAT, type TranscriptionMode } from '../constants.js';
import { DeviceError } from '../errors.js';
import type { RecordingFileRow, RecordingRow } from '../schema.js';
import type { DeviceTelemetry } from '../telemetry.js';
import type { AudioCapture } from './audio.js';
import type { RecordingStore, WavFileWriter } from './store.js';

/**
 * The recorder's states (the vendor API gives only the operation order init, start, pause, finish):
 *
 *   idle --init--> ready --start--> recording --pause--> paused --start--> recording
 *   recording | paused --finish--> idle      (mark is allowed in recording and paused)
 *
 * Any other call is refused with `DEVICE_RECORDING_STATE` and changes nothing.
 */
export type RecorderState = 'idle' | 'ready' | 'recording' | 'paused';

export interface RecordingInfo {
  id: string;
  mode: TranscriptionMode;
  language: string;
}

export interface RecorderEvents {
  state: [{ state: RecorderState; recording: RecordingInfo | null; previous: RecorderState }];
  /** Every captured chunk (the ASR feed), also in transcribe-only mode where nothing is written. */
  audio: [Uint8Array];
  mark: [{ recording: RecordingInfo; atMs: number }];
  /** Audio durable on disk up to `durationMs` (after each periodic sync). */
  synced: [{ recording: RecordingInfo; durationMs: number; bytes: number }];
  finished: [RecordingRow];
  error: [DeviceError];
}

export interface RecoveryReport {
  /** Recordings that were open when the previous run died, now `interrupted`. */
  recordings: string[];
  /** Files whose WAV header was fixed: at least the synced bytes, no tail of zeros past them. */
  files: Array<{ recordingId: string; fileName: string; bytes: number; durationMs: number }>;
}

export interface MeetingRecorderOptions {
  store: RecordingStore;
  audio: AudioCapture;
  telemetry: Pick<DeviceTelemetry, 'track'>;
  logger: Logger;
  now?: () => number;
  /** fdatasync interval while recording; at most 1000 (default 500). */
  syncIntervalMs?: number | undefined;
}

export interface MeetingRecorder extends Subscribable<RecorderEvents> {
  readonly state: RecorderState;
  readonly current: RecordingInfo | null;
  /** Milliseconds of audio captured in the current recording. */
  readonly elapsedMs: number;
  init(options?: { mode?: TranscriptionMode; language?: string }): Promise<RecordingInfo>;
  start(): Promise<void>;
  pause(): Promise<void>;
  mark(): Promise<number>;
  finish(): Promise<RecordingRow>;
  /** Run once at start-up: fixes files and recordings a killed run left open. */
  recover(): Promise<RecoveryReport>;
  list(): RecordingRow[];
  files(id: string): RecordingFileRow[];
  /** File operations of the record list (telemetry `open_record_file`, `listen_file`, `delete_file`). */
  openRecordFile(id: string, seq?: number): Promise<{ path: string; row: RecordingFileRow }>;
  listenFile(id: string, seq?: number): Promise<{ path: string; row: RecordingFileRow }>;
  deleteRecording(id: string): Promise<void>;
  /** Stops a running capture (as pause) so the database and files are consistent; used at shutdown. */
  close(): Promise<void>;
}

export function createMeetingRecorder(options: MeetingRecorderOptions): MeetingRecorder {
  const { store, audio, telemetry, logger } = options;
  const now = options.now ?? Date.now;
  const syncMs = Math.min(1000, options.syncIntervalMs ?? 500);
  const events = createEvents<RecorderEvents>();
  let state: RecorderState = 'idle';
  let current: RecordingInfo | null = null;
  let capturedBytes = 0;
  let seq = 0;
  let running: {
    abort: AbortController;
    loop: Promise<void>;
    writer: WavFileWriter | null;
    fileSeq: number;
    timer: ReturnType<typeof setInterval>;
  } | null = null;
  let busy = false;

  const elapsed = () => Math.floor((capturedBytes * 1000) / AUDIO_BYTES_PER_SECOND);

  const setState = (next: RecorderState) => {
    const previous = state;
    state = next;
    events.emit('state', { state, recording: current, previous });
  };

  const refuse = (op: string): never => {
    throw new DeviceError('DEVICE_RECORDING_STATE', `cannot ${op} while ${state}`);
  };

  /** One operation at a time: a second call while one runs is refused, not interleaved. */
  async function exclusive<T>(op: string, allowed: RecorderState[], fn: () => Promise<T>): Promise<T> {
    if (busy) throw new DeviceError('DEVICE_RECORDING_STATE', `cannot ${op}: another operation is running`);
    if (!allowed.includes(state)) refuse(op);
    busy = true;
    try {
      return await fn();
    } finally {
      busy = false;
    }
  }

  async function startCapture(rec: RecordingInfo): Promise<void> {
    let writer: WavFileWriter | null = null;
    let fileSeq = 0;
    if (rec.mode !== 1) {
      fileSeq = ++seq;
      const fileName = `${rec.id}-${String(fileSeq).padStart(3, '0')}.wav`;
      // the row first: a file on disk is always known to the database, and recovery finds it
      store.insertFile({ recordingId: rec.id, seq: fileSeq, fileName, state: 'writing' });
      writer = await store.createWavWriter(fileName, AUDIO_FORMAT);
    }
    const abort = new AbortController();
    const sync = async () => {
      if (!writer) return;
      await writer.sync();
      const bytes = writer.syncedBytes;
      const durationMs = Math.floor((bytes * 1000) / AUDIO_BYTES_PER_SECOND);
      store.updateFile(rec.id, fileSeq, { bytes, durationMs });
      events.emit('synced', { recording: rec, durationMs, bytes });
    };
    const timer = setInterval(() => {
      sync().catch((error) => logger.warn?.(`recording: sync failed: ${(error as Error).message}`));
    }, syncMs);
    const loop = (async () => {
      try {
        for await (const chunk of audio.capture(abort.signal)) {
          capturedBytes += chunk.length;
          if (writer) await writer.write(chunk);
          events.emit('audio', chunk);
        }
      } catch (error) {
        if (!abort.signal.aborted) {
          const e =
            error instanceof DeviceError
              ? error
              : new DeviceError('DEVICE_AUDIO', `audio capture failed: ${(error as Error).message}`, {
                  cause: error,
                });
          logger.error?.(`recording: ${e.message}`);
          if (events.listenerCount('error') > 0) events.emit('error', e);
        }
      }
    })();
    running = { abort, loop, writer, fileSeq, timer };
  }

  async function stopCapture(rec: RecordingInfo): Promise<void> {
    if (!running) return;
    const r = running;
    running = null;
    r.abort.abort();
    clearInterval(r.timer);
    await r.loop;
    if (r.writer) {
      const { bytes, durationMs } = await r.writer.close();
      store.updateFile(rec.id, r.fileSeq, { state: 'complete', bytes, durationMs });
    }
    store.updateRecording(rec.id, { durationMs: elapsed(), bytes: totalBytes(rec.id) });
  }

  const totalBytes = (id: string) => store.files(id).reduce((n, f) => n + f.bytes, 0);

  const fileFor = (id: string, fileSeq?: number) => {
    const files = store.files(id);
    const row = fileSeq === undefined ? files[0] : files.find((f) => f.seq === fileSeq);
    if (!row)
      throw new DeviceError('DEVICE_RECORDING_IO', `recording ${id} has no file ${fileSeq ?? ''}`.trim());
    return { path: store.filePath(row.fileName), row };
  };

  /** The telemetry fields of a file event (open, listen, delete). */
  const fileDetails = (f: { fileName: string; bytes: number; durationMs: number }) => ({
    file_name: f.fileName,
    file_size: f.bytes,
    duration_s: Math.round(f.durationMs / 1000),
  });

  // getters must be defined, not copied: Object.assign would freeze their first value
  const base = { on: events.on, once: events.once };
  Object.defineProperties(base, {
    state: { get: () => state, enumerable: true },
    current: { get: () => current, enumerable: true },
    elapsedMs: { get: () => elapsed(), enumerable: true },
  });
  const recorder = Object.assign(base, {
    init(opts: { mode?: TranscriptionMode; language?: string } = {}) {
      return exclusive('init', ['idle'], async () => {
        const mode = opts.mode ?? 0;
        if (mode !== 0 && mode !== 1 && mode !== 2) {
          throw new DeviceError(
            'DEVICE_OPTIONS',
            `transcription mode must be 0, 1 or 2, got ${String(mode)}`,
          );
        }
        const info: RecordingInfo = { id: randomUUID(), mode, language: opts.language ?? 'en' };
        store.insertRecording({
          id: info.id,
          state: 'initialized',
          transcriptionMode: mode,
          language: info.language,
          createdAt: now(),
          cloudState: mode === 1 ? 'only_local' : 'local',
        });
        current = info;
        capturedBytes = 0;
        seq = 0;
        setState('ready');
        return info;
      });
    },
    start() {
      return exclusive('start', ['ready', 'paused'], async () => {
        const rec = current as RecordingInfo;
        const first = state === 'ready';
        await startCapture(rec);
        store.updateRecording(rec.id, { state: 'recording', ...(first ? { startedAt: now() } : {}) });
        setState('recording');
        if (first) {
          await telemetry.track('ai_record_start', {
            record_id: rec.id,
            transcription_mode: rec.mode,
            language: rec.language,
          });
        }
      });
    },
    pause() {
      return exclusive('pause', ['recording'], async () => {
        const rec = current as RecordingInfo;
        await stopCapture(rec);
        store.updateRecording(rec.id, { state: 'paused' });
        setState('paused');
        await telemetry.track('ai_record_pause', {});
      });
    },
    mark() {
      return exclusive('mark', ['recording', 'paused'], async () => {
        const rec = current as RecordingInfo;
        const atMs = elapsed();
        store.addMark(rec.id, atMs, now());
        events.emit('mark', { recording: rec, atMs });
        await telemetry.track('ai_record_mark', { record_id: rec.id });
        return atMs;
      });
    },
    finish() {
      return exclusive('finish', ['recording', 'paused'], async () => {
        const rec = current as RecordingInfo;
        await stopCapture(rec);
        const bytes = totalBytes(rec.id);
        const durationMs = elapsed();
        store.updateRecording(rec.id, {
          state: 'finished',
          endedAt: now(),
          durationMs,
          bytes,
          ...(rec.mode !== 1 && bytes === 0 ? { cloudState: 'only_local' as const } : {}),
        });
        const row = store.getRecording(rec.id) as RecordingRow;
        current = null;
        capturedBytes = 0;
        setState('idle');
        await telemetry.track('ai_record_end', {
          record_id: rec.id,
          duration_s: Math.round(durationMs / 1000),
          file_size: bytes,
        });
        events.emit('finished', row);
        return row;
      });
    },
    async recover() {
      const report: RecoveryReport = { recordings: [], files: [] };
      for (const f of store.unfinishedFiles()) {
        // f.bytes: what the last `synced` event reported durable
        const fixed = (await store.recoverWav(f.fileName, AUDIO_FORMAT, f.bytes)) ?? {
          bytes: 0,
          durationMs: 0,
        };
        store.updateFile(f.recordingId, f.seq, { state: 'recovered', ...fixed });
        report.files.push({ recordingId: f.recordingId, fileName: f.fileName, ...fixed });
        logger.warn?.(
          `recording: recovered ${f.fileName} (${fixed.durationMs} ms) left open by an earlier run`,
        );
      }
      for (const r of store.listRecordings()) {
        if (r.state !== 'initialized' && r.state !== 'recording' && r.state !== 'paused') continue;
        const bytes = totalBytes(r.id);
        const durationMs = store.files(r.id).reduce((n, f) => n + f.durationMs, 0);
        store.updateRecording(r.id, {
          state: 'interrupted',
          recovered: true,
          endedAt: now(),
          bytes,
          durationMs,
          ...(bytes === 0 ? { cloudState: 'only_local' as const } : {}),
        });
        report.recordings.push(r.id);
        if (r.state !== 'initialized') {
          await telemetry.track('ai_record_end', {
            record_id: r.id,
            duration_s: Math.round(durationMs / 1000),
            file_size: bytes,
          });
        }
      }
      return report;
    },
    list: () => store.listRecordings(),
    files: (id: string) => store.files(id),
    async openRecordFile(id: string, fileSeq?: number) {
      const f = fileFor(id, fileSeq);
      await telemetry.track('open_record_file', fileDetails(f.row));
      return f;
    },
    async listenFile(id: string, fileSeq?: number) {
      const f = fileFor(id, fileSeq);
      await telemetry.track('listen_file', fileDetails(f.row));
      return f;
    },
    async deleteRecording(id: string) {
      if (current?.id === id)
        throw new DeviceError('DEVICE_RECORDING_STATE', 'cannot delete the open recording');
      const files = store.files(id);
      store.deleteRecording(id);
      for (const f of files) {
        await store.removeFile(f.fileName);
        await telemetry.track('delete_file', fileDetails(f));
      }
    },
    async close() {
      if (current && running) {
        await stopCapture(current);
        store.updateRecording(current.id, { state: 'paused' });
        state = 'paused';
      }
    },
  }) as MeetingRecorder;
  return recorder;
}
