#!/usr/bin/env node
// bench/appliance: the runtime of `waved start` (Area A and Area B, on the simulator's radio and
// hardware, with the reference cloud in another process) against a bare `node` process started
// the same way: time from spawn to READY=1 on a real NOTIFY_SOCKET, CPU until then, and idle RSS.
// Also the Wi-Fi service alone (--no-device). Needs `npm run build`. Writes
// bench/results/appliance.json through bench/lib/results.mjs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cpuOf, median, ratio, spread, startRecord } from '../lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const appliance = path.join(repo, 'apps/appliance');
const bin = path.join(appliance, 'bin/waved.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const require = createRequire(path.join(appliance, 'package.json'));
/** @waved/native as the appliance resolves it (its unix datagram socket sends sd_notify). */
const nativeUrl = pathToFileURL(require.resolve('@waved/native')).href;

if (!fs.existsSync(path.join(appliance, 'dist/cli.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

function rssKiB(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}
function cpuSeconds(pid) {
  const { user, sys } = cpuOf(pid);
  return user + sys;
}

// Whatever happens, every process started here is stopped and its data directory removed.
const started = new Set();
process.on('exit', () => {
  for (const { child, dir } of started) {
    child.kill('SIGKILL');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A unix datagram socket as a service manager binds it; resolves the time READY=1 arrives. */
async function notifySocket(file) {
  const { createUnixDatagramSocket } = await import(nativeUrl);
  let onReady = () => {};
  const ready = new Promise((r) => {
    onReady = r;
  });
  const socket = createUnixDatagramSocket();
  socket.bind(file);
  socket.on('message', (msg) => {
    if (msg.toString().startsWith('READY=1')) onReady(performance.now());
  });
  return { ready, close: () => socket.close() };
}

/** Median RSS of five samples 200 ms apart, after `settleMs` of idling. */
async function idleRss(pid, settleMs) {
  await sleep(settleMs);
  const samples = [];
  for (let i = 0; i < 5; i++) {
    samples.push(rssKiB(pid));
    await sleep(200);
  }
  return median(samples);
}

/** One run: spawn, wait for READY=1, idle, sample; the process is stopped with SIGTERM. */
async function measure(args, env = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waved-bench-'));
  const sock = path.join(dir, 'notify.sock');
  const listener = await notifySocket(sock);
  const t0 = performance.now();
  const child = spawn(process.execPath, args(dir), {
    env: { ...process.env, ...env, NOTIFY_SOCKET: sock },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const handle = { child, dir };
  started.add(handle);
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
  });
  const exited = new Promise((r) => child.on('exit', r));
  exited.then(() => started.delete(handle));
  const ready = await Promise.race([
    listener.ready,
    exited.then(() => {
      throw new Error(`exited before READY=1: ${err.slice(-500)}`);
    }),
    sleep(60_000).then(() => {
      throw new Error('no READY=1 in 60 s');
    }),
  ]);
  const cpuAtReady = cpuSeconds(child.pid);
  const rss = await idleRss(child.pid, 3000);
  const cpuIdle = cpuSeconds(child.pid) - cpuAtReady;
  child.kill('SIGTERM');
  await exited;
  listener.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { readyMs: ready - t0, cpuAtReady, rss, cpuIdle };
}

/** The bare peer: the same node, reporting READY=1 on the same socket as soon as it runs. */
const bareScript = `
const { createUnixDatagramSocket } = await import(${JSON.stringify(nativeUrl)});
const s = createUnixDatagramSocket();
s.send('READY=1', process.env.NOTIFY_SOCKET);
setInterval(() => {}, 1e9);
process.on('SIGTERM', () => process.exit(0));
`;
const bareArgs = () => ['--input-type=module', '-e', bareScript];

/** The reference cloud server in its own process (as a real cloud is not in the device). */
async function startCloud() {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { createCloudServer } = await import('@waved/psp-cloud/server');
       const s = await createCloudServer({ devices: [{ serial: 'SIM0001', secret: 'sim-factory-secret' }] })
         .listen({ host: '127.0.0.1', port: 0 });
       console.log(s.url);`,
    ],
    { cwd: appliance, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  started.add({ child });
  const url = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(String(d).trim()));
    child.once('exit', (code) => reject(new Error(`cloud server exited ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

const cloud = await startCloud();
const wavedArgs = (extra) => (dir) => [
  bin,
  'sim',
  ...['--port', '0', '--screen-port', '0', '--no-screen', '--no-auto-setup', '--no-device-demo'],
  ...['--data-dir', dir, '--exit-after', '120000', '--log-level', '1'],
  ...extra,
];
const fullArgs = wavedArgs(['--cloud-url', cloud.url]);
const wifiArgs = wavedArgs(['--no-device']);

const runs = { bare: [], full: [], wifi: [] };
for (let i = 0; i < RUNS; i++) {
  runs.bare.push(await measure(bareArgs));
  runs.full.push(await measure(fullArgs));
  runs.wifi.push(await measure(wifiArgs));
}
cloud.stop();

const fig = (key, side) => spread(runs[side].map((r) => r[key]));
const bare = { ready: fig('readyMs', 'bare'), rss: fig('rss', 'bare'), cpu: fig('cpuAtReady', 'bare') };
const full = { ready: fig('readyMs', 'full'), rss: fig('rss', 'full'), cpu: fig('cpuAtReady', 'full') };
const wifi = { ready: fig('readyMs', 'wifi'), rss: fig('rss', 'wifi'), cpu: fig('cpuAtReady', 'wifi') };
const mib = (kib) => (kib / 1024).toFixed(1);
/** A spread of KiB samples in MiB, the unit of the RSS figures. */
const inMib = (s) => ({ median: s.median / 1024, min: s.min / 1024, max: s.max / 1024, n: s.n });
const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
console.log(`${RUNS} runs each, medians (min-max); load average ${load} on ${os.cpus().length} cores`);
console.log(
  `bare node                 READY=1 ${bare.ready.median.toFixed(0)} ms, CPU ${(bare.cpu.median * 1000).toFixed(0)} ms, idle RSS ${mib(bare.rss.median)} MiB`,
);
for (const [label, r] of [
  ['waved, Area A + B        ', full],
  ['waved, Wi-Fi service only', wifi],
]) {
  console.log(
    `${label} READY=1 ${r.ready.median.toFixed(0)} ms (${r.ready.min.toFixed(0)}-${r.ready.max.toFixed(0)}), CPU ${(r.cpu.median * 1000).toFixed(0)} ms, idle RSS ${mib(r.rss.median)} MiB (${mib(r.rss.min)}-${mib(r.rss.max)})  ratio ${(r.rss.median / bare.rss.median).toFixed(2)}x bare node`,
  );
}
console.log(`goals: idle RSS of the full runtime <= 2.0x bare node; start to READY=1 <= 1000 ms`);

const record = startRecord('appliance', {
  method: `${RUNS} runs per side; READY=1 on a unix datagram NOTIFY_SOCKET, timed from spawn; CPU (user+sys) of the process at READY=1; idle RSS = median of 5 /proc samples 200 ms apart after 3 s of idling; medians of the runs`,
});
record.side(
  'ours',
  `node ${path.relative(repo, bin)} sim --cloud-url <reference server in another process> --no-auto-setup --no-device-demo --port 0 --screen-port 0 --no-screen`,
  'the runtime of waved start (Area A and Area B) on the simulated radio and hardware',
);
record.side('wifiOnly', `node ${path.relative(repo, bin)} sim --no-device …`, 'Area A alone');
record.side(
  'peer',
  'node --input-type=module -e <send READY=1 through @waved/native, then idle>',
  'bare node started the same way',
);
record.finish({
  idleRss: {
    label: 'idle RSS, full runtime (Area A and B), vs bare node (goal <= 2.0x)',
    ...ratio(full.rss.median / 1024, bare.rss.median / 1024, { unit: 'MiB', better: 'lower' }),
    spread: { ours: inMib(full.rss), peer: inMib(bare.rss) },
  },
  idleRssWifiOnly: {
    label: 'idle RSS, Wi-Fi service only, vs bare node',
    ...ratio(wifi.rss.median / 1024, bare.rss.median / 1024, { unit: 'MiB', better: 'lower' }),
    spread: { ours: inMib(wifi.rss), peer: inMib(bare.rss) },
  },
  startToReady: {
    label: 'start to READY=1, full runtime, vs bare node (goal <= 1000 ms)',
    ...ratio(full.ready.median, bare.ready.median, { unit: 'ms', better: 'lower' }),
    spread: { ours: full.ready, peer: bare.ready },
  },
  cpuToReady: {
    label: 'CPU until READY=1, full runtime, vs bare node',
    ...ratio(full.cpu.median, bare.cpu.median, { unit: 's', better: 'lower' }),
    spread: { ours: full.cpu, peer: bare.cpu },
  },
});
