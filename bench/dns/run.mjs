// DNS, like for like: @waved/captive-dns against dnsmasq (--address=/#/ --local=/#/), both driven
// by dnsperf with the same query file, flags and duration, in the same run, on loopback. Each
// server is pinned to core 0 and dnsperf to core 1 (taskset), so neither side competes with the
// load generator for a core.
//
// 1. Queries/s: both servers are started once, warmed up with the same short dnsperf run, then
//    measured in rounds that rotate the order, so a burst of load from elsewhere hits both alike.
//    Each round gives a paired ratio ours/dnsmasq; the figure is the median paired ratio, quoted
//    with its spread (lowest and highest round), with the lost queries and the CPU time each
//    server (and dnsperf) spent per query, read from /proc.
// 2. Latency at a fixed rate: dnsperf -Q at half of dnsmasq's median rate from part 1, -v (one
//    line per query with its latency), rounds alternating order; p50 and p99 of each run, median
//    over the rounds.
//
// "ours" is the server with its default transport (the native batch transport when the addon is
// built, else node:dgram; the line says which); "dgram" is the same server with transport:
// 'dgram', measured in the same rounds, as a second figure.
//
// Two variants: dnsperf -c 1 (one source port) and -c 4 (four source ports); the goal figure is
// the lower of their ratios. Environment: BENCH_SECONDS (per dnsperf run, default 4),
// BENCH_ROUNDS (rounds per variant, default 8), BENCH_CLIENTS (dnsperf -c values, default "1,4"),
// BENCH_DNSPERF (extra dnsperf flags), BENCH_DGRAM=0 (skip the dgram line), BENCH_FLOOR=1 (also
// measure floor.mjs, a bare node:dgram responder with no parsing or policy: what Node's UDP
// machinery alone costs per query), BENCH_LATENCY_ROUNDS (default 4).
import { spawn, spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { captiveDnsmasqArgv } from '../lib/dnsmasq.mjs';
import { pin, pinned, ratio, round, shellLine, spread, startRecord } from '../lib/results.mjs';
import { codecBench } from './codec.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
const latencyRounds = Number(process.env.BENCH_LATENCY_ROUNDS ?? 4);
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

for (const program of ['dnsperf', 'dnsmasq', ...(pinned ? ['taskset'] : [])]) {
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
  const argv = pin(0, captiveDnsmasqArgv(port));
  const child = track(spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] }));
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
  const argv = pin(0, [process.execPath, path.join(here, script), ...args]);
  const child = track(spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] }));
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
          `${pinned ? 'taskset -c 1 ' : ''}dnsperf "$@"; s=$?; cat /proc/$$/stat >&2; exit $s`,
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
      if (flags.includes('-v')) {
        // `> NOERROR name TYPE 0.000123`: one line per answered query, its latency in seconds
        const lat = [];
        for (const m of text.matchAll(/^> \S+ \S+ \S+ ([\d.]+)$/gm)) lat.push(Number(m[1]) * 1000);
        lat.sort((a, b) => a - b);
        const pct = (q) => lat[Math.min(lat.length - 1, Math.floor(q * lat.length))];
        r.p50Ms = pct(0.5);
        r.p99Ms = pct(0.99);
        r.answered = lat.length;
      }
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
  `${os.cpus().length} CPUs; ${pinned ? 'servers pinned to core 0, dnsperf to core 1' : 'nothing pinned (one core)'}; load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const codec = codecBench();
console.log(
  `codec only (in-process, no sockets): template path ${fmt(codec.template)} replies/s, dns-packet decode+encode ${fmt(codec.dnsPacket)} replies/s (${(codec.template / codec.dnsPacket).toFixed(1)}x)`,
);

const record = startRecord('dns', {
  method:
    'dnsperf on loopback against each server, the servers pinned to core 0 and dnsperf to core 1; queries/s: median of per-round paired ratios ours/dnsmasq (rounds rotate the order), the goal figure the lower of -c 1 and -c 4; latency: dnsperf -Q at half of dnsmasq’s median rate with -v, p50/p99 per run, median over rounds.',
});
const display = (argv) =>
  shellLine(argv)
    .replace(process.execPath, 'node')
    .replace(path.join(here, 'serve.mjs'), 'bench/dns/serve.mjs');
record.side(
  'ours',
  display(pin(0, [process.execPath, path.join(here, 'serve.mjs')])),
  'createCaptiveDns, default transport',
);
record.side('peer', display(pin(0, captiveDnsmasqArgv('<port>'))));
record.side(
  'load',
  `${pinned ? 'taskset -c 1 ' : ''}dnsperf -s 127.0.0.1 -p <port> ${show(flagsFor('<c>'))}`,
);

const names = [
  'dnsmasq',
  'ours',
  ...(process.env.BENCH_DGRAM === '0' ? [] : ['dgram']),
  ...(process.env.BENCH_FLOOR === '1' ? ['floor'] : []),
];
const servers = {};
const figures = {};
let trouble = null;
try {
  servers.dnsmasq = await startDnsmasq();
  servers.ours = await startNode('serve.mjs');
  console.log(`ours: @waved/captive-dns with its default transport, here '${servers.ours.transport}'`);
  record.note(`our transport in this run: ${servers.ours.transport}`);
  if (names.includes('dgram')) servers.dgram = await startNode('serve.mjs', 'dgram');
  if (names.includes('floor')) servers.floor = await startNode('floor.mjs');
  let dnsmasqRate;
  let worst;
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
      // dnsmasq, ours | ours, dnsmasq | … (with more servers: a rotation, reversed every other round).
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
    // the share of its one core a server used: CPU per query times queries/s
    const busy = (who) => (cpu(who, 'cpuUs') * median(qps(who))) / 1e6;
    console.log(`  summary -c ${c}:`);
    for (const who of ['ours', 'dnsmasq', ...names.slice(2)]) {
      console.log(
        `    ${who.padEnd(7)} best ${fmt(Math.max(...qps(who)))} q/s  median ${fmt(median(qps(who)))} q/s  lost ${lost(who)}  server CPU ${us(cpu(who, 'cpuUs'))}/query (median; user ${us(cpu(who, 'userUs'))}, sys ${us(cpu(who, 'sysUs'))})  dnsperf CPU ${us(cpu(who, 'dnsperfUs'))}/query`,
      );
    }
    const paired = median(ratios);
    console.log(
      `    ratio ours/dnsmasq: median paired ${paired.toFixed(2)}x (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}: ${ratios.map((x) => x.toFixed(2)).join(' ')}), medians ${(median(qps('ours')) / median(qps('dnsmasq'))).toFixed(2)}x; ours lost ${lost('ours')}`,
    );
    for (const who of names.slice(2)) {
      console.log(`    ratio ${who}/dnsmasq: median paired ${median(pairs[who]).toFixed(2)}x`);
    }
    console.log(
      `    server core busy: ours ${(100 * busy('ours')).toFixed(0)} %, dnsmasq ${(100 * busy('dnsmasq')).toFixed(0)} %` +
        (busy('ours') < 0.9
          ? ' (ours was not the limit: the rate is what dnsperf on its own core sent, a lower bound of ours)'
          : ''),
    );
    const entry = {
      label: `queries/s, dnsperf -c ${c} (median of paired rounds; ours lost ${lost('ours')})`,
      ...ratio(median(qps('ours')), median(qps('dnsmasq')), { unit: 'q/s', better: 'higher' }),
      spread: spread(ratios.map((x) => round(x))),
      cpuPerQuery: {
        ours: round(cpu('ours', 'cpuUs')),
        dnsmasq: round(cpu('dnsmasq', 'cpuUs')),
        ...(names.includes('dgram') ? { dgram: round(cpu('dgram', 'cpuUs')) } : {}),
      },
      serverCoreBusy: { ours: round(busy('ours')), dnsmasq: round(busy('dnsmasq')) },
    };
    // the paired median is the figure; lost queries make it a miss
    entry.ratio = lost('ours') > 0 ? 0 : round(paired);
    figures[`queriesPerSecond_c${c}`] = entry;
    figures[`cpuPerQuery_c${c}`] = {
      label: `server CPU per query, dnsperf -c ${c} (median of rounds)`,
      ...ratio(cpu('ours', 'cpuUs'), cpu('dnsmasq', 'cpuUs'), { unit: 'µs', better: 'lower' }),
    };
    if (!worst || entry.ratio < worst.ratio) worst = entry;
    if (c === clients[0]) dnsmasqRate = median(qps('dnsmasq'));
  }
  figures.queriesPerSecond = {
    ...worst,
    label: 'queries/s, goal figure: the lower ratio of the dnsperf variants above',
  };

  // ---- latency at half of dnsmasq's rate
  const rate = Math.round(dnsmasqRate / 2 / 100) * 100;
  const latFlags = [...flagsFor(clients[0]), '-Q', String(rate), '-v'];
  console.log(
    `\ndnsperf -s 127.0.0.1 -p <port> ${show(latFlags)}   (half of dnsmasq's median rate; ${latencyRounds} rounds)`,
  );
  record.side(
    'load (latency)',
    `${pinned ? 'taskset -c 1 ' : ''}dnsperf -s 127.0.0.1 -p <port> ${show(latFlags)}`,
  );
  const lat = { ours: [], dnsmasq: [] };
  for (let round = 0; round < latencyRounds; round++) {
    for (const who of round % 2 ? ['ours', 'dnsmasq'] : ['dnsmasq', 'ours']) {
      const r = await dnsperf(servers[who].port, latFlags);
      if (r.lost > 0 || r.answered !== r.completed) throw new Error(`${who} lost queries at ${rate} q/s`);
      lat[who].push(r);
      console.log(
        `  round ${round + 1} ${who.padEnd(7)} ${fmt(r.qps)} q/s  p50 ${r.p50Ms.toFixed(3)} ms  p99 ${r.p99Ms.toFixed(3)} ms  (${r.answered} answers)`,
      );
    }
  }
  const p = (who, k) => median(lat[who].map((r) => r[k]));
  figures.p99AtHalfLoad = {
    label: `p99 latency at ${rate} q/s (half of dnsmasq’s median rate)`,
    ...ratio(p('ours', 'p99Ms'), p('dnsmasq', 'p99Ms'), { unit: 'ms', better: 'lower' }),
    spread: spread(lat.ours.map((r, i) => round(r.p99Ms / lat.dnsmasq[i].p99Ms))),
  };
  figures.p50AtHalfLoad = {
    label: `p50 latency at ${rate} q/s`,
    ...ratio(p('ours', 'p50Ms'), p('dnsmasq', 'p50Ms'), { unit: 'ms', better: 'lower' }),
  };
  console.log(
    `  medians: p50 ours ${p('ours', 'p50Ms').toFixed(3)} ms, dnsmasq ${p('dnsmasq', 'p50Ms').toFixed(3)} ms; p99 ours ${p('ours', 'p99Ms').toFixed(3)} ms, dnsmasq ${p('dnsmasq', 'p99Ms').toFixed(3)} ms (${figures.p99AtHalfLoad.ratio}x)`,
  );
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
console.log(
  `\nqueries/s ours/dnsmasq: ${figures.queriesPerSecond.ratio}x (goal >= 1.2x); p99 at half load: ${figures.p99AtHalfLoad.ratio}x (goal <= 1.0x)`,
);
record.finish(figures);
