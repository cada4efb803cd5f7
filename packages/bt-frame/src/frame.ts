import { BtFrameError } from './errors.js';

/**
 * Frame on the serial line between the host and the Bluetooth module:
 *
 * ```
 * +--------+--------+--------+-----------------+----------+
 * | start0 | start1 | length | payload (length)| checksum |
 * +--------+--------+--------+-----------------+----------+
 * ```
 *
 * start bytes `0x75 0x46` (type 1), `0x75 0x45` (type 2), `0xDC 0xCD` (type 3); one length byte
 * (0..255, the payload only); checksum = 8-bit sum of the length byte and every payload byte
 * (docs/decisions.md, "BT checksum").
 */
export type FrameType = 1 | 2 | 3;

export interface Frame {
  readonly type: FrameType;
  readonly payload: Uint8Array;
}

/** A frame as the decoders return it: the payload is always a private copy. */
export interface DecodedFrame extends Frame {
  readonly payload: Buffer;
}

/** Start byte pairs per frame type. */
export const FRAME_START_BYTES: Readonly<Record<FrameType, readonly [number, number]>> = Object.freeze({
  1: Object.freeze([0x75, 0x46] as const),
  2: Object.freeze([0x75, 0x45] as const),
  3: Object.freeze([0xdc, 0xcd] as const),
});

/** Start bytes + length byte + checksum byte. */
export const FRAME_OVERHEAD = 4;
/** The length field is one byte. */
export const FRAME_MAX_PAYLOAD = 0xff;
/** Largest encoded frame (259 bytes). */
export const FRAME_MAX_LENGTH = FRAME_MAX_PAYLOAD + FRAME_OVERHEAD;

/** The frame type whose start bytes are `b0 b1`, or 0 when they are not a frame header. */
export function frameTypeOf(b0: number, b1: number): FrameType | 0 {
  if (b0 === 0x75) {
    if (b1 === 0x46) return 1;
    if (b1 === 0x45) return 2;
    return 0;
  }
  return b0 === 0xdc && b1 === 0xcd ? 3 : 0;
}

/** 8-bit additive checksum over the length byte and the payload (docs/decisions.md, "BT checksum"). */
export function frameChecksum(payload: Uint8Array, start = 0, end = payload.length): number {
  let sum = end - start;
  for (let i = start; i < end; i++) sum += payload[i]!;
  return sum & 0xff;
}

function checkFrame(frame: Frame): void {
  if (frame === null || typeof frame !== 'object' || !(frame.payload instanceof Uint8Array)) {
    throw new BtFrameError('BT_FRAME_PAYLOAD_LENGTH', 'frame.payload must be a Uint8Array');
  }
  if (frame.type !== 1 && frame.type !== 2 && frame.type !== 3) {
    throw new BtFrameError('BT_FRAME_TYPE', `frame type must be 1, 2 or 3, got ${String(frame.type)}`);
  }
  if (frame.payload.length > FRAME_MAX_PAYLOAD) {
    throw new BtFrameError(
      'BT_FRAME_PAYLOAD_LENGTH',
      `payload of ${frame.payload.length} bytes does not fit the one-byte length field (max ${FRAME_MAX_PAYLOAD}); split it`,
    );
  }
}

/** Encoded size of `frame` in bytes (payload + 4). */
export function frameLength(frame: Frame): number {
  checkFrame(frame);
  return frame.payload.length + FRAME_OVERHEAD;
}

/**
 * Encodes `frame` into `buf` at `offset` (or into a new Buffer) and returns the buffer written.
 * The number of bytes written is always `frameLength(frame)`.
 */
export function encodeFrame<T extends Uint8Array = Buffer>(frame: Frame, buf?: T, offset = 0): T {
  const size = frameLength(frame);
  const out = (buf ?? Buffer.allocUnsafe(size)) as T;
  if (!Number.isInteger(offset) || offset < 0 || offset + size > out.length) {
    throw new BtFrameError(
      'BT_FRAME_TRUNCATED',
      `a ${size}-byte frame does not fit a ${out.length}-byte buffer at offset ${offset}`,
    );
  }
  const [s0, s1] = FRAME_START_BYTES[frame.type];
  const n = frame.payload.length;
  out[offset] = s0;
  out[offset + 1] = s1;
  out[offset + 2] = n;
  out.set(frame.payload, offset + 3);
  out[offset + 3 + n] = frameChecksum(frame.payload);
  return out;
}

/**
 * Decodes one frame that starts exactly at `offset`. Returns the frame and the number of bytes it
 * took. Throws `BT_FRAME_START`, `BT_FRAME_TRUNCATED` or `BT_FRAME_CHECKSUM`. For a byte stream
 * with noise use `createFrameDecoder`.
 */
export function decodeFrame(buf: Uint8Array, offset = 0): { value: DecodedFrame; bytes: number } {
  if (!(buf instanceof Uint8Array))
    throw new BtFrameError('BT_FRAME_TRUNCATED', 'input must be a Uint8Array');
  if (!Number.isInteger(offset) || offset < 0) {
    throw new BtFrameError('BT_FRAME_TRUNCATED', `offset must be a non-negative integer, got ${offset}`);
  }
  if (offset + 3 > buf.length) {
    throw new BtFrameError(
      'BT_FRAME_TRUNCATED',
      `need 3 header bytes at offset ${offset}, have ${buf.length - offset}`,
    );
  }
  const type = frameTypeOf(buf[offset]!, buf[offset + 1]!);
  if (type === 0) {
    throw new BtFrameError(
      'BT_FRAME_START',
      `bytes ${hex(buf[offset]!)} ${hex(buf[offset + 1]!)} at offset ${offset} are not a frame start (75 46, 75 45 or dc cd)`,
    );
  }
  const n = buf[offset + 2]!;
  const end = offset + 3 + n;
  if (end + 1 > buf.length) {
    throw new BtFrameError(
      'BT_FRAME_TRUNCATED',
      `frame declares ${n} payload bytes but only ${Math.max(0, buf.length - offset - 4)} follow`,
    );
  }
  const expected = frameChecksum(buf, offset + 3, end);
  const actual = buf[end]!;
  if (expected !== actual) {
    throw new BtFrameError('BT_FRAME_CHECKSUM', `checksum ${hex(actual)} does not match ${hex(expected)}`);
  }
  return { value: { type, payload: Buffer.from(buf.subarray(offset + 3, end)) }, bytes: n + FRAME_OVERHEAD };
}

function hex(b: number): string {
  return b.toString(16).padStart(2, '0');
}
