// Experiment (BENCH_BATCH=1): the same responder as serve.mjs, behind udp_batch.c instead of
// node:dgram. Per-source rate limit as in the server (a token bucket per source, here keyed by the
// 32-bit IPv4 address, the clock read once per batch). Prints {"port":N}; argv[2] is the addon.
import { createRequire } from 'node:module';
import { createCaptiveDnsResponder } from '@waved/captive-dns';

const { listen } = createRequire(import.meta.url)(process.argv[2]);
const responder = createCaptiveDnsResponder({ answer: '192.168.2.1' });
const BATCH = 64;
const SLOT = 2048;
const inBytes = Buffer.alloc(BATCH * SLOT);
const outBytes = Buffer.alloc(BATCH * SLOT);
const metaBytes = Buffer.alloc(BATCH * 16);
const meta = new Int32Array(metaBytes.buffer, metaBytes.byteOffset, BATCH * 4);
const rate = 1e9 / 1000; // per ms, as serve.mjs: a limit no benchmark reaches
const burst = 2e9;
const buckets = new Map();
let udpQueries = 0;
let rateLimited = 0;

const port = listen(
  (n) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      udpQueries++;
      const length = meta[i * 4];
      if (length < 0) continue; // truncated: larger than a slot
      const source = meta[i * 4 + 1];
      let b = buckets.get(source);
      if (b === undefined) {
        b = { tokens: burst, last: t };
        buckets.set(source, b);
      }
      b.tokens = Math.min(b.tokens + (t - b.last) * rate, burst);
      b.last = t;
      if (b.tokens < 1) {
        rateLimited++;
        continue;
      }
      b.tokens--;
      const reply = responder.respond(inBytes.subarray(i * SLOT, i * SLOT + length), 'udp');
      if (reply === null || reply.length > SLOT) continue;
      outBytes.set(reply, i * SLOT);
      meta[i * 4 + 3] = reply.length;
    }
  },
  inBytes,
  outBytes,
  metaBytes,
  0,
);
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => {
  process.stderr.write(`${JSON.stringify({ ...responder.counters(), udpQueries, rateLimited })}\n`);
  process.exit(0);
});
