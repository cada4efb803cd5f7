import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** A streaming MD5 that may run beside the caller's own work. */
export interface Md5Stream {
  /**
   * Adds bytes. With `transfer`, the ArrayBuffer under `chunk` is moved to the worker and handed
   * back through `onReturn` once hashed (the caller must not touch it meanwhile). Returns a promise
   * when too much is in flight (backpressure): wait for it before the next update.
   */
  update(chunk: Uint8Array, transfer?: boolean): Promise<void> | undefined;
  digest(): Promise<string>;
  close(): void;
}

/** MD5 on the calling thread. */
export function createMd5(onReturn?: (buffer: ArrayBuffer) => void): Md5Stream {
  const h = crypto.createHash('md5');
  return {
    update(chunk, transfer) {
      h.update(chunk);
      if (transfer) onReturn?.(chunk.buffer as ArrayBuffer);
      return undefined;
    },
    digest: async () => h.digest('hex'),
    close() {},
  };
}

// The worker is given as source text so that it survives bundling into a single file. It hashes
// each buffer and sends it back, so the caller can reuse a small fixed set of buffers.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const h = require('node:crypto').createHash('md5');
parentPort.on('message', (m) => {
  if (m === 'digest') { parentPort.postMessage({ digest: h.digest('hex') }); return; }
  h.update(new Uint8Array(m.ab, 0, m.len));
  parentPort.postMessage(m, [m.ab]);
});
`;

/** Bytes that may wait for the worker before `update` asks the caller to wait. */
const IN_FLIGHT_LIMIT = 2 * 1024 * 1024;
/** Chunks smaller than this are gathered into one message. */
const BATCH = 256 * 1024;

/**
 * MD5 in a worker thread, so that a second core hashes while the caller parses and runs sha256.
 * Memory stays bounded: at most 2 MiB are in flight.
 */
export function createMd5Worker(onReturn?: (buffer: ArrayBuffer) => void): Md5Stream {
  // The worker only hashes: a small heap keeps the process's peak RSS down (about 4 MB less).
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
  });
  let inFlight = 0;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  let onDigest: ((d: string) => void) | undefined;
  let onFail: ((e: Error) => void) | undefined;
  const ours = new WeakSet<ArrayBuffer>();
  worker.on('message', (m: { ab: ArrayBuffer; len: number } | { digest: string }) => {
    if ('ab' in m) {
      inFlight -= m.len;
      if (!ours.has(m.ab)) onReturn?.(m.ab);
      if (wake && inFlight <= IN_FLIGHT_LIMIT / 2) {
        const w = wake;
        wake = undefined;
        w();
      }
    } else onDigest?.(m.digest);
  });
  worker.on('error', (e) => {
    failure = e;
    wake?.();
    onFail?.(e);
  });

  let batch: ArrayBuffer | undefined;
  let batched = 0;
  const post = (ab: ArrayBuffer, len: number): Promise<void> | undefined => {
    inFlight += len;
    worker.postMessage({ ab, len }, [ab]);
    if (inFlight <= IN_FLIGHT_LIMIT) return undefined;
    return new Promise<void>((resolve) => {
      wake = resolve;
    });
  };
  const flush = (): Promise<void> | undefined => {
    if (!batch || batched === 0) return undefined;
    const ab = batch;
    const len = batched;
    batch = undefined;
    batched = 0;
    return post(ab, len);
  };
  const both = (a: Promise<void> | undefined, b: Promise<void> | undefined) =>
    a && b ? Promise.all([a, b]).then(() => undefined) : (a ?? b);

  return {
    update(chunk, transfer = false) {
      if (failure) throw failure;
      if (transfer && chunk.buffer instanceof ArrayBuffer && chunk.byteOffset === 0) {
        return both(flush(), post(chunk.buffer, chunk.byteLength));
      }
      if (chunk.byteLength >= BATCH) {
        const copy = new ArrayBuffer(chunk.byteLength);
        new Uint8Array(copy).set(chunk);
        ours.add(copy);
        return both(flush(), post(copy, chunk.byteLength));
      }
      let wait: Promise<void> | undefined;
      if (batch && batched + chunk.byteLength > BATCH) wait = flush();
      if (!batch) {
        batch = new ArrayBuffer(BATCH);
        ours.add(batch);
      }
      new Uint8Array(batch, batched).set(chunk);
      batched += chunk.byteLength;
      return wait;
    },
    digest() {
      void flush();
      return new Promise<string>((resolve, reject) => {
        if (failure) {
          reject(failure);
          return;
        }
        onDigest = resolve;
        onFail = reject;
        worker.postMessage('digest');
      });
    },
    close() {
      void worker.terminate();
    },
  };
}
