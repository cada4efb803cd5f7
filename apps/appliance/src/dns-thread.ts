// The captive DNS responder on a thread of its own: the entry `startCaptiveDnsThread`
// (adapters/system/dns-thread.ts) starts as a worker. Its options come in `workerData`; log lines
// go to the main thread as messages, and a `close` message closes the sockets, after which the
// thread has nothing left to run and ends.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createCaptiveDns, isCaptiveDnsError } from '@waved/captive-dns';

type Level = 'debug' | 'info' | 'warn' | 'error';

if (isMainThread || !parentPort) {
  process.stderr.write('dns-thread.js is started by waved as a worker thread, not run on its own.\n');
  process.exit(2);
}
const port = parentPort;
const options = workerData as { answer: string; address: string; port: number };

const forward =
  (level: Level) =>
  (message: string, fields?: Record<string, unknown>): void => {
    try {
      port.postMessage({ log: level, message, fields });
    } catch {
      // fields that cannot be cloned: the line without them
      port.postMessage({ log: level, message });
    }
  };

const server = createCaptiveDns({
  answer: options.answer,
  address: options.address,
  port: options.port,
  logger: { debug: forward('debug'), info: forward('info'), warn: forward('warn'), error: forward('error') },
});
port.on('message', (m: unknown) => {
  if (m !== 'close') return;
  void server.close().finally(() => port.close());
});
try {
  const listening = await server.listen();
  port.postMessage({ listening: { address: listening.address, port: listening.port, url: listening.url } });
} catch (error) {
  const code = isCaptiveDnsError(error) ? error.code : undefined;
  port.postMessage({ failed: { message: (error as Error).message, code } });
  port.close();
}
