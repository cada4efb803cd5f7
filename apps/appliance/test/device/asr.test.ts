import { tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceApp } from '../../src/domain/device/app.js';
import {
  type AsrEngine,
  type AsrInfo,
  type AsrSubtitle,
  createAsrController,
  localAudioServerInfo,
} from '../../src/domain/device/asr/controller.js';
import type { DeviceTelemetry } from '../../src/domain/device/telemetry.js';
import { createSimAsrEngine } from '../../src/sim/asr-engine.js';
import { type Harness, memoryLogger, received, startHarness } from './helpers.js';

const second = Buffer.alloc(32000);

describe('ASR controller', () => {
  const tracked: Array<[string, unknown]> = [];
  const telemetry: Pick<DeviceTelemetry, 'track'> = {
    track: async (name, params) => {
      tracked.push([name, params]);
    },
  };

  it('enforces the feature states and reports info and subtitles to the registered listeners', async () => {
    const asr = createAsrController({ engine: createSimAsrEngine(), telemetry, logger: memoryLogger() });
    const infos: AsrInfo[] = [];
    const subs: AsrSubtitle[] = [];
    const offInfo = asr.registerAsrInfoNotify((i) => infos.push(i));
    asr.registerAsrOnlineSubtitleNotify((s) => subs.push(s));
    await expect(asr.pauseAsrFeature()).rejects.toMatchObject({ code: 'DEVICE_ASR_STATE' });
    await expect(asr.closeAsrFeature()).rejects.toMatchObject({ code: 'DEVICE_ASR_STATE' });
    await expect(asr.openAsrFeature({ ...localAudioServerInfo(), sampleRate: 0 })).rejects.toMatchObject({
      code: 'DEVICE_OPTIONS',
    });
    await asr.openAsrFeature(localAudioServerInfo());
    await expect(asr.openAsrFeature(localAudioServerInfo())).rejects.toMatchObject({
      code: 'DEVICE_ASR_STATE',
    });
    asr.feed(second);
    await asr.pauseAsrFeature();
    asr.feed(second); // paused: not transcribed
    await asr.restartAsrFeature();
    asr.feed(second);
    await asr.switchAsrType('offline', 'fr');
    offInfo();
    await asr.closeAsrFeature();
    expect(infos.map((i) => i.state)).toEqual(['opened', 'paused', 'restarted', 'switched']);
    expect(infos.at(-1)).toMatchObject({ type: 'offline', language: 'fr' });
    expect(subs.filter((s) => s.final).map((s) => s.seq)).toEqual([0, 1]);
    expect(subs.filter((s) => !s.final)).toHaveLength(2);
    expect(tracked).toContainEqual(['transcription_language_set', { language: 'fr' }]);
  });

  it('maps transcription modes 0/1/2 and only-transcribe onto the engine, with telemetry on every change', async () => {
    tracked.length = 0;
    const calls: boolean[] = [];
    const engine: AsrEngine = { ...createSimAsrEngine(), setOnlyTrans: async (v) => void calls.push(v) };
    const asr = createAsrController({ engine, telemetry, logger: memoryLogger() });
    await asr.openAsrFeature(localAudioServerInfo());
    await asr.setAsrOnlyTrans(true);
    expect(asr.mode).toBe(1);
    await asr.setTranscriptionMode(2);
    await asr.setTranscriptionMode(2);
    await expect(asr.setTranscriptionMode(3 as 0)).rejects.toMatchObject({ code: 'DEVICE_OPTIONS' });
    expect(calls).toEqual([true, false]);
    expect(tracked).toEqual([
      ['transcription_mode_set', { mode_option: 1 }],
      ['transcription_mode_set', { mode_option: 2 }],
    ]);
  });

  it('turns an engine failure into DEVICE_ASR_ENGINE and an error info', async () => {
    const engine: AsrEngine = {
      ...createSimAsrEngine(),
      open: async () => {
        throw new Error('no model loaded');
      },
    };
    const asr = createAsrController({ engine, telemetry, logger: memoryLogger() });
    const infos: AsrInfo[] = [];
    asr.registerAsrInfoNotify((i) => infos.push(i));
    await expect(asr.openAsrFeature(localAudioServerInfo())).rejects.toMatchObject({
      code: 'DEVICE_ASR_ENGINE',
    });
    expect(asr.state).toBe('closed');
    expect(infos).toMatchObject([{ state: 'error', message: 'no model loaded' }]);
  });
});

describe('cloud meeting notices during a transcribed recording', () => {
  const dir = tempDir('device-asr-');
  let h: Harness;
  let app: DeviceApp;
  beforeAll(async () => {
    h = await startHarness(dir.path);
    app = await h.app({ asrEngine: createSimAsrEngine() });
    await app.start();
    await app.session.establish();
  });
  afterAll(async () => {
    await app?.stop();
    await h?.close();
    dir.remove();
  });

  it('sends asr notices for open/pause/resume/close, synced words per final line and a dot notice per bookmark', async () => {
    const rec = await app.initRecording({ mode: 0 });
    await app.recorder.start();
    await new Promise((r) => setTimeout(r, 1300));
    await app.recorder.mark();
    await app.recorder.pause();
    await app.recorder.start();
    await app.recorder.finish();
    await app.asr.settled();
    const mine = h.server.notices().filter((n) => n.body.meeting_id === rec.id);
    const asr = mine.filter((n) => n.route === 'asrNotice').map((n) => n.body.status);
    expect(asr).toEqual(['started', 'paused', 'resumed', 'stopped']);
    const words = mine.filter((n) => n.route === 'syncWords');
    expect(words.length).toBeGreaterThanOrEqual(1);
    expect(words[0]?.body).toMatchObject({
      seq: 0,
      words: [{ text: 'good morning everyone', start_ms: 0, end_ms: 1000 }],
    });
    const dots = mine.filter((n) => n.route === 'dotNotice');
    expect(dots).toHaveLength(1);
    expect(dots[0]?.body.at_ms).toBeGreaterThanOrEqual(1000);
    expect(app.asr.state).toBe('closed');
    await app.telemetry.flush();
    expect(received(h.server, 'ai_record_mark')).toHaveLength(1);
  });
});
