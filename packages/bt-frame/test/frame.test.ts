import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BtFrameError,
  decodeFrame,
  encodeFrame,
  FRAME_MAX_LENGTH,
  type Frame,
  frameChecksum,
  frameLength,
  frameTypeOf,
} from '../src/index.js';
import { frame } from './helpers.js';

/** Encodes into a fresh buffer, into a bigger external buffer at an offset, and decodes both. */
function roundTrip(f: Frame): void {
  const alone = encodeFrame(f);
  expect(alone.length).toBe(frameLength(f));
  const d = decodeFrame(alone);
  expect(d.bytes).toBe(alone.length);
  expect(d.value.type).toBe(f.type);
  expect([...d.value.payload]).toEqual([...f.payload]);

  const external = Buffer.alloc(frameLength(f) + 13, 0xee);
  const out = encodeFrame(f, external, 7);
  expect(out).toBe(external);
  expect(external.subarray(7, 7 + frameLength(f))).toEqual(alone);
  expect(external[6]).toBe(0xee);
  expect(external[7 + frameLength(f)]).toBe(0xee);
  const d2 = decodeFrame(external, 7);
  expect(d2.bytes).toBe(frameLength(f));
  expect([...d2.value.payload]).toEqual([...f.payload]);
}

describe('frame codec', () => {
  it('encodes the spec layout: start bytes, length, payload, additive checksum', () => {
    // bt_get_mac (0x09) as a type-1 frame: checksum = 0x01 + 0x09
    expect([...encodeFrame(frame(1, 0x09))]).toEqual([0x75, 0x46, 0x01, 0x09, 0x0a]);
    expect([...encodeFrame(frame(2, 0x09, 0x00))]).toEqual([0x75, 0x45, 0x02, 0x09, 0x00, 0x0b]);
    expect([...encodeFrame(frame(3))]).toEqual([0xdc, 0xcd, 0x00, 0x00]);
    // the sum wraps at 8 bits: 3 + 0xff + 0xff + 0x03 = 0x204
    expect([...encodeFrame(frame(1, 0xff, 0xff, 0x03))]).toEqual([0x75, 0x46, 0x03, 0xff, 0xff, 0x03, 0x04]);
  });

  it('round-trips every type and payload length, alone and at an offset', () => {
    for (const type of [1, 2, 3] as const) {
      for (const n of [0, 1, 2, 127, 254, 255]) {
        roundTrip({ type, payload: Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff) });
      }
    }
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 3), fc.uint8Array({ maxLength: 255 }), (type, payload) => {
        roundTrip({ type: type as 1 | 2 | 3, payload });
      }),
    );
  });

  it('refuses payloads the length byte cannot describe and unknown types', () => {
    expect(() => encodeFrame({ type: 1, payload: new Uint8Array(256) })).toThrow(
      expect.objectContaining({ code: 'BT_FRAME_PAYLOAD_LENGTH' }),
    );
    expect(() => frameLength({ type: 4 as 1, payload: new Uint8Array(1) })).toThrow(
      expect.objectContaining({ code: 'BT_FRAME_TYPE' }),
    );
    expect(() => encodeFrame(frame(1, 1, 2), Buffer.alloc(6), 1)).toThrow(
      expect.objectContaining({ code: 'BT_FRAME_TRUNCATED' }),
    );
    expect(FRAME_MAX_LENGTH).toBe(259);
  });

  it('decodeFrame reports a bad start, a short buffer and a bad checksum by code', () => {
    const good = encodeFrame(frame(2, 1, 2, 3));
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as BtFrameError).code;
      }
      return 'no error';
    };
    expect(codeOf(() => decodeFrame(Uint8Array.from([0x75, 0x47, 0, 0])))).toBe('BT_FRAME_START');
    expect(codeOf(() => decodeFrame(good.subarray(0, good.length - 1)))).toBe('BT_FRAME_TRUNCATED');
    expect(codeOf(() => decodeFrame(good.subarray(0, 2)))).toBe('BT_FRAME_TRUNCATED');
    expect(codeOf(() => decodeFrame(good, -1))).toBe('BT_FRAME_TRUNCATED');
    const bad = Buffer.from(good);
    bad[bad.length - 1]! ^= 1;
    expect(codeOf(() => decodeFrame(bad))).toBe('BT_FRAME_CHECKSUM');
    bad[bad.length - 1]! ^= 1;
    bad[4]! ^= 0x80; // a payload bit flip is caught too
    expect(codeOf(() => decodeFrame(bad))).toBe('BT_FRAME_CHECKSUM');
  });

  it('decodeFrame never reads out of bounds on arbitrary input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(310), (buf, offset) => {
        try {
          const r = decodeFrame(buf, offset);
          expect(offset + r.bytes).toBeLessThanOrEqual(buf.length);
        } catch (e) {
          expect(e).toBeInstanceOf(BtFrameError);
        }
      }),
    );
  });

  it('returns a payload copy that does not alias the input', () => {
    const b = encodeFrame(frame(1, 5, 6));
    const d = decodeFrame(b);
    b[3] = 0;
    expect([...d.value.payload]).toEqual([5, 6]);
  });

  it('knows the three start pairs and the checksum rule', () => {
    expect([frameTypeOf(0x75, 0x46), frameTypeOf(0x75, 0x45), frameTypeOf(0xdc, 0xcd)]).toEqual([1, 2, 3]);
    expect([frameTypeOf(0x75, 0xcd), frameTypeOf(0xdc, 0x46), frameTypeOf(0x46, 0x75)]).toEqual([0, 0, 0]);
    expect(frameChecksum(Uint8Array.from([0x80, 0x80]))).toBe(2);
  });
});
