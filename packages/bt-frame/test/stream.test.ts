import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { type DecodedFrame, encodeFrame, type FrameFault, FrameParser } from '../src/index.js';
import { frame, plain } from './helpers.js';

describe('FrameParser (Transform)', () => {
  it('turns chunks into frame objects and dropped frames into fault events', async () => {
    const bad = encodeFrame(frame(2, 1));
    bad[4] = 9;
    const stream = Buffer.concat([
      encodeFrame(frame(1, 1, 2)),
      bad,
      Buffer.from([0x75]),
      encodeFrame(frame(3, 3)),
    ]);
    const chunks = [stream.subarray(0, 3), stream.subarray(3, 9), stream.subarray(9)];
    const parser = new FrameParser();
    const frames: DecodedFrame[] = [];
    const faults: FrameFault[] = [];
    parser.on('fault', (f: FrameFault) => faults.push(f));
    parser.on('data', (f: DecodedFrame) => frames.push(f));
    await pipeline(Readable.from(chunks), parser);
    expect(plain(frames)).toEqual([
      { type: 1, payload: [1, 2] },
      { type: 3, payload: [3] },
    ]);
    expect(faults.map((f) => f.code)).toEqual(['BT_FRAME_CHECKSUM']);
    expect(parser.decoder.counters.frames).toBe(2);
  });

  it('expires a stalled partial frame on its own timer', async () => {
    const parser = new FrameParser({ partialTimeoutMs: 30 });
    const frames: DecodedFrame[] = [];
    const faults: FrameFault[] = [];
    parser.on('data', (f: DecodedFrame) => frames.push(f));
    parser.on('fault', (f: FrameFault) => faults.push(f));
    parser.write(Buffer.concat([Buffer.from([0xdc, 0xcd, 80]), encodeFrame(frame(1, 0x42))]));
    await new Promise((r) => setTimeout(r, 15));
    expect(frames).toEqual([]);
    await new Promise((r) => setTimeout(r, 60));
    expect(plain(frames)).toEqual([{ type: 1, payload: [0x42] }]);
    expect(faults.map((f) => f.code)).toEqual(['BT_FRAME_TIMEOUT']);
    parser.destroy();
  });
});
