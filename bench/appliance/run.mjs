#!/usr/bin/env node
// bench/appliance: (1) idle RSS of `waved sim` against a bare `node` process, (2) form submit ->
// Connected latency on the simulated radio. Needs a build (`npm run build`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ratio, startRecord } from '../lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.resolve(here, '../../apps/appliance/bin/waved.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function rssKiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

function start(args) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise((r) => child.on('exit', r));
  return { child, exited, out: () => out };
}

async function until(pred, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await pred();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median RSS of five samples 200 ms apart. */
async function sampleRss(pid) {
  const samples = [];
  for (let i = 0; i < 5; i++) {
    samples.push(rssKiB(pid));
    await sleep(200);
  }
  return median(samples);
}

// Whatever happens, every sim started here is stopped and its data directory removed.
const sims = new Set();
process.on('exit', () => {
  for (const sim of sims) {
    sim.child.kill('SIGKILL');
    fs.rmSync(sim.data, { recursive: true, force: true });
  }
});

/** `waved sim` on a free portal port with a private data directory; `flags` go before --data-dir. */
async function startSim(flags) {
  const port = await freePort();
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'waved-bench-'));
  const sim = start([
    bin,
    'sim',
    '--port',
    String(port),
    '--screen-port',
    '0',
    ...flags,
    '--data-dir',
    data,
    '--exit-after',
    '60000',
  ]);
  const handle = { ...sim, port, data };
  sims.add(handle);
  sim.exited.then(() => {
    sims.delete(handle);
    fs.rmSync(data, { recursive: true, force: true });
  });
  return handle;
}

async function idleRss(extra) {
  const sim = await startSim(['--no-screen', ...extra]);
  // generous: a busy 2-core machine starts it slowly
  await until(() => sim.out().includes('portal: '), 60_000, 'waved sim');
  await sleep(4000); // settle: JIT, first polls, the AP session when auto setup is on
  const rss = await sampleRss(sim.child.pid);
  sim.child.kill('SIGTERM');
  await sim.exited;
  fs.rmSync(sim.data, { recursive: true, force: true });
  return rss;
}

async function bareRss() {
  const peer = start(['-e', 'setTimeout(() => {}, 60000)']);
  await sleep(1500);
  const rss = await sampleRss(peer.child.pid);
  peer.child.kill('SIGTERM');
  await peer.exited;
  return rss;
}

async function submitToConnected() {
  const sim = await startSim(['--no-cloud', '--no-screen']);
  const { port, data } = sim;
  const form = await until(
    async () => {
      const r = await fetch(`http://127.0.0.1:${port}/`).catch(() => null);
      return r?.status === 200 ? r.text() : null;
    },
    60_000,
    'the form',
  );
  const csrf =
    /name="csrf"[^>]*value="([^"]+)"/.exec(form)?.[1] ?? /value="([^"]+)"[^>]*name="csrf"/.exec(form)?.[1];
  const before = sim.out().length;
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/save-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ csrf, 'wifi.ssid': 'Home', 'wifi.passphrase': 'correct horse' }).toString(),
  });
  const tResponse = performance.now() - t0;
  if (res.status !== 200) throw new Error(`POST answered ${res.status}`);
  await until(
    () => sim.out().slice(before).includes('connected to the configured network'),
    60_000,
    'Connected',
  );
  const tConnected = performance.now() - t0;
  sim.child.kill('SIGTERM');
  await sim.exited;
  fs.rmSync(data, { recursive: true, force: true });
  return { tResponse, tConnected };
}

if (!fs.existsSync(path.resolve(here, '../../apps/appliance/dist/cli.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

const record = startRecord('appliance', {
  method:
    'idle RSS: median of five /proc samples 200 ms apart, after 4 s of settling, median of runs; latency: median of runs',
});
record.side(
  'ours',
  'node apps/appliance/bin/waved.js sim --no-screen … (three configurations, see the labels)',
);
record.side('peer', "node -e 'setTimeout(() => {}, 60000)' (a bare Node process)");
const bare = [];
const idle = [];
const idleAp = [];
const full = [];
for (let i = 0; i < Math.max(1, Math.min(RUNS, 3)); i++) {
  bare.push(await bareRss());
  idle.push(await idleRss(['--no-auto-setup', '--no-cloud']));
  idleAp.push(await idleRss(['--no-cloud']));
  full.push(await idleRss(['--no-auto-setup']));
}
const b = median(bare);
const s = median(idle);
const a = median(idleAp);
const f = median(full);
console.log(`idle RSS  bare node: ${(b / 1024).toFixed(1)} MiB`);
console.log(
  `idle RSS  waved sim, Wi-Fi core (--no-cloud, station mode): ${(s / 1024).toFixed(1)} MiB  ratio ${(s / b).toFixed(2)}x bare node`,
);
console.log(
  `idle RSS  waved sim, Wi-Fi core with the setup network up (DNS, DHCP, portal bound): ${(a / 1024).toFixed(1)} MiB  ratio ${(a / b).toFixed(2)}x bare node`,
);
console.log(
  `idle RSS  waved sim as npm start runs it (plus device application and reference cloud server): ${(f / 1024).toFixed(1)} MiB  ratio ${(f / b).toFixed(2)}x bare node`,
);

const lat = [];
for (let i = 0; i < RUNS; i++) lat.push(await submitToConnected());
const resp = median(lat.map((l) => l.tResponse));
const conn = median(lat.map((l) => l.tConnected));
// Built-in waits on this path: 1000 ms for the success page before the AP goes down, 600 ms simulated
// association, 200 ms simulated DHCP (association is event-driven, the address is polled every 250 ms).
const floor = 1000 + 600 + 200;
console.log(`form submit -> HTTP 200: median ${resp.toFixed(1)} ms (${RUNS} runs)`);
console.log(
  `form submit -> Connected: median ${conn.toFixed(0)} ms (${RUNS} runs; designed waits ${floor} ms; overhead ${(conn - floor).toFixed(0)} ms)`,
);
record.note(
  `form submit -> Connected on the simulated radio: median ${conn.toFixed(0)} ms, of which ${floor} ms are designed waits; HTTP 200 after ${resp.toFixed(1)} ms`,
);
record.finish({
  idleRssCore: {
    label: 'idle RSS, Wi-Fi core (--no-cloud, station mode), vs bare node',
    ...ratio(s / 1024, b / 1024, { unit: 'MiB', better: 'lower' }),
  },
  idleRssSetup: {
    label: 'idle RSS, setup network up (DNS, DHCP, portal), vs bare node',
    ...ratio(a / 1024, b / 1024, { unit: 'MiB', better: 'lower' }),
  },
  idleRssFull: {
    label: 'idle RSS as npm start runs it (device application, reference cloud), vs bare node',
    ...ratio(f / 1024, b / 1024, { unit: 'MiB', better: 'lower' }),
  },
  submitToConnectedMs: {
    median: Math.round(conn),
    designedWaits: floor,
    httpResponseMs: Number(resp.toFixed(1)),
  },
});
