import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { tempDir } from '@waved/test-lab';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { arecordArgs, createArecordCapture } from '../../src/adapters/system/audio.js';
import { recoverWav, WavWriter } from '../../src/adapters/system/wav-file.js';
import { DeviceError } from '../../src/domain/device/errors.js';
import { decodeWavHeader, encodeWavHeader, WAV_HEADER_BYTES } from '../../src/domain/device/recording/wav.js';
import { createGeneratedCapture } from '../../src/sim/audio.js';

const format = { sampleRate: 16000, channels: 1, bitsPerSample: 16 };
const dir = tempDir('device-wav-');
afterAll(() => dir.remove());

describe('WAV header', () => {
  it('round-trips and describes 16 kHz mono S16_LE as players expect', () => {
    const h = encodeWavHeader(format, 32000);
    expect(h.subarray(0, 4).toString()).toBe('RIFF');
    expect(h.readUInt32LE(28)).toBe(32000); // byte rate
    expect(h.readUInt16LE(32)).toBe(2); // block align
    expect(decodeWavHeader(h)).toEqual({ format, dataBytes: 32000, riffBytes: 36 + 32000 });
  });

  it('rejects hostile input with DEVICE_WAV and never reads out of bounds (fuzzed)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        try {
          decodeWavHeader(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(DeviceError);
          expect((error as DeviceError).code).toBe('DEVICE_WAV');
        }
      }),
    );
    fc.assert(
      fc.property(fc.nat({ max: WAV_HEADER_BYTES - 1 }), fc.nat({ max: 255 }), (at, value) => {
        const h = encodeWavHeader(format, 100);
        h[at] = value;
        try {
          const r = decodeWavHeader(h);
          expect(r.dataBytes).toBeGreaterThanOrEqual(0);
        } catch (error) {
          expect((error as DeviceError).code).toBe('DEVICE_WAV');
        }
      }),
    );
  });
});

describe('WavWriter and recoverWav', () => {
  it('keeps the header in step with the data at every sync', async () => {
    const file = dir.join('a.wav');
    const w = await WavWriter.create(file, format);
    await w.write(Buffer.alloc(3200, 1));
    expect(decodeWavHeader(fs.readFileSync(file)).dataBytes).toBe(0); // not synced yet
    await w.sync();
    expect(decodeWavHeader(fs.readFileSync(file)).dataBytes).toBe(3200);
    expect(w.syncedBytes).toBe(3200);
    await w.write(Buffer.alloc(1600, 2));
    expect(await w.close()).toEqual({ bytes: 4800, durationMs: 150 });
    expect(decodeWavHeader(fs.readFileSync(file)).dataBytes).toBe(4800);
    await expect(w.write(Buffer.alloc(2))).rejects.toMatchObject({ code: 'DEVICE_RECORDING_IO' });
    await expect(WavWriter.create(file, format)).rejects.toMatchObject({ code: 'DEVICE_RECORDING_IO' });
  });

  it('keeps only the audio the header counts: the tail a power cut leaves past the last sync is dropped', async () => {
    // What ext4 can leave after a cut: the new size committed, the unsynced block never written (zeros).
    const file = dir.join('b.wav');
    const synced = Buffer.alloc(3200, 7);
    fs.writeFileSync(file, Buffer.concat([encodeWavHeader(format, 3200), synced, Buffer.alloc(6400)]));
    expect(await recoverWav(file, format)).toEqual({ bytes: 3200, durationMs: 100 });
    const bytes = fs.readFileSync(file);
    expect(bytes.length).toBe(44 + 3200);
    expect(decodeWavHeader(bytes).dataBytes).toBe(3200);
    expect(bytes.subarray(44).equals(synced)).toBe(true);
  });

  it("falls back to the file size, cut to whole samples, when the header is not the writer's", async () => {
    const file = dir.join('b2.wav');
    fs.writeFileSync(file, Buffer.concat([Buffer.alloc(44, 0xff), Buffer.alloc(32001, 7)]));
    expect(await recoverWav(file, format)).toEqual({ bytes: 32000, durationMs: 1000 });
    const bytes = fs.readFileSync(file);
    expect(bytes.length).toBe(44 + 32000);
    expect(decodeWavHeader(bytes).dataBytes).toBe(32000);

    const short = dir.join('c.wav');
    fs.writeFileSync(short, Buffer.from('RIFF'));
    expect(await recoverWav(short, format)).toEqual({ bytes: 0, durationMs: 0 });
    expect(decodeWavHeader(fs.readFileSync(short)).dataBytes).toBe(0);
  });

  it('syncs the audio before the header that counts it, and the header before it reports the bytes synced', async () => {
    const calls: string[] = [];
    const open = fsp.open.bind(fsp);
    const spy = vi.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
      const handle = await open(...args);
      const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<unknown>;
      const datasync = handle.datasync.bind(handle);
      (handle as unknown as { write: unknown }).write = (...a: unknown[]) => {
        calls.push(`write@${a[3]}`);
        return write(...a);
      };
      handle.datasync = () => {
        calls.push('datasync');
        return datasync();
      };
      return handle;
    });
    try {
      const w = await WavWriter.create(dir.join('order.wav'), format);
      await w.write(Buffer.alloc(1600, 3));
      calls.length = 0;
      await w.sync();
      expect(calls).toEqual(['datasync', 'write@0', 'datasync']);
      expect(w.syncedBytes).toBe(1600);
      await w.close();
    } finally {
      spy.mockRestore();
    }
  });

  it('after a power cut trusts no zero tail past the synced bytes, and never keeps less than them', async () => {
    const audio = (n: number, from = 0) => {
      const b = Buffer.alloc(n);
      for (let i = 0; i < n / 2; i++) b.writeInt16LE(((from + i) % 2000) + 1, i * 2); // never 0
      return b;
    };
    // 1 s synced, then the file came back half a second longer, all zeros (ext4 after a cut)
    const cut = dir.join('cut.wav');
    fs.writeFileSync(cut, Buffer.concat([encodeWavHeader(format, 32000), audio(32000), Buffer.alloc(16000)]));
    expect(await recoverWav(cut, format, 32000)).toEqual({ bytes: 32000, durationMs: 1000 });
    expect(fs.statSync(cut).size).toBe(44 + 32000);
    expect(decodeWavHeader(fs.readFileSync(cut)).dataBytes).toBe(32000);

    // the header reached the disk before its data: it counts 1.5 s, 0.5 s was synced, 1 s is real
    const ahead = dir.join('ahead.wav');
    fs.writeFileSync(
      ahead,
      Buffer.concat([encodeWavHeader(format, 48000), audio(32000), Buffer.alloc(16001)]),
    );
    expect(await recoverWav(ahead, format, 16000)).toEqual({ bytes: 32000, durationMs: 1000 });
    expect(fs.readFileSync(ahead).subarray(44)).toEqual(audio(32000));

    // a silent microphone: zeros that were synced are audio, and are all kept
    const silent = dir.join('silent.wav');
    fs.writeFileSync(silent, Buffer.concat([encodeWavHeader(format, 0), Buffer.alloc(32000 + 6400)]));
    expect(await recoverWav(silent, format, 32000)).toEqual({ bytes: 32000, durationMs: 1000 });

    // a killed process (no cut): the unsynced tail is real audio and is kept, odd sample frames cut
    const killed = dir.join('killed.wav');
    fs.writeFileSync(killed, Buffer.concat([encodeWavHeader(format, 3200), audio(6400), Buffer.from([9])]));
    expect(await recoverWav(killed, format, 3200)).toEqual({ bytes: 6400, durationMs: 200 });
  });
});

describe('audio capture adapters', () => {
  it('runs arecord with raw S16_LE 16 kHz mono and stops it when the recording pauses', async () => {
    expect(arecordArgs('hw:1,0')).toEqual([
      '-q',
      '-t',
      'raw',
      '-f',
      'S16_LE',
      '-r',
      '16000',
      '-c',
      '1',
      '-D',
      'hw:1,0',
    ]);
    const argsFile = dir.join('args');
    const fake = dir.join('arecord');
    fs.writeFileSync(fake, `#!/bin/sh\necho "$@" > ${argsFile}\nexec cat /dev/zero\n`, { mode: 0o755 });
    const abort = new AbortController();
    let bytes = 0;
    for await (const chunk of createArecordCapture({ command: fake }).capture(abort.signal)) {
      bytes += chunk.length;
      if (bytes > 100_000) abort.abort();
    }
    expect(bytes).toBeGreaterThan(100_000);
    expect(fs.readFileSync(argsFile, 'utf8').trim()).toBe('-q -t raw -f S16_LE -r 16000 -c 1');
  });

  it('fails the stream with DEVICE_AUDIO when arecord dies on its own', async () => {
    const fake = dir.join('arecord-bad');
    fs.writeFileSync(
      fake,
      '#!/bin/sh\necho "arecord: main:831: audio open error: No such file or directory" >&2\nexit 1\n',
      {
        mode: 0o755,
      },
    );
    const run = async () => {
      for await (const _ of createArecordCapture({ command: fake }).capture(new AbortController().signal)) {
        // nothing arrives
      }
    };
    await expect(run()).rejects.toMatchObject({
      code: 'DEVICE_AUDIO',
      message: expect.stringContaining('audio open error'),
    });
  });

  it('generates audio in real time', async () => {
    const abort = new AbortController();
    const started = Date.now();
    let bytes = 0;
    for await (const chunk of createGeneratedCapture({ chunkMs: 50 }).capture(abort.signal)) {
      bytes += chunk.length;
      if (bytes >= 32000 * 0.3) abort.abort();
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(bytes).toBe(9600);
  });
});
