// Serial frames (75 46 / 75 45 / dc cd, length, payload, 8-bit sum), like for like:
//
// 1. Decoding speed: @waved/bt-frame's createFrameDecoder against a plain decoder written from the
//    specification's state table (bench/frame/plain.mjs), both pure functions fed the same chunks
//    of the same generated stream, in alternating order, the same number of rounds each; median
//    and best MB/s and CPU per frame.
// 2. A noisy stream: how many planted frames each recovers (the plain decoder does not rescan a
//    false frame, so a false start swallows the real frames inside it).
// 3. Latency of a module reply at 115 200 baud (86.8 µs a byte) when line noise put a false start
//    (75 45 c8: a header announcing 200 bytes) just before it, through createBtModule, in virtual
//    time: bytes arrive one by one at their place on the wire and the client's timers run on the
//    same clock, so the figure is the protocol's latency, not the machine's. The module client's
//    default partial-frame timeout (100 ms) against the timeout turned off, and a clean line.
//
// Environment: BENCH_BYTES (stream size, default 4 MiB), BENCH_CHUNK (default 1024), BENCH_ROUNDS
// (default 15).
import { createBtModule, createFrameDecoder, encodeFrame } from '@waved/bt-frame';
import { median, ratio, round, spread, startRecord } from '../lib/results.mjs';
import { createPlainDecoder } from './plain.mjs';

const MB = 1e6;
const SIZE = Number(process.env.BENCH_BYTES ?? 4 * 1024 * 1024);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

// Deterministic xorshift so every run measures the same stream.
let seed = 0x2545f491;
function rnd(n) {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
}

function makeStream(bytes, noise) {
  const parts = [];
  const planted = [];
  let size = 0;
  while (size < bytes) {
    if (noise) {
      const junk = Buffer.alloc(rnd(12), 0);
      for (let i = 0; i < junk.length; i++) junk[i] = [0x75, 0xdc, 0x46, 0x45, 0xcd, rnd(256)][rnd(6)];
      parts.push(junk);
      size += junk.length;
    }
    const payload = Buffer.alloc(rnd(256));
    for (let i = 0; i < payload.length; i++) payload[i] = rnd(256);
    const f = encodeFrame({ type: 1 + rnd(3), payload });
    parts.push(f);
    planted.push(f);
    size += f.length;
  }
  return { stream: Buffer.concat(parts), planted };
}

const chunks = (buf) => {
  const out = [];
  for (let at = 0; at < buf.length; at += CHUNK) out.push(buf.subarray(at, at + CHUNK));
  return out;
};

function runOurs(list) {
  const d = createFrameDecoder();
  const got = [];
  for (const c of list) for (const f of d.push(c).frames) got.push(f);
  for (const f of d.flush().frames) got.push(f);
  return got;
}
function runPlain(list) {
  const d = createPlainDecoder();
  const got = [];
  for (const c of list) for (const f of d.push(c)) got.push(f);
  return got;
}
const decoders = { ours: runOurs, plain: runPlain };

function timed(fn, list) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const frames = fn(list);
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000, frames };
}

const record = startRecord('frame', {
  method:
    'Both decoders are pure functions fed the same 1 KiB chunks of the same generated stream, the same number of rounds each in alternating order; median MB/s and CPU per frame. Reply latency in virtual time at 115 200 baud.',
});
record.side('ours', 'createFrameDecoder().push(chunk) for each chunk, then flush()', '@waved/bt-frame');
record.side(
  'peer',
  'bench/frame/plain.mjs: a byte-at-a-time decoder from the specification’s state table, payload copied out per frame',
);

// 1. speed
const clean = makeStream(SIZE, false);
const list = chunks(clean.stream);
const same = (got) =>
  got.length === clean.planted.length &&
  got.every(
    (f, i) => Buffer.compare(encodeFrame({ type: f.type, payload: f.payload }), clean.planted[i]) === 0,
  );
for (const name of Object.keys(decoders)) {
  if (!same(decoders[name](list))) throw new Error(`${name} lost or changed frames on the clean stream`);
  for (let k = 0; k < 3; k++) decoders[name](list); // warm-up (JIT)
}
const runs = { ours: [], plain: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const name of r % 2 ? ['plain', 'ours'] : ['ours', 'plain'])
    runs[name].push(timed(decoders[name], list));
}
const mbps = (ms) => clean.stream.length / MB / (ms / 1000);
const rate = (name) => runs[name].map((x) => mbps(x.ms));
const cpuPerFrameUs = (name) => runs[name].map((x) => (x.cpuMs * 1000) / clean.planted.length);
const pairs = runs.ours.map((x, i) => runs.plain[i].ms / x.ms);

console.log(
  `stream ${(clean.stream.length / MB).toFixed(1)} MB, ${clean.planted.length} frames (payload 0..255 B), ${CHUNK}-byte chunks, ${ROUNDS} rounds each, alternating`,
);
for (const name of ['ours', 'plain']) {
  console.log(
    `  ${name.padEnd(5)}  median ${median(rate(name)).toFixed(1).padStart(7)} MB/s  best ${Math.max(
      ...rate(name),
    )
      .toFixed(1)
      .padStart(7)} MB/s  CPU ${median(cpuPerFrameUs(name)).toFixed(3)} µs/frame`,
  );
}

// 2. noise
const noisy = makeStream(256 * 1024, true);
const key = (f) => encodeFrame({ type: f.type, payload: f.payload }).toString('hex');
const want = new Set(noisy.planted.map((f) => f.toString('hex')));
const recovered = (frames) => frames.filter((f) => want.has(key(f))).length;
const noisyList = chunks(noisy.stream);
const noise = {
  planted: noisy.planted.length,
  ours: recovered(runOurs(noisyList)),
  plain: recovered(runPlain(noisyList)),
};
console.log(
  `noisy stream: planted ${noise.planted}; recovered ours ${noise.ours}, plain ${noise.plain} (a false start swallows the frames inside it)`,
);

// 3. latency in virtual time
const BYTE_US = 1e6 / 11_520; // 115 200 baud, 8N1: 10 bits a byte
async function replyLatency({ falseStart, decoder }) {
  let now = 0; // µs
  const events = [];
  const schedule = (atUs, fn) => {
    const e = { at: atUs, fn, dead: false, seq: events.length };
    events.push(e);
    return e;
  };
  // the module client's clock, in virtual time: its command timeout and its decoder's partial-frame
  // timeout both run on it
  const clock = {
    now: () => now / 1000,
    setTimeout: (fn, ms) => schedule(now + ms * 1000, fn),
    clearTimeout: (e) => {
      if (e) e.dead = true;
    },
  };
  const listeners = {};
  let lastByteAt = 0;
  const reply = encodeFrame({ type: 2, payload: Buffer.from([0x0e, 0x01, 0x02, 0x03]) });
  const port = {
    write(buf, cb) {
      // the command leaves at line rate; the module answers 1 ms after its last byte
      const start = now + buf.length * BYTE_US + 1000;
      const wire = Buffer.concat([falseStart ? Buffer.from([0x75, 0x45, 200]) : Buffer.alloc(0), reply]);
      for (let i = 0; i < wire.length; i++) {
        const at = start + (i + 1) * BYTE_US;
        schedule(at, () => listeners.data?.(wire.subarray(i, i + 1)));
        lastByteAt = at;
      }
      queueMicrotask(() => cb?.());
      return true;
    },
    on(event, fn) {
      listeners[event] = fn;
      return port;
    },
    removeListener() {
      return port;
    },
  };
  const m = createBtModule({
    port,
    probeIntervalMs: 0,
    timeoutMs: 2000,
    clock,
    decoder,
  });
  let resolvedAt;
  let failure;
  m.send(0x0e).then(
    () => {
      resolvedAt = now;
    },
    (e) => {
      failure = e.code;
      resolvedAt = now;
    },
  );
  while (resolvedAt === undefined) {
    await new Promise((r) => setImmediate(r)); // let promise callbacks run
    if (resolvedAt !== undefined) break;
    const next = events.filter((e) => !e.dead).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
    if (!next) break;
    next.dead = true;
    now = Math.max(now, next.at);
    next.fn();
  }
  await m.close();
  return { ms: (resolvedAt - lastByteAt) / 1000, failure };
}
const latency = {
  clean: await replyLatency({ falseStart: false, decoder: {} }),
  falseStartDefault: await replyLatency({ falseStart: true, decoder: {} }),
  falseStartOff: await replyLatency({ falseStart: true, decoder: { partialTimeoutMs: undefined } }),
};
// A clean line, and the default partial-frame timeout behind a false start, must give the reply: if
// not, the client (or this harness) is broken, and no figure is written.
for (const [name, l] of [
  ['clean line', latency.clean],
  ['false start, default partial-frame timeout', latency.falseStartDefault],
]) {
  if (l.failure) {
    console.error(
      `reply latency, ${name}: no reply (${l.failure}); the module client or this benchmark is broken`,
    );
    process.exit(1);
  }
}
const latencyText = (l) =>
  l.failure ? `no reply (${l.failure} after the 2 s command timeout)` : `${l.ms.toFixed(2)} ms`;
console.log('reply latency at 115 200 baud after the reply’s last byte (virtual time):');
console.log(`  clean line                                  ${latencyText(latency.clean)}`);
console.log(`  false start 75 45 c8, default (100 ms)      ${latencyText(latency.falseStartDefault)}`);
console.log(`  false start 75 45 c8, partial timeout off   ${latencyText(latency.falseStartOff)}`);

const figures = {
  decodeRate: {
    label: 'decoding speed (median of rounds, MB/s; higher is better)',
    ...ratio(median(rate('ours')), median(rate('plain')), { unit: 'MB/s', better: 'higher' }),
    spread: spread(pairs.map((x) => round(x))),
  },
  cpuPerFrame: {
    label: 'CPU per frame',
    ...ratio(median(cpuPerFrameUs('ours')), median(cpuPerFrameUs('plain')), { unit: 'µs', better: 'lower' }),
  },
  noisyRecovered: {
    label: `planted frames recovered from a noisy stream (of ${noise.planted})`,
    ...ratio(noise.ours, noise.plain, { unit: 'frames', better: 'higher' }),
  },
  replyLatency: {
    label: 'module reply latency after a false start, 115 200 baud (ms after its last byte)',
    clean: round(latency.clean.ms),
    falseStartDefaultTimeout: round(latency.falseStartDefault.ms),
    falseStartTimeoutOff: latency.falseStartOff.failure ?? round(latency.falseStartOff.ms),
  },
};
record.note(
  `module reply at 115 200 baud (virtual time, after the reply’s last byte): clean line ${latencyText(latency.clean)}; behind the false start 75 45 c8 with the client’s default 100 ms partial-frame timeout ${latencyText(latency.falseStartDefault)}; with the timeout off ${latencyText(latency.falseStartOff)}`,
);
console.log(
  `ratio ours/plain: ${figures.decodeRate.ratio}x MB/s (median; rounds ${figures.decodeRate.spread.min}–${figures.decodeRate.spread.max}), CPU per frame ${figures.cpuPerFrame.ratio}x`,
);
record.finish(figures);
