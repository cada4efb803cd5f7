import { Worker } from 'node:worker_threads';
import { ApplianceError } from '../../core/errors.js';
import type { PinHash } from '../../core/ports/pin-hash.js';

/** A `PinHash` with a thread of its own; `close()` ends the thread (a later hash starts another). */
export interface LowPriorityPinHash extends PinHash {
  close(): Promise<void>;
}

export interface LowPriorityPinHashOptions {
  /** The thread ends after this long without work (default 30 000 ms); the next hash starts it again. */
  idleMs?: number;
  /** The thread's nice value on Linux (default 19, the lowest priority). */
  nice?: number;
}

// Source text, so that the thread survives bundling into one file. On Linux the nice value belongs
// to a thread, and `os.setPriority(0, n)` sets the calling thread's: only this thread is lowered.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { pbkdf2Sync } = require('node:crypto');
if (process.platform === 'linux') {
  try { require('node:os').setPriority(0, workerData.nice); } catch {}
}
parentPort.on('message', (m) => {
  try {
    const hash = pbkdf2Sync(m.pin, m.salt, m.iterations, 32, 'sha256');
    parentPort.postMessage({ id: m.id, hash });
  } catch (error) {
    parentPort.postMessage({ id: m.id, error: String((error && error.message) || error) });
  }
});
`;

/**
 * PBKDF2-HMAC-SHA256 of PINs on one thread of its own at nice 19. On a device the PIN is hashed
 * while the setup network's DNS and DHCP servers answer phones: on libuv's thread pool the hashes
 * ran at the same priority as those servers, and 8 concurrent PIN posts took the DNS p99 from
 * about 0.9 ms to 5 ms on two cores. At nice 19 the scheduler runs the servers first; the hashes
 * take the time that is left (on an idle device, all of it). One hash runs at a time.
 */
export function createLowPriorityPinHash(options: LowPriorityPinHashOptions = {}): LowPriorityPinHash {
  const idleMs = options.idleMs ?? 30_000;
  const nice = options.nice ?? 19;
  let worker: Worker | null = null;
  let idle: NodeJS.Timeout | null = null;
  let seq = 0;
  // each hash with the thread it was sent to: a thread ended when idle may report its exit after a
  // new thread has taken the next hash, and that hash is not its to fail
  const pending = new Map<number, { resolve(b: Buffer): void; reject(e: Error): void; on: Worker }>();

  /** Rejects the hashes sent to `on` (every hash without it). */
  const failAll = (why: string, on?: Worker) => {
    const error = new ApplianceError('APPLIANCE_PIN_HASH', `the PIN hashing thread stopped: ${why}`);
    for (const [id, p] of pending) {
      if (on && p.on !== on) continue;
      pending.delete(id);
      p.reject(error);
    }
  };

  const start = (): Worker => {
    const w = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { nice },
      // it only hashes: a small heap keeps the process's RSS down
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 },
      stdout: false,
      stderr: false,
    });
    w.on('message', (m: { id: number; hash?: Uint8Array; error?: string }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.hash) p.resolve(Buffer.from(m.hash.buffer, m.hash.byteOffset, m.hash.byteLength));
      else p.reject(new ApplianceError('APPLIANCE_PIN_HASH', `PIN hash failed: ${m.error}`));
      settle();
    });
    w.on('error', (error) => {
      if (worker === w) worker = null;
      failAll(error.message, w);
    });
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      failAll(`exit code ${code}`, w);
    });
    return w;
  };

  /** Idle: the thread no longer holds the process open, and ends after `idleMs`. */
  const settle = () => {
    if (pending.size || !worker) return;
    worker.unref();
    const w = worker;
    idle = setTimeout(() => {
      if (worker === w && pending.size === 0) {
        worker = null;
        void w.terminate();
      }
    }, idleMs);
    idle.unref();
  };

  const hash = ((pin: Uint8Array, salt: Uint8Array, iterations: number) => {
    if (idle) {
      clearTimeout(idle);
      idle = null;
    }
    worker ??= start();
    // a hash under way keeps the process alive, as one on the thread pool does
    worker.ref();
    const id = ++seq;
    const w = worker;
    return new Promise<Buffer>((resolve, reject) => {
      pending.set(id, { resolve, reject, on: w });
      // copies of just these bytes: cloning a Buffer sends its whole backing store (often the 8 KiB pool)
      w.postMessage({ id, pin: Uint8Array.from(pin), salt: Uint8Array.from(salt), iterations });
    });
  }) as LowPriorityPinHash;

  hash.close = async () => {
    if (idle) clearTimeout(idle);
    idle = null;
    const w = worker;
    worker = null;
    if (w) {
      await w.terminate();
      failAll('closed');
    }
  };
  return hash;
}
