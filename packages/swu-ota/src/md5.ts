import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** A streaming MD5 that may run beside the caller's own work. */
export interface Md5Stream {
  /**
   * Adds bytes. `transfer` allows the bytes' ArrayBuffer to be moved to the worker (the caller must
   * not use the chunk afterwards). Resolves at once unless too much is in flight (backpressure).
   */
  update(chunk: Uint8Array, transfer?: boolean): Promise<void> | undefined;
  digest(): Promise<string>;
  close(): void;
}

/** MD5 on the calling thread. */
export function createMd5(): Md5Stream {
  const h = crypto.createHash('md5');
  return {
    update(chunk) {
      h.update(chunk);
      return undefined;
    },
    digest: async () => h.digest('hex'),
    close() {},
  };
}

// The worker is given as source text so that it survives bundling into a single file.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const h = require('node:crypto').createHash('md5');
parentPort.on('message', (m) => {
  if (m === 'digest') { parentPort.postMessage({ digest: h.digest('hex') }); return; }
  h.update(new Uint8Array(m));
  parentPort.postMessage(m.byteLength);
});
`;

/** Bytes that may wait for the worker before `update` asks the caller to wait. */
const IN_FLIGHT_LIMIT = 8 * 1024 * 1024;

/**
 * MD5 in a worker thread, so that a second core hashes while the caller parses and runs sha256.
 * Memory stays bounded: at most 8 MiB are in flight.
 */
export function createMd5Worker(): Md5Stream {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  let inFlight = 0;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  let onDigest: ((d: string) => void) | undefined;
  let onFail: ((e: Error) => void) | undefined;
  worker.on('message', (m: number | { digest: string }) => {
    if (typeof m === 'number') {
      inFlight -= m;
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
  return {
    update(chunk, transfer = false) {
      if (failure) throw failure;
      let ab: ArrayBuffer;
      if (
        transfer &&
        chunk.byteOffset === 0 &&
        chunk.byteLength === chunk.buffer.byteLength &&
        chunk.buffer instanceof ArrayBuffer
      ) {
        ab = chunk.buffer;
      } else {
        ab = new ArrayBuffer(chunk.byteLength);
        new Uint8Array(ab).set(chunk);
      }
      inFlight += ab.byteLength;
      worker.postMessage(ab, [ab]);
      if (inFlight <= IN_FLIGHT_LIMIT) return undefined;
      return new Promise<void>((resolve) => {
        wake = resolve;
      });
    },
    digest() {
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
