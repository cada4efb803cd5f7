import type { CloudClient } from '@waved/psp-cloud';
import type { Logger } from '../../../core/log/logger.js';
import type { RecordingRow } from '../schema.js';
import type { DeviceTelemetry } from '../telemetry.js';
import type { RecordingStore } from './store.js';

export interface UploaderOptions {
  store: RecordingStore;
  client: Pick<CloudClient, 'uploadMeetingFile' | 'completeUpload' | 'startTranscription'>;
  telemetry: Pick<DeviceTelemetry, 'track'>;
  logger: Logger;
  /** `storage.auto_upload` of the settings. */
  autoUpload: () => boolean;
  /** The cloud session is established (uploads are token routes). */
  ready: () => boolean;
}

export interface Uploader {
  /** Runs a pass now, or once more after the running one. */
  kick(): void;
  /** One pass over every recording waiting for the cloud; resolves when done. */
  run(): Promise<void>;
  /** Resolves when no pass is running or queued. */
  idle(): Promise<void>;
}

/**
 * Sends finished recordings to the cloud: every file whose upload status is not `uploaded`
 * (so a pass interrupted by a crash or a lost network resumes with the files still missing),
 * then the upload completion, then the transcription trigger (the client retries it once after
 * 100 ms). Status lives in the project's recordings database.
 */
export function createUploader(options: UploaderOptions): Uploader {
  const { store, client, telemetry, logger } = options;
  let running: Promise<void> | null = null;
  let again = false;

  async function one(rec: RecordingRow): Promise<void> {
    let cloudState = rec.cloudState;
    if (cloudState === 'local' || cloudState === 'uploading') {
      store.updateRecording(rec.id, { cloudState: 'uploading' });
      const files = store.files(rec.id).filter((f) => f.bytes > 0);
      for (const f of files) {
        if (f.uploadStatus === 'uploaded') continue;
        store.updateFile(rec.id, f.seq, { uploadAttempts: f.uploadAttempts + 1 });
        try {
          const source = await store.uploadSource(f.fileName);
          const r = await client.uploadMeetingFile({ meetingId: rec.id, fileName: f.fileName, source });
          store.updateFile(rec.id, f.seq, {
            uploadStatus: 'uploaded',
            cloudFileId: r.file_id,
            lastError: null,
          });
          await telemetry.track('upload_cloud_file', {});
          logger.info?.(`recording: uploaded ${f.fileName}`);
        } catch (error) {
          const message = (error as Error).message;
          store.updateFile(rec.id, f.seq, { uploadStatus: 'failed', lastError: message });
          store.updateRecording(rec.id, { lastError: message });
          logger.warn?.(`recording: upload of ${f.fileName} failed (will retry): ${message}`);
          return;
        }
      }
      await client.completeUpload({ meetingId: rec.id, files: files.map((f) => f.fileName) });
      store.updateRecording(rec.id, { cloudState: 'uploaded', lastError: null });
      cloudState = 'uploaded';
    }
    if (cloudState === 'uploaded' || cloudState === 'transcription_failed') {
      try {
        const { task_id } = await client.startTranscription({
          meetingId: rec.id,
          language: rec.language,
          mode: rec.transcriptionMode,
        });
        store.updateRecording(rec.id, { cloudState: 'transcribing', taskId: task_id, lastError: null });
        logger.info?.(`recording: transcription of ${rec.id} started`);
      } catch (error) {
        const message = (error as Error).message;
        store.updateRecording(rec.id, { cloudState: 'transcription_failed', lastError: message });
        logger.warn?.(`recording: transcription of ${rec.id} not started after one retry: ${message}`);
      }
    }
  }

  async function pass(): Promise<void> {
    if (!options.ready() || !options.autoUpload()) return;
    for (const rec of store.awaitingCloud()) {
      try {
        await one(rec);
      } catch (error) {
        store.updateRecording(rec.id, { lastError: (error as Error).message });
        logger.warn?.(`recording: cloud step for ${rec.id} failed: ${(error as Error).message}`);
      }
    }
  }

  const uploader: Uploader = {
    kick() {
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          await pass();
        } while (again);
      })().finally(() => {
        running = null;
      });
    },
    async run() {
      await uploader.idle();
      uploader.kick();
      await uploader.idle();
    },
    async idle() {
      while (running) await running;
    },
  };
  return uploader;
}
