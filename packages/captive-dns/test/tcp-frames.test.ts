import { expect, it } from 'vitest';
import { createFrameDecoder, encodeFrame } from '../src/tcp-frames.js';

const messages = [Buffer.from('first message'), Buffer.alloc(0), Buffer.alloc(40, 7), Buffer.from([1])];
const stream = Buffer.concat(messages.map((m) => encodeFrame(m)));

it('decodes pipelined messages split at every possible pair of chunk boundaries', () => {
  for (let a = 0; a <= stream.length; a++) {
    for (let b = a; b <= stream.length; b += 7) {
      const d = createFrameDecoder();
      const out = [stream.subarray(0, a), stream.subarray(a, b), stream.subarray(b)].flatMap((c) =>
        d.push(c),
      );
      expect(out).toEqual(messages);
      expect(d.pending()).toBe(0);
    }
  }
});

it('decodes a stream fed one byte at a time, and holds only the incomplete frame', () => {
  const d = createFrameDecoder();
  const out: Buffer[] = [];
  for (let i = 0; i < stream.length; i++) {
    out.push(...d.push(stream.subarray(i, i + 1)));
    expect(d.pending()).toBeLessThanOrEqual(2 + 40);
  }
  expect(out).toEqual(messages);
});

it('returned messages do not alias the caller chunk', () => {
  const d = createFrameDecoder();
  const chunk = Buffer.from(encodeFrame(Buffer.from('abc')));
  const [m] = d.push(chunk);
  chunk.fill(0);
  expect(m!.toString()).toBe('abc');
});

it('a maximal 65 535-byte frame is held until complete, never more', () => {
  const d = createFrameDecoder();
  const big = encodeFrame(Buffer.alloc(0xffff, 1));
  expect(d.push(big.subarray(0, 40_000))).toEqual([]);
  expect(d.pending()).toBe(40_000);
  const out = d.push(big.subarray(40_000));
  expect(out[0]).toHaveLength(0xffff);
  expect(d.pending()).toBe(0);
});
