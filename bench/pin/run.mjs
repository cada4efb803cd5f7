#!/usr/bin/env node
// bench/pin: DNS answer latency of the setup network while the portal checks device PINs.
//
// The device runs the captive DNS responder and the portal in one process (serve.mjs here, built
// from apps/appliance/dist and composed as the device composes them: the responder on a thread of
// its own, PINs hashed on a thread at nice 19). Each PIN post costs two PBKDF2-SHA256 hashes of
// 100 000 iterations (the current PIN checked, the new one recorded). When they ran with pbkdf2Sync
// on the event loop, 8 concurrent posts took DNS from a 0.4 ms to a 115 ms median. The goal: DNS
// p99 during 8 concurrent PIN posts within 2x its p99 when idle.
//
// Method: one UDP client sends A queries at a steady rate from this process and times each answer;
// 8 posters run in a worker thread, each posting /save with the right current PIN again and again.
// Rounds alternate an idle phase and a phase with the 8 posters, so load from elsewhere on the
// machine hits both alike. The same measurement is also taken against a reference: the responder on
// the main thread of a server that runs the same number of hashes with pbkdf2Sync on its event loop
// (the old code path), to show the measurement sees a blocked loop. CPU per post is the server's, read from /proc.
//
// Short phases, many rounds: a burst of load from elsewhere on the machine falls on both phases
// alike. The headline is the p99 over all rounds of each phase; the spread of the per-round ratios
// is recorded too.
//
// The machine's share: dnsmasq (the DNS server a device maker would otherwise run), in a process of
// its own, is timed the same way in the same rounds, idle and while the same 8 posters post to our
// portal. Its own ratio (during posts / idle) is what the load does to any DNS server on this
// machine, outside our process; ours against it during posts compares like with like.
//
// Environment: BENCH_SECONDS (per phase, default 2), BENCH_ROUNDS (default 8), BENCH_QPS (default
// 150, below the responder's per-source limit of 200/s), BENCH_REFERENCE_ROUNDS (default 2).
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import dnsPacket from 'dns-packet';
import { captiveDnsmasqArgv } from '../lib/dnsmasq.mjs';
import { cpuOf, have, ratio, round, shellLine, spread, startRecord } from '../lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
const qps = Number(process.env.BENCH_QPS ?? 150);
const referenceRounds = Math.min(rounds, Number(process.env.BENCH_REFERENCE_ROUNDS ?? 2));
const POSTERS = 8;
const PIN = '482913';

if (!fs.existsSync(path.resolve(here, '../../apps/appliance/dist/index.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}
if (!have('dnsmasq')) {
  console.error('bench/pin needs dnsmasq on PATH (the DNS server it is compared with)');
  process.exit(1);
}

const children = new Set();
const stopAll = () => {
  for (const c of children) c.kill('SIGKILL');
};
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

/** Starts serve.mjs; resolves with its ports, pid and a `hash(n)` for the reference. */
async function startServer(reference) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waved-bench-pin-'));
  const child = spawn(
    process.execPath,
    [path.join(here, 'serve.mjs'), dir, ...(reference ? ['reference'] : [])],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  children.add(child);
  const info = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`serve.mjs exited ${code}`)));
  });
  return {
    ...info,
    pid: child.pid,
    hash: (n) =>
      new Promise((resolve) => {
        child.once('message', resolve);
        child.send({ hash: n });
      }),
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      children.delete(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** dnsmasq as the captive DNS, logging nowhere. */
const dnsmasqArgv = (port) => captiveDnsmasqArgv(port, '/dev/null');

/** A port free for UDP on 127.0.0.1 (dnsmasq also takes TCP; it fails loudly if that is in use). */
function freeUdpPort() {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket('udp4');
    s.once('error', reject);
    s.bind(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts dnsmasq on a free port; resolves once it answers. */
async function startDnsmasq() {
  const port = await freeUdpPort();
  const [file, ...args] = dnsmasqArgv(port);
  const child = spawn(file, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
  });
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) throw new Error(`dnsmasq exited ${child.exitCode}: ${err}`);
    if ((await measureDns(port, 20, 50)).times.length > 0) {
      return {
        dnsPort: port,
        async stop() {
          child.kill('SIGTERM');
          if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
          children.delete(child);
        },
      };
    }
  }
  throw new Error(`dnsmasq did not answer on port ${port}: ${err}`);
}

/** Sends A queries at `qps` for `ms`; resolves with the answer times (ms) and the count lost. */
function measureDns(port, ms, linger = 1000) {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    const sent = new Map();
    const times = [];
    let id = 0;
    socket.on('message', (msg) => {
      const t = performance.now();
      const qid = msg.readUInt16BE(0);
      const start = sent.get(qid);
      if (start !== undefined) {
        times.push(t - start);
        sent.delete(qid);
      }
    });
    const interval = 1000 / qps;
    const begin = performance.now();
    let next = begin;
    const tick = () => {
      const now = performance.now();
      while (next <= now && now - begin < ms) {
        id = (id + 1) & 0xffff;
        const q = dnsPacket.encode({
          type: 'query',
          id,
          flags: dnsPacket.RECURSION_DESIRED,
          questions: [{ type: 'A', name: `probe${id}.example.com` }],
        });
        sent.set(id, performance.now());
        socket.send(q, port, '127.0.0.1');
        next += interval;
      }
      if (now - begin < ms) setTimeout(tick, Math.max(0, next - performance.now()));
      else
        setTimeout(() => {
          socket.close();
          resolve({ times, lost: sent.size });
        }, linger);
    };
    tick();
  });
}

/** 8 posters in a worker thread (so their HTTP work does not delay the DNS timing here). */
function startPosters(server) {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { url, csrf, pin, posters } = workerData;
    let running = true, done = 0, statuses = {};
    parentPort.on('message', () => { running = false; });
    const body = new URLSearchParams({ csrf, 'security.current_pin': pin, 'security.device_password': pin, 'audio.volume': '50' }).toString();
    async function loop() {
      while (running) {
        const r = await fetch(url + 'save', { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' } });
        await r.arrayBuffer();
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        done++;
      }
    }
    Promise.all(Array.from({ length: posters }, loop)).then(() => parentPort.postMessage({ done, statuses }));
  `;
  const worker = new Worker(code, {
    eval: true,
    workerData: {
      url: `http://127.0.0.1:${server.portalPort}/`,
      csrf: server.csrf,
      pin: PIN,
      posters: POSTERS,
    },
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        worker.once('message', (m) => {
          void worker.terminate();
          resolve(m);
        });
        worker.postMessage('stop');
      }),
  };
}

/** The reference load: 8 hashes at a time with pbkdf2Sync on the server's loop, back to back. */
function startReferenceLoad(server) {
  let running = true;
  let done = 0;
  const loop = (async () => {
    while (running) {
      await server.hash(POSTERS);
      done += POSTERS;
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { done, statuses: { reference: done } };
    },
  };
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : Number.NaN;
};

/** One phase: `load` (if any) runs against `server` while the DNS answers of `dns` are timed. */
async function phase(server, load, dns = server) {
  const cpu0 = cpuOf(server.pid);
  const running = load ? load(server) : null;
  const r = await measureDns(dns.dnsPort, seconds * 1000);
  const posts = running ? await running.stop() : { done: 0, statuses: {} };
  const cpu1 = cpuOf(server.pid);
  return { ...r, posts, cpu: cpu1.user + cpu1.sys - (cpu0.user + cpu0.sys) };
}

const record = startRecord('pin', {
  method:
    `The captive DNS responder and the portal in one process (bench/pin/serve.mjs, from apps/appliance/dist), composed as on the device: the responder on its own thread (startCaptiveDnsThread), PINs hashed on a thread at nice 19 (createLowPriorityPinHash). ` +
    `A UDP client sends ${qps} A queries/s for ${seconds} s per phase and times each answer; rounds alternate an idle phase and a phase with ${POSTERS} concurrent posters ` +
    `(a worker thread posting /save with the right current PIN and a new PIN, back to back: two PBKDF2-SHA256 hashes of 100 000 iterations each). ` +
    `Reference: the responder on the main thread of a server running ${POSTERS} such hashes at a time with pbkdf2Sync on its event loop (the code path before), measured the same way in the first ${referenceRounds} rounds. ` +
    `The machine's share: dnsmasq in its own process, timed the same way idle and while the same posters post to our portal, in the same rounds (the order of ours and dnsmasq alternates by round). ${rounds} rounds.`,
});
record.side(
  'ours',
  'node bench/pin/serve.mjs <dir>  +  8 posters of POST /save (current PIN, new PIN)',
  'portal and captive DNS in one process; DNS on its own thread, PIN hashed on a thread at nice 19',
);
record.side('idle', 'node bench/pin/serve.mjs <dir>, no posts', 'the same server with no PIN posts');
record.side(
  'reference',
  'node bench/pin/serve.mjs <dir> reference  +  8 x pbkdf2Sync(100 000) at a time',
  'DNS on the main thread, the same hashes on its event loop (before)',
);
record.side(
  'peer',
  `${shellLine(dnsmasqArgv('<port>'))}  (idle, and while the same 8 posters post to our portal)`,
  'dnsmasq in its own process: what the same load does to a DNS server outside ours',
);

const server = await startServer(false);
const reference = await startServer(true);
const dnsmasq = await startDnsmasq();
const idleP99 = [];
const loadedP99 = [];
const refP99 = [];
const peerIdleP99 = [];
const peerLoadedP99 = [];
const all = { idle: [], loaded: [], reference: [], peerIdle: [], peerLoaded: [] };
let lost = 0;
let peerLost = 0;
let posts = 0;
let cpu = 0;
const statuses = {};
// warm-up
await measureDns(server.dnsPort, 1000);
await measureDns(reference.dnsPort, 1000);
await measureDns(dnsmasq.dnsPort, 1000);
/** Both DNS servers timed under the same load, ours first in even rounds and dnsmasq first in odd. */
async function pair(i, load) {
  const ours = () => phase(server, load);
  const peer = () => phase(server, load, dnsmasq);
  if (i % 2 === 0) {
    const o = await ours();
    return { ours: o, peer: await peer() };
  }
  const p = await peer();
  return { ours: await ours(), peer: p };
}
for (let i = 0; i < rounds; i++) {
  const { ours: idle, peer: peerIdle } = await pair(i, null);
  const { ours: loaded, peer: peerLoaded } = await pair(i, startPosters);
  const ref = i < referenceRounds ? await phase(reference, startReferenceLoad) : null;
  all.idle.push(...idle.times);
  all.loaded.push(...loaded.times);
  all.peerIdle.push(...peerIdle.times);
  all.peerLoaded.push(...peerLoaded.times);
  if (ref) all.reference.push(...ref.times);
  idleP99.push(pct(idle.times, 99));
  loadedP99.push(pct(loaded.times, 99));
  peerIdleP99.push(pct(peerIdle.times, 99));
  peerLoadedP99.push(pct(peerLoaded.times, 99));
  if (ref) refP99.push(pct(ref.times, 99));
  lost += idle.lost + loaded.lost;
  peerLost += peerIdle.lost + peerLoaded.lost;
  posts += loaded.posts.done;
  cpu += loaded.cpu;
  for (const [s, n] of [
    ...Object.entries(loaded.posts.statuses),
    ...Object.entries(peerLoaded.posts.statuses),
  ])
    statuses[s] = (statuses[s] ?? 0) + n;
  console.log(
    `round ${i + 1}: DNS p99 idle ${idleP99.at(-1).toFixed(2)} ms, during ${loaded.posts.done} PIN posts ${loadedP99.at(-1).toFixed(2)} ms` +
      ` (x${(loadedP99.at(-1) / idleP99.at(-1)).toFixed(2)}); dnsmasq ${peerIdleP99.at(-1).toFixed(2)} -> ${peerLoadedP99.at(-1).toFixed(2)} ms` +
      ` (x${(peerLoadedP99.at(-1) / peerIdleP99.at(-1)).toFixed(2)})${ref ? `; reference (pbkdf2Sync) ${refP99.at(-1).toFixed(2)} ms` : ''}`,
  );
}
await server.stop();
await reference.stop();
await dnsmasq.stop();

const ms = (xs) => ({ p50: round(pct(xs, 50)), p99: round(pct(xs, 99)), n: xs.length });
const p99Idle = pct(all.idle, 99);
const p99Loaded = pct(all.loaded, 99);
const peerP99Idle = pct(all.peerIdle, 99);
const peerP99Loaded = pct(all.peerLoaded, 99);
console.log(`\nDNS answer time, ${qps} q/s, ${rounds} x ${seconds} s per phase:`);
console.log(`  idle                 p50 ${pct(all.idle, 50).toFixed(2)} ms  p99 ${p99Idle.toFixed(2)} ms`);
console.log(
  `  8 PIN posts          p50 ${pct(all.loaded, 50).toFixed(2)} ms  p99 ${p99Loaded.toFixed(2)} ms   (${posts} posts, ${(posts / (rounds * seconds)).toFixed(1)}/s)`,
);
console.log(
  `  reference (sync)     p50 ${pct(all.reference, 50).toFixed(2)} ms  p99 ${pct(all.reference, 99).toFixed(2)} ms`,
);
console.log(
  `  dnsmasq idle         p50 ${pct(all.peerIdle, 50).toFixed(2)} ms  p99 ${peerP99Idle.toFixed(2)} ms`,
);
console.log(
  `  dnsmasq, 8 PIN posts p50 ${pct(all.peerLoaded, 50).toFixed(2)} ms  p99 ${peerP99Loaded.toFixed(2)} ms   (the posts go to our portal)`,
);
console.log(
  `  p99 during posts / idle: ${(p99Loaded / p99Idle).toFixed(2)} (goal <= 2); dnsmasq's own ${(peerP99Loaded / peerP99Idle).toFixed(2)}; ` +
    `ours / dnsmasq during posts ${(p99Loaded / peerP99Loaded).toFixed(2)}; server CPU per post ${((cpu / Math.max(1, posts)) * 1000).toFixed(1)} ms`,
);
console.log(
  `  post answers: ${JSON.stringify(statuses)}; DNS queries lost: ours ${lost}, dnsmasq ${peerLost}`,
);

record.note(
  `post answers by status: ${JSON.stringify(statuses)}; DNS queries lost: ours ${lost}, dnsmasq ${peerLost}`,
);
record.finish({
  dnsP99DuringPinPosts: ratio(p99Loaded, p99Idle, {
    unit: 'ms (p99 during posts / p99 idle)',
    better: 'lower',
  }),
  p99RatioPerRound: spread(loadedP99.map((v, i) => v / idleP99[i])),
  dnsIdle: ms(all.idle),
  dnsDuringPinPosts: ms(all.loaded),
  dnsDuringReferenceSyncHashing: ms(all.reference),
  peerDnsP99DuringPinPosts: {
    label:
      'dnsmasq in its own process: p99 during the same posts / idle (what the load does to a DNS server outside ours)',
    ...ratio(peerP99Loaded, peerP99Idle, { unit: 'ms (p99 during posts / p99 idle)', better: 'lower' }),
  },
  dnsP99DuringPinPostsVsDnsmasq: {
    label: 'DNS p99 during the same posts, ours / dnsmasq in its own process',
    ...ratio(p99Loaded, peerP99Loaded, { unit: 'ms', better: 'lower' }),
  },
  peerP99RatioPerRound: spread(peerLoadedP99.map((v, i) => v / peerIdleP99[i])),
  peerDnsIdle: ms(all.peerIdle),
  peerDnsDuringPinPosts: ms(all.peerLoaded),
  pinPostsPerSecond: round(posts / (rounds * seconds)),
  serverCpuPerPostMs: round((cpu / Math.max(1, posts)) * 1000),
  dnsQueriesLost: lost,
  peerDnsQueriesLost: peerLost,
});
process.exit(0);
