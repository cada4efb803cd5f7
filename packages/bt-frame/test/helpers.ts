import { EventEmitter } from 'node:events';
import {
  createFrameDecoder,
  type DecodedFrame,
  encodeFrame,
  type Frame,
  type FrameType,
} from '../src/index.js';

export function frame(type: FrameType, ...payload: number[]): Frame {
  return { type, payload: Uint8Array.from(payload) };
}

export function bytes(...frames: Frame[]): Buffer {
  return Buffer.concat(frames.map((f) => encodeFrame(f)));
}

export function plain(frames: readonly DecodedFrame[]): { type: number; payload: number[] }[] {
  return frames.map((f) => ({ type: f.type, payload: [...f.payload] }));
}

/** Naive reference: at every offset try a complete valid frame, else skip one byte. */
export function oracle(b: Uint8Array, maxPayload = 255): { type: number; payload: number[] }[] {
  const out: { type: number; payload: number[] }[] = [];
  let i = 0;
  while (i < b.length) {
    const t =
      b[i] === 0x75 && b[i + 1] === 0x46
        ? 1
        : b[i] === 0x75 && b[i + 1] === 0x45
          ? 2
          : b[i] === 0xdc && b[i + 1] === 0xcd
            ? 3
            : 0;
    if (t && i + 2 < b.length) {
      const n = b[i + 2]!;
      if (n <= maxPayload && i + 3 + n < b.length) {
        let sum = n;
        for (let k = i + 3; k < i + 3 + n; k++) sum += b[k]!;
        if ((sum & 0xff) === b[i + 3 + n]) {
          out.push({ type: t, payload: [...b.subarray(i + 3, i + 3 + n)] });
          i += 4 + n;
          continue;
        }
      }
    }
    i++;
  }
  return out;
}

/** Decodes `stream` fed in the given chunk sizes, then flushes. */
export function decodeChunked(stream: Uint8Array, cuts: readonly number[], maxPayload?: number) {
  const d = createFrameDecoder(maxPayload === undefined ? {} : { maxPayload });
  const frames: DecodedFrame[] = [];
  const errors: string[] = [];
  let at = 0;
  for (const cut of [...cuts, stream.length]) {
    const end = Math.min(stream.length, Math.max(at, cut));
    const r = d.push(stream.subarray(at, end));
    frames.push(...r.frames);
    errors.push(...r.errors.map((e) => e.code));
    at = end;
  }
  const r = d.flush();
  frames.push(...r.frames);
  errors.push(...r.errors.map((e) => e.code));
  return { frames, errors, decoder: d };
}

/**
 * An in-memory serial port with a scripted module on the far end: `reply(frame bytes)` sends bytes
 * to the host, `written` collects what the host wrote, `onCommand` sees each decoded command.
 */
export function fakePort() {
  const ee = new EventEmitter();
  const written: Buffer[] = [];
  const moduleSide = createFrameDecoder();
  const commands: DecodedFrame[] = [];
  let onCommand: (f: DecodedFrame) => void = () => {};
  let drainError: Error | undefined;
  let isOpen = true;
  const port = {
    get isOpen() {
      return isOpen;
    },
    write(data: Buffer, cb?: (e?: Error | null) => void) {
      written.push(Buffer.from(data));
      const r = moduleSide.push(data);
      queueMicrotask(() => {
        cb?.(null);
        for (const f of r.frames) {
          commands.push(f);
          onCommand(f);
        }
      });
      return true;
    },
    on(event: string, listener: (...args: never[]) => void) {
      ee.on(event, listener as (...args: unknown[]) => void);
      return port;
    },
    removeListener(event: string, listener: (...args: never[]) => void) {
      ee.removeListener(event, listener as (...args: unknown[]) => void);
      return port;
    },
    drain(cb?: (e?: Error | null) => void) {
      queueMicrotask(() => cb?.(drainError ?? null));
    },
    close(cb?: (e?: Error | null) => void) {
      isOpen = false;
      queueMicrotask(() => {
        ee.emit('close');
        cb?.(null);
      });
    },
  };
  return {
    port,
    written,
    commands,
    listeners: (event: string) => ee.listenerCount(event),
    reply(data: Uint8Array) {
      ee.emit('data', Buffer.from(data));
    },
    emit(event: string, ...args: unknown[]) {
      ee.emit(event, ...args);
    },
    onCommand(fn: (f: DecodedFrame) => void) {
      onCommand = fn;
    },
    hangUp() {
      drainError = new Error('Input/output error, cannot drain');
    },
  };
}

/** A clock on the global timers, read at each call: vi.useFakeTimers() takes it over. */
export const globalClock = {
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number): unknown => globalThis.setTimeout(fn, ms),
  clearTimeout: (h: unknown) => globalThis.clearTimeout(h as NodeJS.Timeout),
};
