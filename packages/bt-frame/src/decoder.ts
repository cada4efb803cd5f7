import { BtFrameError } from './errors.js';
import { type DecodedFrame, FRAME_MAX_LENGTH, FRAME_MAX_PAYLOAD, type FrameType } from './frame.js';

/**
 * The parser states of the module's protocol, by their vendor numbers. The decoder reports the state it is waiting in:
 * HEADER2 ("header accepted") is passed through at once when the second start byte matches, so
 * a decoder holding two start bytes is already waiting in LENGTH.
 */
export const PARSER_STATES = Object.freeze({
  START: 1,
  HEADER1: 2,
  HEADER2: 3,
  LENGTH: 4,
  DATA: 5,
  CHECKSUM: 6,
} as const);

export type ParserState = keyof typeof PARSER_STATES;

/** A frame the decoder dropped, and why. Noise bytes between frames are only counted. */
export interface FrameFault {
  /**
   * `BT_FRAME_CHECKSUM`: the checksum byte did not match; `BT_FRAME_LENGTH`: the declared length
   * is above `maxPayload`; `BT_FRAME_TIMEOUT`: the frame did not complete within
   * `partialTimeoutMs`; `BT_FRAME_TRUNCATED`: the stream ended (flush) inside the frame.
   */
  readonly code: 'BT_FRAME_CHECKSUM' | 'BT_FRAME_LENGTH' | 'BT_FRAME_TIMEOUT' | 'BT_FRAME_TRUNCATED';
  readonly type: FrameType;
  /** Declared payload length, or -1 when the length byte never arrived. */
  readonly length: number;
  readonly message: string;
}

export interface DecodeResult {
  readonly frames: readonly DecodedFrame[];
  readonly errors: readonly FrameFault[];
}

export interface FrameDecoderCounters {
  /** Bytes pushed in. */
  bytes: number;
  /** Valid frames emitted. */
  frames: number;
  /** Bytes that were not part of an emitted frame (noise, dropped start bytes). */
  droppedBytes: number;
  checksumErrors: number;
  lengthErrors: number;
  timeouts: number;
  truncated: number;
  /** Candidate frames abandoned (any of the four faults); each one rescans from its second byte. */
  resyncs: number;
}

export interface FrameDecoderOptions {
  /**
   * Largest payload the peer ever sends (0..255, default 255). A header declaring more is
   * rejected at once instead of waiting for bytes that belong to the next frames.
   */
  maxPayload?: number;
  /**
   * Drop a partial frame that has not completed this many milliseconds after its first byte
   * arrived (checked on the next `push` and on `poll`). Off by default.
   */
  partialTimeoutMs?: number;
  /** Clock for the timeout, in milliseconds. Default `Date.now`. */
  now?: () => number;
}

export interface FrameDecoder {
  /** Feeds bytes; returns the frames completed and the frames dropped by this chunk. */
  push(bytes: Uint8Array): DecodeResult;
  /** Applies the partial-frame timeout without new bytes (call it from a timer). */
  poll(): DecodeResult;
  /** End of stream: frames complete inside the pending bytes are emitted, the rest dropped. */
  flush(): DecodeResult;
  /** Forgets pending bytes (counters are kept). */
  reset(): void;
  /** Where the state machine waits (one of PARSER_STATES). */
  readonly state: ParserState;
  /** Bytes held for an incomplete frame; never more than maxPayload + 3. */
  readonly buffered: number;
  /** When `poll()` will drop the pending partial frame (clock ms), or undefined. */
  readonly expiresAt: number | undefined;
  readonly counters: Readonly<FrameDecoderCounters>;
}

const PARTIAL = -1;
/** Shared result for the common case of no dropped frame (frozen: results are read-only). */
const NO_ERRORS: readonly FrameFault[] = Object.freeze([]);

/**
 * A pure, resynchronising decoder for the frame stream: it never throws on input, holds at most
 * one frame's worth of bytes, and after a bad frame rescans from the byte after that frame's first
 * start byte, so a real frame hidden inside a false start is still found.
 */
export function createFrameDecoder(options: FrameDecoderOptions = {}): FrameDecoder {
  const maxPayload = options.maxPayload ?? FRAME_MAX_PAYLOAD;
  if (!Number.isInteger(maxPayload) || maxPayload < 0 || maxPayload > FRAME_MAX_PAYLOAD) {
    throw new BtFrameError('BT_DECODER_OPTIONS', `maxPayload must be an integer 0..255, got ${maxPayload}`);
  }
  const timeoutMs = options.partialTimeoutMs;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new BtFrameError(
      'BT_DECODER_OPTIONS',
      `partialTimeoutMs must be a positive number, got ${timeoutMs}`,
    );
  }
  const now = options.now ?? Date.now;

  const counters: FrameDecoderCounters = {
    bytes: 0,
    frames: 0,
    droppedBytes: 0,
    checksumErrors: 0,
    lengthErrors: 0,
    timeouts: 0,
    truncated: 0,
    resyncs: 0,
  };
  // Pending bytes (< one frame) followed by up to one frame's worth of the next chunk.
  const work = Buffer.alloc(2 * FRAME_MAX_LENGTH);
  let pendingLen = 0;
  let pendingSince = 0;
  // Output of the current call; the scan writes into these.
  let frames: DecodedFrame[] = [];
  let errors: FrameFault[] = NO_ERRORS as FrameFault[];
  // Set by scan() when it stops at an incomplete candidate: the candidate's index.
  let partialAt = PARTIAL;

  function fault(code: FrameFault['code'], type: FrameType, length: number, message: string): void {
    counters.resyncs++;
    if (code === 'BT_FRAME_CHECKSUM') counters.checksumErrors++;
    else if (code === 'BT_FRAME_LENGTH') counters.lengthErrors++;
    else if (code === 'BT_FRAME_TIMEOUT') counters.timeouts++;
    else counters.truncated++;
    if (errors === NO_ERRORS) errors = [];
    errors.push({ code, type, length, message });
  }

  /**
   * Scans b[i..end) for frames whose first byte is before `limit`. Returns where it stopped.
   * When not `final` and a candidate needs bytes past `end`, stops there and sets partialAt.
   * When `final`, such a candidate is dropped as `endCode` and the scan goes on from its 2nd byte.
   */
  function scan(
    b: Uint8Array,
    i: number,
    end: number,
    limit: number,
    final: boolean,
    endCode: 'BT_FRAME_TIMEOUT' | 'BT_FRAME_TRUNCATED',
  ): number {
    partialAt = PARTIAL;
    let dropped = 0;
    while (i < limit) {
      const b0 = b[i]!;
      // Fast path: neither start byte 0 (0x75) nor (0xdc).
      if (b0 !== 0x75 && b0 !== 0xdc) {
        i++;
        dropped++;
        continue;
      }
      // START -> HEADER1: need the second start byte.
      if (i + 1 >= end) {
        if (final) {
          i++;
          dropped++;
          continue;
        }
        partialAt = i;
        break;
      }
      const b1 = b[i + 1]!;
      const type: FrameType | 0 = b0 === 0x75 ? (b1 === 0x46 ? 1 : b1 === 0x45 ? 2 : 0) : b1 === 0xcd ? 3 : 0;
      if (type === 0) {
        i++;
        dropped++;
        continue;
      }
      // HEADER2 (accepted) -> LENGTH
      if (i + 2 >= end) {
        if (final) {
          fault(endCode, type, -1, `type ${type} frame cut off before its length byte`);
          i++;
          dropped++;
          continue;
        }
        partialAt = i;
        break;
      }
      const n = b[i + 2]!;
      if (n > maxPayload) {
        fault(
          'BT_FRAME_LENGTH',
          type,
          n,
          `type ${type} frame declares ${n} payload bytes, above maxPayload ${maxPayload}`,
        );
        i++;
        dropped++;
        continue;
      }
      // LENGTH -> DATA -> CHECKSUM
      const c = i + 3 + n;
      if (c >= end) {
        if (final) {
          fault(endCode, type, n, `type ${type} frame of ${n} payload bytes cut off after ${end - i} bytes`);
          i++;
          dropped++;
          continue;
        }
        partialAt = i;
        break;
      }
      // Checksum and copy in one pass (payload <= 255 bytes: a loop beats subarray + set).
      const payload = Buffer.allocUnsafe(n);
      let sum = n;
      for (let k = i + 3, j = 0; k < c; k++, j++) {
        const v = b[k]!;
        sum += v;
        payload[j] = v;
      }
      if ((sum & 0xff) !== b[c]) {
        fault(
          'BT_FRAME_CHECKSUM',
          type,
          n,
          `type ${type} frame of ${n} payload bytes: checksum ${b[c]} does not match ${sum & 0xff}`,
        );
        i++;
        dropped++;
        continue;
      }
      // CHECKSUM -> START
      frames.push({ type, payload });
      counters.frames++;
      i = c + 1;
    }
    counters.droppedBytes += dropped;
    return i;
  }

  /** Resolves every pending byte as if the stream had ended. */
  function drainPending(code: 'BT_FRAME_TIMEOUT' | 'BT_FRAME_TRUNCATED'): void {
    if (pendingLen === 0) return;
    const n = pendingLen;
    pendingLen = 0;
    scan(work, 0, n, n, true, code);
  }

  function expired(): boolean {
    return timeoutMs !== undefined && pendingLen > 0 && now() - pendingSince >= timeoutMs;
  }

  function result(): DecodeResult {
    const r = { frames, errors };
    frames = [];
    errors = NO_ERRORS as FrameFault[];
    return r;
  }

  function keepTail(src: Uint8Array, from: number, end: number): void {
    // A partial candidate is at most maxPayload + 3 bytes, so it always fits.
    for (let k = from, j = 0; k < end; k++, j++) work[j] = src[k]!;
    pendingLen = end - from;
    if (timeoutMs !== undefined) pendingSince = now();
  }

  function push(bytes: Uint8Array): DecodeResult {
    if (!(bytes instanceof Uint8Array)) {
      throw new BtFrameError('BT_DECODER_OPTIONS', 'push() takes a Uint8Array or Buffer');
    }
    counters.bytes += bytes.length;
    if (expired()) drainPending('BT_FRAME_TIMEOUT');
    let from = 0;
    if (pendingLen > 0) {
      // Candidates starting in the pending bytes need at most one frame's worth of the new chunk.
      const take = Math.min(bytes.length, FRAME_MAX_LENGTH);
      for (let k = 0; k < take; k++) work[pendingLen + k] = bytes[k]!;
      const workLen = pendingLen + take;
      const old = pendingLen;
      const stop = scan(work, 0, workLen, old, false, 'BT_FRAME_TRUNCATED');
      if (partialAt !== PARTIAL) {
        // Only possible when the whole chunk was taken: the tail stays pending.
        work.copyWithin(0, partialAt, workLen);
        pendingLen = workLen - partialAt;
        return result();
      }
      pendingLen = 0;
      from = stop - old;
    }
    scan(bytes, from, bytes.length, bytes.length, false, 'BT_FRAME_TRUNCATED');
    if (partialAt !== PARTIAL) keepTail(bytes, partialAt, bytes.length);
    return result();
  }

  function poll(): DecodeResult {
    if (expired()) drainPending('BT_FRAME_TIMEOUT');
    return result();
  }

  function flush(): DecodeResult {
    drainPending('BT_FRAME_TRUNCATED');
    return result();
  }

  return {
    push,
    poll,
    flush,
    reset() {
      pendingLen = 0;
    },
    get state(): ParserState {
      if (pendingLen === 0) return 'START';
      if (pendingLen === 1) return 'HEADER1';
      if (pendingLen === 2) return 'LENGTH';
      return pendingLen === 3 + work[2]! ? 'CHECKSUM' : 'DATA';
    },
    get buffered() {
      return pendingLen;
    },
    get expiresAt() {
      return timeoutMs !== undefined && pendingLen > 0 ? pendingSince + timeoutMs : undefined;
    },
    counters,
  };
}
