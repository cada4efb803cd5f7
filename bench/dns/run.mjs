// Queries per second: @waved/captive-dns against dnsmasq (--address=/#/ --local=/#/), both measured by
// dnsperf with the same query file and flags, in the same run, on loopback. Rounds alternate which
// server goes first, so a burst of load from elsewhere on the machine hits both alike; the summary
// gives the best and the median round of each. dnsperf shares the CPUs with the server it measures.
//
// BENCH_SECONDS (per dnsperf run, default 5), BENCH_ROUNDS (default 3), BENCH_DNSPERF (extra flags).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codecBench } from './codec.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const queryFile = path.join(here, 'queries.txt');
const flags = ['-d', queryFile, '-l', String(seconds), '-c', '1', '-T', '1', '-q', '100'];
if (process.env.BENCH_DNSPERF) flags.push(...process.env.BENCH_DNSPERF.split(/\s+/).filter(Boolean));

for (const program of ['dnsperf', 'dnsmasq']) {
  if (spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0) {
    console.error(`bench/dns needs ${program} on PATH`);
    process.exit(1);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// CPU time (user + system) a process has used, in seconds, from /proc/<pid>/stat (fields 14, 15).
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

async function startDnsmasq(dir) {
  const port = await freePort();
  const pidFile = path.join(dir, 'dnsmasq.pid');
  execFileSync('dnsmasq', [
    '--conf-file=/dev/null',
    '--no-resolv',
    '--no-hosts',
    '--listen-address=127.0.0.1',
    '--bind-interfaces',
    `--port=${port}`,
    '--address=/#/192.168.2.1',
    '--local=/#/',
    '--cache-size=0',
    `--pid-file=${pidFile}`,
    '--user=root',
  ]);
  for (let i = 0; i < 100 && !fs.existsSync(pidFile); i++) await sleep(20);
  const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  return {
    port,
    pid,
    async stop() {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {}
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(pid, 0);
        } catch {
          return '';
        }
        await sleep(20);
      }
      process.kill(pid, 'SIGKILL');
      return '';
    },
  };
}

async function startOurs() {
  const child = spawn(process.execPath, [path.join(here, 'serve.mjs')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  const exited = new Promise((r) => child.on('exit', r));
  for (let i = 0; i < 250 && !out.includes('\n'); i++) await sleep(20);
  if (!out.includes('\n')) throw new Error(`our server did not start: ${err}`);
  return {
    port: JSON.parse(out).port,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      return err.trim();
    },
  };
}

function dnsperf(port) {
  return new Promise((resolve, reject) => {
    const child = spawn('dnsperf', ['-s', '127.0.0.1', '-p', String(port), ...flags], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      const num = (re) => Number(re.exec(out)?.[1]);
      const r = {
        qps: num(/Queries per second:\s+([\d.]+)/),
        sent: num(/Queries sent:\s+(\d+)/),
        lost: num(/Queries lost:\s+(\d+)/),
        latencyMs: num(/Average Latency \(s\):\s+([\d.]+)/) * 1000,
        codes: /Response codes:\s+(.*)/.exec(out)?.[1] ?? '',
      };
      if (code !== 0 || Number.isNaN(r.qps)) reject(new Error(`dnsperf failed (${code}):\n${out}`));
      else resolve(r);
    });
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dns-'));
const results = { ours: [], dnsmasq: [] };
const starters = { ours: startOurs, dnsmasq: () => startDnsmasq(dir) };
const fmt = (x) => x.toFixed(0).padStart(7);
console.log(
  `dnsperf ${['-s 127.0.0.1 -p <port>', ...flags.map((f) => (f === queryFile ? 'bench/dns/queries.txt' : f))].join(' ')}`,
);
console.log(
  `${os.cpus().length} CPUs shared by dnsperf, the server and whatever else runs; load ${os.loadavg()[0].toFixed(2)}`,
);

const codec = codecBench();
console.log(
  `codec only (in-process, no sockets): template path ${fmt(codec.template)} replies/s, dns-packet decode+encode ${fmt(codec.dnsPacket)} replies/s (${(codec.template / codec.dnsPacket).toFixed(1)}x)`,
);

try {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['dnsmasq', 'ours'] : ['ours', 'dnsmasq'];
    for (const who of order) {
      const server = await starters[who]();
      await sleep(200);
      const cpu0 = cpuSeconds(server.pid);
      const r = await dnsperf(server.port);
      r.cpuUsPerQuery = ((cpuSeconds(server.pid) - cpu0) / r.sent) * 1e6;
      const stats = await server.stop();
      results[who].push(r);
      console.log(
        `round ${round + 1} ${who.padEnd(7)} ${fmt(r.qps)} q/s  lost ${r.lost}/${r.sent}  avg latency ${r.latencyMs.toFixed(2)} ms  server CPU ${r.cpuUsPerQuery.toFixed(1)} µs/query  ${r.codes}`,
      );
      if (who === 'ours' && stats) {
        const s = JSON.parse(stats);
        if (s.handlerErrors || s.internalErrors || s.rateLimited) throw new Error(`server trouble: ${stats}`);
      }
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

const best = (xs) => Math.max(...xs.map((r) => r.qps));
const median = (xs) => {
  const v = xs.map((r) => r.qps).sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
};
const lost = (xs) => xs.reduce((n, r) => n + r.lost, 0);
console.log(
  `best   ours ${fmt(best(results.ours))} q/s  dnsmasq ${fmt(best(results.dnsmasq))} q/s  ratio ours/dnsmasq ${(best(results.ours) / best(results.dnsmasq)).toFixed(2)}x`,
);
console.log(
  `median ours ${fmt(median(results.ours))} q/s  dnsmasq ${fmt(median(results.dnsmasq))} q/s  ratio ours/dnsmasq ${(median(results.ours) / median(results.dnsmasq)).toFixed(2)}x`,
);
const cpu = (xs) => Math.min(...xs.map((r) => r.cpuUsPerQuery));
console.log(`lost queries: ours ${lost(results.ours)}, dnsmasq ${lost(results.dnsmasq)}`);
console.log(
  `server CPU per query (best round, independent of other load): ours ${cpu(results.ours).toFixed(1)} µs, dnsmasq ${cpu(results.dnsmasq).toFixed(1)} µs`,
);
