import fs from 'node:fs';
import { tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceApp } from '../../src/domain/device/app.js';
import { decodeWavHeader } from '../../src/domain/device/recording/wav.js';
import { generatedSample } from '../../src/sim/audio.js';
import { type Harness, received, startHarness } from './helpers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('meeting recording against the reference cloud', () => {
  const dir = tempDir('device-rec-');
  let h: Harness;
  let app: DeviceApp;
  const failures = { transcription: 0, uploadStarts: [] as boolean[] };
  const attempts = { transcription: 0 };
  beforeAll(async () => {
    h = await startHarness(dir.path, {
      intercept: (r) => {
        if (r.route === 'transcriptionStart') {
          attempts.transcription++;
          if (failures.transcription > 0) {
            failures.transcription--;
            return Response.json({ error: { code: 'BUSY', message: 'busy' } }, { status: 503 });
          }
        }
        if (r.route === 'uploadStart' && failures.uploadStarts.shift()) {
          return Response.json({ error: { code: 'BROKEN', message: 'broken' } }, { status: 500 });
        }
        return undefined;
      },
    });
    app = await h.app();
    await app.start();
    await app.session.establish();
  });
  afterAll(async () => {
    await app?.stop();
    await h?.close();
    dir.remove();
  });

  it('follows init → start → pause → start → finish and refuses every other move', async () => {
    const r = app.recorder;
    await expect(r.start()).rejects.toMatchObject({ code: 'DEVICE_RECORDING_STATE' });
    await expect(r.finish()).rejects.toMatchObject({ code: 'DEVICE_RECORDING_STATE' });
    const info = await app.initRecording({ mode: 0, language: 'de' });
    await expect(app.initRecording()).rejects.toMatchObject({ code: 'DEVICE_RECORDING_STATE' });
    await expect(r.pause()).rejects.toMatchObject({ code: 'DEVICE_RECORDING_STATE' });
    await expect(r.mark()).rejects.toMatchObject({ code: 'DEVICE_RECORDING_STATE' });
    await r.start();
    await expect(r.start()).rejects.toMatchObject({ code: 'DEVICE_RECORDING_STATE' });
    await sleep(300);
    await r.mark();
    await r.pause();
    expect(r.state).toBe('paused');
    await expect(r.pause()).rejects.toMatchObject({ code: 'DEVICE_RECORDING_STATE' });
    await r.start();
    await sleep(250);
    const row = await r.finish();
    expect(r.state).toBe('idle');
    expect(row).toMatchObject({ id: info.id, state: 'finished', language: 'de', transcriptionMode: 0 });

    // two files (one per start), each a valid WAV whose samples are the generated tone from sample 0
    const files = r.files(info.id);
    expect(files.map((f) => [f.seq, f.state])).toEqual([
      [1, 'complete'],
      [2, 'complete'],
    ]);
    let total = 0;
    for (const f of files) {
      const bytes = fs.readFileSync(dir.join('recordings', 'default', f.fileName));
      const { format, dataBytes } = decodeWavHeader(bytes);
      expect(format).toEqual({ sampleRate: 16000, channels: 1, bitsPerSample: 16 });
      expect(dataBytes).toBe(bytes.length - 44);
      expect(dataBytes).toBe(f.bytes);
      expect(dataBytes).toBeGreaterThan(3200);
      for (let i = 0; i < dataBytes / 2; i += 97)
        expect(bytes.readInt16LE(44 + i * 2)).toBe(generatedSample(i));
      total += dataBytes;
    }
    expect(row.bytes).toBe(total);
    expect(row.durationMs).toBe(Math.floor((total * 1000) / 32000));
    expect(fs.statSync(dir.join('recordings', 'default', files[0]!.fileName)).mode & 0o777).toBe(0o600);

    await app.uploader.idle();
    await app.telemetry.flush();
    expect(received(h.server, 'ai_record_start').at(-1)?.params).toMatchObject({
      record_id: info.id,
      transcription_mode: 0,
      language: 'de',
    });
    expect(received(h.server, 'ai_record_mark').at(-1)?.params.record_id).toBe(info.id);
    expect(received(h.server, 'ai_record_pause')).toHaveLength(1);
    expect(received(h.server, 'ai_record_end').at(-1)?.params).toMatchObject({
      record_id: info.id,
      file_size: total,
    });
    expect(received(h.server, 'transcription_language_set').at(-1)?.params.language).toBe('de');

    // uploaded byte for byte, completed, and transcribed
    const uploads = h.server.uploads().filter((u) => u.meetingId === info.id);
    expect(uploads.map((u) => u.fileName).sort()).toEqual(files.map((f) => f.fileName).sort());
    for (const u of uploads) {
      expect(
        Buffer.from(u.data!).equals(fs.readFileSync(dir.join('recordings', 'default', u.fileName))),
      ).toBe(true);
    }
    const notices = h.server.notices().filter((n) => n.body.meeting_id === info.id);
    expect(notices.map((n) => n.route)).toContain('uploadComplete');
    expect(notices.find((n) => n.route === 'transcriptionStart')?.body).toMatchObject({
      language: 'de',
      mode: 0,
    });
    expect(r.list().find((x) => x.id === info.id)).toMatchObject({ cloudState: 'transcribing' });
    expect(r.files(info.id).every((f) => f.uploadStatus === 'uploaded' && f.cloudFileId)).toBe(true);
  });

  const record = async (ms: number, mode: 0 | 1 | 2 = 0) => {
    const info = await app.initRecording({ mode, language: 'en' });
    await app.recorder.start();
    await sleep(ms);
    await app.recorder.finish();
    await app.uploader.idle();
    return info;
  };

  it('retries the transcription trigger once after 100 ms, and leaves it for a later pass after a second failure', async () => {
    failures.transcription = 1;
    attempts.transcription = 0;
    const ok = await record(150);
    expect(attempts.transcription).toBe(2);
    expect(app.recorder.list().find((x) => x.id === ok.id)?.cloudState).toBe('transcribing');

    failures.transcription = 2;
    attempts.transcription = 0;
    const late = await record(150);
    expect(attempts.transcription).toBe(2);
    expect(app.recorder.list().find((x) => x.id === late.id)).toMatchObject({
      cloudState: 'transcription_failed',
    });
    await app.uploader.run();
    expect(attempts.transcription).toBe(3);
    expect(app.recorder.list().find((x) => x.id === late.id)?.cloudState).toBe('transcribing');
  });

  it('resumes an interrupted upload with only the files still missing', async () => {
    const info = await app.initRecording({ mode: 2 });
    await app.recorder.start();
    await sleep(120);
    await app.recorder.pause();
    await app.recorder.start();
    await sleep(120);
    const second = `${info.id}-002.wav`;
    // the first file goes up, the second one's upload fails
    failures.uploadStarts = [false, true];
    await app.recorder.finish();
    await app.uploader.idle();
    const files = app.recorder.files(info.id);
    expect(files.map((f) => f.uploadStatus)).toEqual(['uploaded', 'failed']);
    expect(app.recorder.list().find((x) => x.id === info.id)?.cloudState).toBe('uploading');

    failures.uploadStarts = [];
    await app.uploader.run();
    const names = h.server
      .uploads()
      .filter((u) => u.meetingId === info.id)
      .map((u) => u.fileName);
    expect(names).toEqual([`${info.id}-001.wav`, second]);
    expect(app.recorder.list().find((x) => x.id === info.id)?.cloudState).toBe('transcribing');
  });

  it('keeps no audio file in transcribe-only mode and sends nothing for it', async () => {
    const before = h.server.uploads().length;
    const info = await record(150, 1);
    expect(app.recorder.files(info.id)).toEqual([]);
    expect(app.recorder.list().find((x) => x.id === info.id)).toMatchObject({
      cloudState: 'only_local',
      transcriptionMode: 1,
    });
    expect(h.server.uploads()).toHaveLength(before);
    await app.telemetry.flush();
    expect(received(h.server, 'transcription_mode_set').map((e) => e.params.mode_option)).toEqual([2, 1]);
  });

  it('uploads nothing while auto upload is off, and catches up when it is turned on', async () => {
    h.settings.storage.auto_upload = false;
    const before = h.server.uploads().length;
    const info = await record(120, 0);
    expect(h.server.uploads()).toHaveLength(before);
    expect(app.recorder.list().find((x) => x.id === info.id)?.cloudState).toBe('local');
    h.settings.storage.auto_upload = true;
    await app.uploader.run();
    expect(h.server.uploads()).toHaveLength(before + 1);
  });

  it('deletes a recording with its files (delete_file telemetry)', async () => {
    const [first] = app.recorder.list();
    const files = app.recorder.files(first!.id);
    const opened = await app.recorder.openRecordFile(first!.id);
    expect(opened.row.fileName).toBe(files[0]?.fileName);
    await app.recorder.deleteRecording(first!.id);
    expect(app.recorder.list().find((x) => x.id === first!.id)).toBeUndefined();
    for (const f of files) expect(fs.existsSync(dir.join('recordings', 'default', f.fileName))).toBe(false);
    await app.telemetry.flush();
    expect(received(h.server, 'delete_file')).toHaveLength(files.length);
    expect(received(h.server, 'open_record_file')).toHaveLength(1);
  });
});
