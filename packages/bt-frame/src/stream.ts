import { Transform, type TransformCallback } from 'node:stream';
import {
  createFrameDecoder,
  type DecodeResult,
  type FrameDecoder,
  type FrameDecoderOptions,
} from './decoder.js';

export interface FrameParserOptions extends FrameDecoderOptions {}

/**
 * A thin `Transform` around `createFrameDecoder` for `port.pipe(new FrameParser())`: bytes in,
 * `{ type, payload }` objects out. Dropped frames are emitted as `'fault'` events (a `FrameFault`),
 * never as stream errors. With `partialTimeoutMs`, a timer expires a stalled partial frame even
 * when no more bytes arrive. The decoder and its counters are on `.decoder`.
 */
export class FrameParser extends Transform {
  readonly decoder: FrameDecoder;
  #timer: NodeJS.Timeout | undefined;
  readonly #now: () => number;

  constructor(options: FrameParserOptions = {}) {
    super({ readableObjectMode: true });
    this.decoder = createFrameDecoder(options);
    this.#now = options.now ?? Date.now;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#deliver(this.decoder.push(chunk));
    this.#arm();
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.#disarm();
    this.#deliver(this.decoder.flush());
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#disarm();
    callback(error);
  }

  #deliver(r: DecodeResult): void {
    for (const f of r.frames) this.push(f);
    for (const e of r.errors) this.emit('fault', e);
  }

  #arm(): void {
    this.#disarm();
    const at = this.decoder.expiresAt;
    if (at === undefined) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#deliver(this.decoder.poll());
        this.#arm();
      },
      Math.max(0, at - this.#now()),
    );
    this.#timer.unref();
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
