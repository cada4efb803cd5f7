import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Listening } from '@waved/captive-dns';
import { ApplianceError } from '../../core/errors.js';
import type { Logger } from '../../core/log/logger.js';

export interface CaptiveDnsThreadOptions {
  /** The address every name resolves to (the AP's). */
  answer: string;
  /** The address to bind. */
  address: string;
  /** UDP and TCP port (0: a free one, reported in `port`). */
  port: number;
  logger?: Logger | undefined;
  /**
   * The thread's entry module. Default: `dns-thread.js` (dist/) or `dns-thread.mjs` (the device
   * bundle) next to this code.
   */
  entry?: URL | undefined;
  /** How long the thread may take to bind (default 10 000 ms). */
  startTimeoutMs?: number | undefined;
}

/** The captive DNS responder running on its own thread. */
export interface CaptiveDnsThread extends Listening {
  close(): Promise<void>;
}

/** The thread's entry module next to this code, or null when there is none (this code runs from src/). */
export function captiveDnsThreadEntry(): URL | null {
  for (const name of ['dns-thread.js', 'dns-thread.mjs']) {
    const url = new URL(`./${name}`, import.meta.url);
    if (existsSync(url)) return url;
  }
  return null;
}

type FromThread =
  | { log: 'debug' | 'info' | 'warn' | 'error'; message: string; fields?: Record<string, unknown> }
  | { listening: Listening }
  | { failed: { message: string; code?: string } };

/**
 * Starts @waved/captive-dns on a worker thread of its own, with its own event loop and heap. On the
 * device's main thread the portal parses forms, writes settings and collects garbage, and every DNS
 * answer waited behind that work: during 8 concurrent PIN posts the DNS p99 went from about 0.9 ms
 * to 5 ms. On its own thread the responder answers whatever the portal is doing.
 *
 * Rejects like `CaptiveDns.listen()` (a `CaptiveDnsError` with code `CAPTIVE_DNS_LISTEN`) when the
 * port cannot be bound, and with `APPLIANCE_DNS_THREAD` when the thread cannot start.
 */
export async function startCaptiveDnsThread(options: CaptiveDnsThreadOptions): Promise<CaptiveDnsThread> {
  const entry = options.entry ?? captiveDnsThreadEntry();
  if (!entry)
    throw new ApplianceError(
      'APPLIANCE_DNS_THREAD',
      'the captive DNS thread has no entry module (dns-thread.js) next to the appliance code: build it (npm run build)',
    );
  const log = options.logger;
  const worker = new Worker(entry, {
    workerData: { answer: options.answer, address: options.address, port: options.port },
    // a small young generation: the responder allocates little, and RSS stays down
    resourceLimits: { maxYoungGenerationSizeMb: 2 },
  });
  let state: 'starting' | 'listening' | 'closing' | 'closed' = 'starting';
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  const listening = await new Promise<Listening>((resolve, reject) => {
    const fail = (error: Error) => {
      clearTimeout(timer);
      state = 'closed';
      void worker.terminate();
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(
          new ApplianceError(
            'APPLIANCE_DNS_THREAD',
            `the captive DNS thread did not start within ${options.startTimeoutMs ?? 10_000} ms`,
          ),
        ),
      options.startTimeoutMs ?? 10_000,
    );
    worker.on('message', (m: FromThread) => {
      if ('log' in m) log?.[m.log]?.(m.message, m.fields);
      else if ('listening' in m && state === 'starting') {
        clearTimeout(timer);
        state = 'listening';
        resolve(m.listening);
      } else if ('failed' in m && state === 'starting') {
        void import('@waved/captive-dns').then(({ CaptiveDnsError }) =>
          fail(
            m.failed.code === 'CAPTIVE_DNS_LISTEN'
              ? new CaptiveDnsError('CAPTIVE_DNS_LISTEN', m.failed.message)
              : new ApplianceError('APPLIANCE_DNS_THREAD', m.failed.message),
          ),
        );
      }
    });
    worker.on('error', (error) => {
      if (state === 'starting')
        fail(
          new ApplianceError('APPLIANCE_DNS_THREAD', `the captive DNS thread failed: ${error.message}`, {
            cause: error,
          }),
        );
      else log?.error?.(`captive DNS thread failed: ${error.message}`);
    });
    worker.on('exit', (code) => {
      const was = state;
      state = 'closed';
      if (was === 'starting')
        fail(new ApplianceError('APPLIANCE_DNS_THREAD', `the captive DNS thread exited (${code})`));
      else if (was === 'listening')
        log?.error?.(`captive DNS thread exited (${code}): DNS on the setup network is down`);
    });
  });

  return {
    ...listening,
    async close() {
      if (state !== 'listening') return;
      state = 'closing';
      worker.postMessage('close');
      // the thread ends once its sockets are closed; one that does not is ended after 3 s
      const timer = setTimeout(() => void worker.terminate(), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
