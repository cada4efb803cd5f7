// Queries per second: @waved/captive-dns against dnsmasq (--address=/#/ --local=/#/), both measured by
// dnsperf with the same query file, flags and duration, in the same run, on loopback.
//
// Both servers are started once, warmed up with the same short dnsperf run, then measured in rounds
// that alternate which goes first (dnsmasq–ours, ours–dnsmasq, …), so a burst of load from elsewhere
// on the machine hits both alike. Each round gives a paired ratio ours/dnsmasq; the summary gives the
// best and the median rate of each, the median paired ratio, lost queries, and the CPU time each server
// (and dnsperf) spent per query, read from /proc. Every process started here is stopped by its PID,
// also on Ctrl-C.
//
// "ours" is the server with its default transport (the native batch transport when the addon is
// built, else node:dgram; the line says which); "dgram" is the same server with transport: 'dgram',
// measured in the same rounds, as a second figure.
//
// Two variants by default: dnsperf -c 1 (the command: one source port) and -c 4 (four source
// ports). Environment: BENCH_SECONDS (per dnsperf run, default 4), BENCH_ROUNDS (rounds per variant,
// default 4), BENCH_CLIENTS (dnsperf -c values, default "1,4"), BENCH_DNSPERF (extra dnsperf flags),
// BENCH_STRICT=1 (exit 1 when the goal is not met), BENCH_DGRAM=0 (skip the dgram line),
// BENCH_FLOOR=1 (also measure floor.mjs, a bare node:dgram responder with no parsing or policy: what
// Node's UDP machinery alone costs per query).
import { spawn, spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codecBench } from './codec.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const clients = (process.env.BENCH_CLIENTS ?? '1,4').split(',').map(Number);
const extra = (process.env.BENCH_DNSPERF ?? '').split(/\s+/).filter(Boolean);
const queryFile = path.join(here, 'queries.txt');
const flagsFor = (c, l = seconds) => [
  '-d',
  queryFile,
  '-l',
  String(l),
  '-c',
  String(c),
  '-T',
  '1',
  '-q',
  '100',
  ...extra,
];

for (const program of ['dnsperf', 'dnsmasq']) {
  if (spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0) {
    console.error(`bench/dns needs ${program} on PATH`);
    process.exit(1);
  }
}

// ---- process bookkeeping: everything started here is stopped by PID, whatever happens.
const children = new Set();
function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}
function killAll(signal) {
  for (const child of children) {
    try {
      // dnsperf runs in its own process group (sh wrapper + dnsperf): signal the group.
      if (child.group) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {}
  }
}
process.on('exit', () => killAll('SIGKILL'));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killAll('SIGTERM');
    process.exit(130);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  // A port free on both UDP and TCP (dnsmasq and our server take both).
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Ready when it answers a real query over UDP.
async function waitForAnswer(port, child) {
  const query = Buffer.from('12340100000100000000000005726561647900' + '00010001', 'hex');
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before answering`);
    const answered = await new Promise((resolve) => {
      const sock = dgram.createSocket('udp4');
      const timer = setTimeout(() => {
        sock.close();
        resolve(false);
      }, 100);
      sock.on('message', () => {
        clearTimeout(timer);
        sock.close();
        resolve(true);
      });
      sock.on('error', () => {});
      sock.send(query, port, '127.0.0.1');
    });
    if (answered) return;
  }
  throw new Error(`no answer on port ${port}`);
}

// CPU time (user, system) a process has used, in seconds, from /proc/<pid>/stat (fields 14, 15).
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / TICKS, sys: Number(fields[12]) / TICKS };
}

function collect(child) {
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d) => {
    out.stdout += d;
  });
  child.stderr?.on('data', (d) => {
    out.stderr += d;
  });
  return out;
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

async function startDnsmasq() {
  const port = await freePort();
  // -k keeps dnsmasq in the foreground: it is our child, stopped by its PID.
  const child = track(
    spawn(
      'dnsmasq',
      [
        '-k',
        '--conf-file=/dev/null',
        '--no-resolv',
        '--no-hosts',
        '--listen-address=127.0.0.1',
        '--bind-interfaces',
        `--port=${port}`,
        '--address=/#/192.168.2.1',
        '--local=/#/',
        '--cache-size=0',
        '--pid-file=',
        '--log-facility=-',
        '--user=root',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    ),
  );
  const out = collect(child);
  try {
    await waitForAnswer(port, child);
  } catch (error) {
    await stopChild(child);
    throw new Error(`dnsmasq did not start: ${error.message}\n${out.stderr}`);
  }
  return { port, pid: child.pid, stop: () => stopChild(child) };
}

async function startNode(script, ...args) {
  const child = track(
    spawn(process.execPath, [path.join(here, script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  const out = collect(child);
  for (let i = 0; i < 250 && !out.stdout.includes('\n') && child.exitCode === null; i++) await sleep(20);
  if (!out.stdout.includes('\n')) {
    await stopChild(child);
    throw new Error(`${script} did not start: ${out.stderr}`);
  }
  const { port, transport } = JSON.parse(out.stdout);
  await waitForAnswer(port, child);
  return {
    port,
    transport,
    pid: child.pid,
    async stop() {
      await stopChild(child);
      return out.stderr.trim();
    },
  };
}

// One dnsperf run; its own CPU time comes from the wrapping shell's counters for waited-for children.
function dnsperf(port, flags) {
  return new Promise((resolve, reject) => {
    const child = track(
      spawn(
        'sh',
        [
          '-c',
          'dnsperf "$@"; s=$?; cat /proc/$$/stat >&2; exit $s',
          'sh',
          '-s',
          '127.0.0.1',
          '-p',
          String(port),
          ...flags,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
      ),
    );
    child.group = true;
    const out = collect(child);
    child.on('exit', (code) => {
      const text = out.stdout;
      const num = (re) => Number(re.exec(text)?.[1]);
      const stat = out.stderr.slice(out.stderr.lastIndexOf(')') + 2).split(' ');
      const r = {
        qps: num(/Queries per second:\s+([\d.]+)/),
        sent: num(/Queries sent:\s+(\d+)/),
        completed: num(/Queries completed:\s+(\d+)/),
        lost: num(/Queries lost:\s+(\d+)/),
        latencyMs: num(/Average Latency \(s\):\s+([\d.]+)/) * 1000,
        codes: /Response codes:\s+(.*)/.exec(text)?.[1] ?? '',
        dnsperfCpu: (Number(stat[13]) + Number(stat[14])) / TICKS,
      };
      if (code !== 0 || Number.isNaN(r.qps) || Number.isNaN(r.sent)) {
        reject(new Error(`dnsperf failed (${code}):\n${text}${out.stderr}`));
      } else resolve(r);
    });
  });
}

async function measure(server, flags) {
  const before = cpuSeconds(server.pid);
  const r = await dnsperf(server.port, flags);
  const after = cpuSeconds(server.pid);
  const perQuery = (s) => (s / r.sent) * 1e6;
  r.userUs = perQuery(after.user - before.user);
  r.sysUs = perQuery(after.sys - before.sys);
  r.cpuUs = r.userUs + r.sysUs;
  r.dnsperfUs = perQuery(r.dnsperfCpu);
  return r;
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x) => x.toFixed(0).padStart(7);
const us = (x) => `${x.toFixed(1)} µs`;
const show = (flags) => flags.map((f) => (f === queryFile ? 'bench/dns/queries.txt' : f)).join(' ');

console.log(
  `${os.cpus().length} CPUs shared by dnsperf, the server and whatever else runs; load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const codec = codecBench();
console.log(
  `codec only (in-process, no sockets): template path ${fmt(codec.template)} replies/s, dns-packet decode+encode ${fmt(codec.dnsPacket)} replies/s (${(codec.template / codec.dnsPacket).toFixed(1)}x)`,
);

const names = [
  'dnsmasq',
  'ours',
  ...(process.env.BENCH_DGRAM === '0' ? [] : ['dgram']),
  ...(process.env.BENCH_FLOOR === '1' ? ['floor'] : []),
];
const servers = {};
const verdicts = [];
let trouble = null;
try {
  servers.dnsmasq = await startDnsmasq();
  servers.ours = await startNode('serve.mjs');
  console.log(`ours: @waved/captive-dns with its default transport, here '${servers.ours.transport}'`);
  if (names.includes('dgram')) servers.dgram = await startNode('serve.mjs', 'dgram');
  if (names.includes('floor')) servers.floor = await startNode('floor.mjs');
  for (const c of clients) {
    const flags = flagsFor(c);
    console.log(
      `\ndnsperf -s 127.0.0.1 -p <port> ${show(flags)}   (${rounds} rounds, order rotated each round)`,
    );
    for (const who of names) await dnsperf(servers[who].port, flagsFor(c, 1)); // warm-up
    const runs = Object.fromEntries(names.map((who) => [who, []]));
    const ratios = [];
    const pairs = Object.fromEntries(names.map((who) => [who, []]));
    for (let round = 0; round < rounds; round++) {
      // dnsmasq, ours | ours, dnsmasq | … (with the floor: a rotation, reversed every other round).
      const rotated = names.map((_, i) => names[(i + Math.floor(round / 2)) % names.length]);
      const order = round % 2 === 0 ? rotated : rotated.reverse();
      for (const who of order) {
        const r = await measure(servers[who], flags);
        runs[who].push(r);
        console.log(
          `  round ${round + 1} ${who.padEnd(7)} ${fmt(r.qps)} q/s  lost ${r.lost}/${r.sent}  latency ${r.latencyMs.toFixed(2)} ms  server CPU ${us(r.cpuUs)}/query (user ${us(r.userUs)}, sys ${us(r.sysUs)})  dnsperf CPU ${us(r.dnsperfUs)}/query  ${r.codes}`,
        );
        if (!/^NOERROR \d+ \(100\.00%\)\s*$/.test(r.codes))
          throw new Error(`${who}: unexpected response codes: ${r.codes}`);
      }
      ratios.push(runs.ours[round].qps / runs.dnsmasq[round].qps);
      for (const who of names.slice(2)) pairs[who].push(runs[who][round].qps / runs.dnsmasq[round].qps);
    }
    const qps = (who) => runs[who].map((r) => r.qps);
    const lost = (who) => runs[who].reduce((n, r) => n + r.lost, 0);
    const cpu = (who, key) => median(runs[who].map((r) => r[key]));
    console.log(`  summary -c ${c}:`);
    for (const who of ['ours', 'dnsmasq', ...names.slice(2)]) {
      console.log(
        `    ${who.padEnd(7)} best ${fmt(Math.max(...qps(who)))} q/s  median ${fmt(median(qps(who)))} q/s  lost ${lost(who)}  server CPU ${us(cpu(who, 'cpuUs'))}/query (median; user ${us(cpu(who, 'userUs'))}, sys ${us(cpu(who, 'sysUs'))})  dnsperf CPU ${us(cpu(who, 'dnsperfUs'))}/query`,
      );
    }
    const bestRatio = Math.max(...qps('ours')) / Math.max(...qps('dnsmasq'));
    const medianRatio = median(qps('ours')) / median(qps('dnsmasq'));
    const paired = median(ratios);
    console.log(
      `    ratio ours/dnsmasq: best ${bestRatio.toFixed(2)}x, median ${medianRatio.toFixed(2)}x, per round ${ratios.map((x) => x.toFixed(2)).join(' ')} (median paired ${paired.toFixed(2)}x)`,
    );
    for (const who of names.slice(2)) {
      console.log(
        `    ratio ${who}/dnsmasq: best ${(Math.max(...qps(who)) / Math.max(...qps('dnsmasq'))).toFixed(2)}x, median ${(median(qps(who)) / median(qps('dnsmasq'))).toFixed(2)}x, median paired ${median(pairs[who]).toFixed(2)}x`,
      );
    }
    const met = paired >= 1 && lost('ours') === 0;
    verdicts.push(
      `-c ${c}: ${met ? 'met' : 'NOT met'} (median paired ratio ${paired.toFixed(2)}x, ours lost ${lost('ours')})`,
    );
  }
} catch (error) {
  trouble = error;
} finally {
  await servers.dnsmasq?.stop();
  await servers.floor?.stop();
  for (const who of ['ours', 'dgram']) {
    const stats = await servers[who]?.stop();
    if (stats && !trouble) {
      const s = JSON.parse(stats);
      if (s.handlerErrors || s.internalErrors || s.rateLimited || s.socketErrors) {
        trouble = new Error(`server trouble (${who}): ${stats}`);
      }
    }
  }
  killAll('SIGKILL');
}
if (trouble) {
  console.error(trouble.message);
  process.exit(1);
}
console.log(`\ngoal (at least 1.0x dnsmasq, no lost queries): ${verdicts.join('; ')}`);
if (process.env.BENCH_STRICT === '1' && verdicts.some((v) => v.includes('NOT met'))) process.exit(1);
