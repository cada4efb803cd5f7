import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { type Peer, startPeer, tempDir, waitFor } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeWavHeader } from '../../src/domain/device/recording/wav.js';
import { generatedSample } from '../../src/sim/audio.js';
import { type Harness, received, startHarness } from './helpers.js';

const hooks = fileURLToPath(import.meta.resolve('@waved/test-lab/ts-hooks'));
const child = fileURLToPath(new URL('./fixtures/device-child.ts', import.meta.url));

describe('kill -9 while recording', () => {
  const dir = tempDir('device-rec-kill-');
  let h: Harness;
  const peers: Peer[] = [];
  afterAll(async () => {
    for (const p of peers) await p.stop(200);
    await h?.close();
    dir.remove();
  });

  it('loses at most the last second of audio and never the database', async () => {
    h = await startHarness(dir.path);
    const p = startPeer(process.execPath, [
      '--no-warnings',
      '--import',
      hooks,
      child,
      'record',
      dir.path,
      h.url,
    ]);
    peers.push(p);
    const synced = () => [...p.output().matchAll(/synced (\d+)/g)].map((m) => Number(m[1]));
    await waitFor(() => (synced().at(-1) ?? 0) >= 1500, {
      timeoutMs: 20_000,
      what: `the child to record 1.5 s: ${p.output().slice(-300)}`,
    });
    const id = /recording ([0-9a-f-]{36})/.exec(p.output())?.[1] as string;
    process.kill(p.pid, 'SIGKILL');
    expect(await p.exited).toBeNull();
    // what the child had made durable last, as it reported before the kill
    const lastSynced = synced().at(-1) as number;

    const wav = dir.join('recordings', 'default', `${id}-001.wav`);
    const db = new DatabaseSync(dir.join('recordings', 'default', 'recordings.db'), { readOnly: true });
    expect({ ...db.prepare('PRAGMA integrity_check').get() }).toEqual({ integrity_check: 'ok' });
    expect({ ...db.prepare('SELECT state FROM recordings WHERE id = ?').get(id) }).toEqual({
      state: 'recording',
    });
    db.close();

    const app = await h.app();
    await app.start();
    expect(app.boot?.crashed).toBe(true);
    const row = app.recorder.list().find((r) => r.id === id);
    expect(row).toMatchObject({ state: 'interrupted', recovered: true });
    const [file] = app.recorder.files(id);
    expect(file).toMatchObject({ state: 'recovered', uploadStatus: 'pending' });

    const bytes = fs.readFileSync(wav);
    const { dataBytes } = decodeWavHeader(bytes);
    expect(dataBytes).toBe(bytes.length - 44);
    expect(dataBytes % 2).toBe(0);
    expect(file?.bytes).toBe(dataBytes);
    const recoveredMs = (dataBytes / 32000) * 1000;
    // at most one second lost relative to what was durable, and nothing invented
    expect(recoveredMs).toBeGreaterThanOrEqual(lastSynced);
    expect(recoveredMs).toBeLessThan(lastSynced + 1000 + 500);
    for (let i = 0; i < dataBytes / 2; i += 101)
      expect(bytes.readInt16LE(44 + i * 2)).toBe(generatedSample(i));

    // the recovered recording goes to the cloud like any other
    await app.session.establish();
    await app.uploader.run();
    expect(app.recorder.list().find((r) => r.id === id)?.cloudState).toBe('transcribing');
    expect(h.server.uploads().find((u) => u.meetingId === id)?.size).toBe(bytes.length);
    await app.stop();
    expect(received(h.server, 'system_crash')).toHaveLength(1);
    expect(received(h.server, 'ai_record_end').find((e) => e.params.record_id === id)?.params.file_size).toBe(
      dataBytes,
    );
  });
});
