// DHCP, like for like: perfdhcp (Kea) against @waved/dhcp-server and against dnsmasq
// --quiet-dhcp, on the same veth pair between two network namespaces, in one run.
//
// dnsmasq runs as its users run it on a small device, minus logging: without --quiet-dhcp it formats
// and writes four log lines per exchange (even to /dev/null) and ours logs nothing, so both are
// quiet. Two client behaviours: perfdhcp's default and `perfdhcp -B` (the broadcast flag). perfdhcp
// sends every DHCPv4 message as a relay agent (giaddr set to its own address), so with either one
// both servers unicast each reply to the relay's port 67 (RFC 2131 §4.1); the ARP-cache and
// broadcast paths are covered by the server's lab tests, not here.
//
// 1. CPU per exchange (the headline): each server at fixed rates (BENCH_DHCP_RATES, default
//    250,1000,4000 exchanges/s), in rounds that alternate the order, each on a fresh server that
//    first gets a warm-up run of the same length at every rate (BENCH_DHCP_WARMUP_SECONDS, default
//    4, at BENCH_DHCP_WARMUP_RATE, default 2000/s, or the measured rate when higher: about 8000
//    exchanges). A DHCP server runs for days, so start-up and JIT compilation are not per-exchange
//    costs: V8 compiles a function once it has run often enough, so a warm-up of a fixed time at the
//    measured rate left V8 still compiling the hot path during a 250/s run and not during a 4000/s
//    one. The start-up CPU is reported on its own. Then the server's CPU time (every thread, from
//    /proc/<pid>/task/*/schedstat, in ns) over the exchanges perfdhcp completed in the measured
//    run. A rate counts only when held at 0 % drops.
// 2. Exchanges/s at 0 % drops: each server climbs its own ladder of rates (250-steps to 2000,
//    500-steps above, then 100-steps after the first failure), up to three tries a rung.
// 3. Leases on disk, labelled as different durability: ours with createFileLeaseStore writes a
//    new holder atomically (temp file, fsync, rename, directory fsync) before its ACK leaves;
//    dnsmasq with --dhcp-leasefile answers first and rewrites (and fsyncs) its lease file after
//    that main-loop turn. CPU per exchange at fixed rates (BENCH_DHCP_FILE_RATES, default
//    250,1000); no goal (the guarantees differ).
//
// Each server is pinned to core 0 and perfdhcp to core 1 (taskset), as in bench/dns, so neither
// side shares a core with the load generator. Unpinned, where the scheduler placed the server and
// perfdhcp changed from run to run, and with it the server's CPU per exchange: at 250/s with -B,
// fresh servers after the same warm-up gave 76–249 µs for ours and 142–255 µs for dnsmasq over
// four runs each; pinned, 58–90 and 81–169 µs.
//
// perfdhcp runs with -W (exit wait): without it, the exchange in flight when its test period ends
// counts as a drop although it was answered; the rate is completed exchanges over the period. Every
// line carries both namespaces' UDP counters and, for ours, its own counters, so a drop can be
// attributed. Needs root, perfdhcp (Debian kea-admin) and dnsmasq.
//
// Environment: BENCH_DHCP_SECONDS (per perfdhcp run, default 5), BENCH_DHCP_RATES, BENCH_ROUNDS
// (default 5), BENCH_DHCP_MAX_RATE (top of the ladder, default 8000), BENCH_DHCP_PARTS (default
// "cpu,ladder,file"), BENCH_DHCP_CLIENTS (perfdhcp -R, default 100; the pool holds 151).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { have, median, pin, pinned, ratio, round, shellLine, spread, startRecord } from '../lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_DHCP_SECONDS ?? 5);
const EXIT_WAIT_MS = Number(process.env.BENCH_DHCP_EXIT_WAIT_MS ?? 100);
const WARMUP = Number(process.env.BENCH_DHCP_WARMUP_SECONDS ?? 4);
const WARMUP_RATE = Number(process.env.BENCH_DHCP_WARMUP_RATE ?? 2000);
const MAX_RATE = Number(process.env.BENCH_DHCP_MAX_RATE ?? 8000);
const RATES = (process.env.BENCH_DHCP_RATES ?? '250,1000,4000').split(',').map(Number);
// dnsmasq with its lease file holds a few thousand exchanges/s at most; the pairing stays below that
const FILE_RATES = (process.env.BENCH_DHCP_FILE_RATES ?? '250,1000').split(',').map(Number);
// five: at 250/s one server's CPU per exchange varies by a third from run to run on a 2-core machine
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PARTS = (process.env.BENCH_DHCP_PARTS ?? 'cpu,ladder,file').split(',');
const CLIENTS = Number(process.env.BENCH_DHCP_CLIENTS ?? 100);
const TRIES = 3;
const FINE_STEP = 100;
const coarseStep = (rate) => (rate < 2000 ? 250 : 500);

if (process.getuid?.() !== 0 || !have('perfdhcp') || !have('dnsmasq')) {
  console.error('bench/dhcp needs root, perfdhcp (Debian kea-admin) and dnsmasq; see .ci/run');
  process.exit(1);
}

// One core for the servers, another for perfdhcp (on a single-core machine nothing is pinned).
if (pinned && !have('taskset')) {
  console.error('bench/dhcp needs taskset (util-linux) to pin the servers and perfdhcp');
  process.exit(1);
}

const run = (file, args, opts = {}) => execFileSync(file, args, { encoding: 'utf8', ...opts });
const suffix = crypto.randomBytes(3).toString('hex');
const AP = `wvb-ap-${suffix}`;
const PH = `wvb-ph-${suffix}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waved-bench-dhcp-'));
const live = new Set();

function cleanup() {
  for (const child of live) child.kill('SIGKILL');
  for (const ns of [AP, PH]) {
    try {
      run('ip', ['netns', 'del', ns], { stdio: 'ignore' });
    } catch {}
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

for (const ns of [AP, PH]) {
  run('ip', ['netns', 'add', ns]);
  run('ip', ['netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up']);
}
run('ip', ['link', 'add', 'ap0', 'netns', AP, 'type', 'veth', 'peer', 'name', 'ph0', 'netns', PH]);
run('ip', ['netns', 'exec', AP, 'ip', 'addr', 'add', '192.168.2.1/24', 'dev', 'ap0']);
run('ip', ['netns', 'exec', PH, 'ip', 'addr', 'add', '192.168.2.10/24', 'dev', 'ph0']); // perfdhcp needs one
run('ip', ['netns', 'exec', AP, 'ip', 'link', 'set', 'ap0', 'up']);
run('ip', ['netns', 'exec', PH, 'ip', 'link', 'set', 'ph0', 'up']);

function start(file, args, readyWhen) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${file} did not start: ${out}`)), 10_000);
    const onData = (d) => {
      out += d;
      if (readyWhen(out)) {
        clearTimeout(timer);
        resolve({ child, output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => live.delete(child));
    if (readyWhen('')) {
      clearTimeout(timer);
      resolve({ child, output: () => out });
    }
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('close', resolve);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

// ---- the servers, exactly as started
const oursArgv = (store) =>
  pin(0, [process.execPath, path.join(here, 'server.mjs'), 'ap0', ...(store ? [store] : [])]);
const dnsmasqArgv = (leases) =>
  pin(0, [
    'dnsmasq',
    '--keep-in-foreground',
    '--conf-file=/dev/null',
    '--port=0',
    '--interface=ap0',
    '--bind-interfaces',
    '--dhcp-range=192.168.2.50,192.168.2.200,12h',
    leases ? `--dhcp-leasefile=${leases}` : '--leasefile-ro',
    '--dhcp-authoritative',
    '--no-ping',
    '--quiet-dhcp',
    '--dhcp-option=option:dns-server,192.168.2.1',
    '--dhcp-option=114,"http://192.168.2.1/"',
    '--user=root',
    '--log-facility=/dev/null',
  ]);

async function startOurs(withStore) {
  const store = withStore ? path.join(dir, `ours-${Date.now()}.json`) : undefined;
  return start('ip', ['netns', 'exec', AP, ...oursArgv(store)], (o) => o.includes('ready'));
}

async function startDnsmasq(withFile) {
  const leases = withFile ? path.join(dir, `dnsmasq-${Date.now()}.leases`) : undefined;
  const s = await start('ip', ['netns', 'exec', AP, ...dnsmasqArgv(leases)], () => true);
  // no readiness line without logging: wait for its socket on :67
  for (let i = 0; i < 100; i++) {
    if (/:67\b[\s\S]*dnsmasq/.test(run('ip', ['netns', 'exec', AP, 'ss', '-lunp']))) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return s;
}

const servers = {
  ours: () => startOurs(false),
  dnsmasq: () => startDnsmasq(false),
  'ours + lease file': () => startOurs(true),
  'dnsmasq + lease file': () => startDnsmasq(true),
};

/** Udp: counters of a namespace (InDatagrams, RcvbufErrors, SndbufErrors, ...). */
function udpCounters(ns) {
  const lines = run('ip', ['netns', 'exec', ns, 'cat', '/proc/net/snmp'])
    .split('\n')
    .filter((l) => l.startsWith('Udp:'));
  const keys = lines[0].split(/\s+/).slice(1);
  const values = lines[1].split(/\s+/).slice(1).map(Number);
  return Object.fromEntries(keys.map((k, i) => [k, values[i]]));
}
const udpDelta = (before, after) =>
  Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));

/** CPU time of every thread of a process, ns (/proc/<pid>/task/<tid>/schedstat, first field). */
function cpuNs(pid) {
  let total = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      /* a thread that just exited */
    }
  }
  return total;
}

const perfdhcpArgv = (rate, broadcast) =>
  pin(1, [
    'perfdhcp',
    '-4',
    ...(broadcast ? ['-B'] : []),
    '-l',
    'ph0',
    '-r',
    String(rate),
    '-R',
    String(CLIENTS),
    '-p',
    String(SECONDS),
    '-W',
    String(EXIT_WAIT_MS * 1000),
  ]);

/** The warm-up: WARMUP seconds at WARMUP_RATE (or `target` when higher), the same for both servers. */
function warmUp(target, broadcast) {
  const argv = perfdhcpArgv(Math.max(target, WARMUP_RATE), broadcast).map((a, i, all) =>
    all[i - 1] === '-p' ? String(WARMUP) : a,
  );
  spawnSync('ip', ['netns', 'exec', PH, ...argv], { stdio: 'ignore', timeout: (WARMUP + 30) * 1000 });
}

function perfdhcp(rate, broadcast) {
  // perfdhcp exits with 3 when packets were dropped; its report is on stdout either way.
  const r = spawnSync('ip', ['netns', 'exec', PH, ...perfdhcpArgv(rate, broadcast)], {
    encoding: 'utf8',
    timeout: (SECONDS + 30) * 1000,
  });
  const out = r.stdout ?? '';
  if (!out.includes('4-way exchanges/second')) throw new Error(`perfdhcp failed (${r.status}): ${r.stderr}`);
  const sections = out.split('***Statistics for: ');
  const section = (name) => sections.find((s) => s.startsWith(name)) ?? '';
  const stat = (name, key) => Number(new RegExp(`${key}: ([\\d.]+)`).exec(section(name))?.[1] ?? Number.NaN);
  const acks = stat('REQUEST-ACK', 'received packets');
  return {
    rate: acks / SECONDS, // completed exchanges over the sending period
    acks,
    dropsDO: stat('DISCOVER-OFFER', 'drops'),
    dropsRA: stat('REQUEST-ACK', 'drops'),
    delayDO: stat('DISCOVER-OFFER', 'avg delay'),
    delayRA: stat('REQUEST-ACK', 'avg delay'),
    // perfdhcp's own checks: an address handed to two clients, or a lease it rejects
    wrong:
      stat('DISCOVER-OFFER', 'non unique addresses') +
      stat('REQUEST-ACK', 'non unique addresses') +
      stat('DISCOVER-OFFER', 'rejected leases') +
      stat('REQUEST-ACK', 'rejected leases'),
  };
}

/**
 * One try: a fresh server, a warm-up run (not measured: a DHCP server runs for days, so its start-up
 * and JIT compilation are not per-exchange costs; both sides get the same warm-up, and the start-up
 * CPU is reported on its own), then perfdhcp at `target` and the counters around it.
 */
async function attempt(name, target, broadcast) {
  const server = await servers[name]();
  const pid = server.child.pid;
  const startCpuNs = cpuNs(pid);
  if (WARMUP > 0) warmUp(target, broadcast);
  const ap0 = udpCounters(AP);
  const ph0 = udpCounters(PH);
  const cpu0 = cpuNs(pid);
  let result;
  let cpu;
  try {
    result = perfdhcp(target, broadcast);
    cpu = cpuNs(pid) - cpu0;
  } finally {
    await stop(server.child);
  }
  result.startCpuMs = startCpuNs / 1e6;
  result.ap = udpDelta(ap0, udpCounters(AP));
  result.ph = udpDelta(ph0, udpCounters(PH));
  result.cpuUs = cpu / 1000 / Math.max(1, result.acks); // µs of server CPU per completed exchange
  const statsLine = server
    .output()
    .split('\n')
    .find((l) => l.startsWith('{"received"'));
  result.stats = statsLine ? JSON.parse(statsLine) : undefined;
  result.clean =
    result.dropsDO === 0 && result.dropsRA === 0 && result.wrong === 0 && result.rate >= target * 0.95;
  return result;
}

const fmt = (r) => {
  const ours = r.stats
    ? `  ours rx ${r.stats.received} tx ${r.stats.offer + r.stats.ack + r.stats.nak} err ${r.stats.sendErrors + r.stats.handlerErrors + r.stats.storeErrors}`
    : '';
  return (
    `${r.rate.toFixed(0).padStart(5)} DORA/s  drops ${String(r.dropsDO).padStart(3)}/${String(r.dropsRA).padEnd(3)}` +
    `  delay ${r.delayDO.toFixed(2)}/${r.delayRA.toFixed(2)} ms  cpu ${r.cpuUs.toFixed(1).padStart(6)} µs/DORA` +
    `  udp srv in ${r.ap.InDatagrams} out ${r.ap.OutDatagrams} rcvbuf ${r.ap.RcvbufErrors}` +
    `  perfdhcp in ${r.ph.InDatagrams} rcvbuf ${r.ph.RcvbufErrors}${ours}`
  );
};

const modes = [
  ['default', false],
  ['-B', true],
];
const record = startRecord('dhcp', {
  method: `perfdhcp against each server on one veth pair between two namespaces${pinned ? ', the servers pinned to core 0 and perfdhcp to core 1' : ''}. CPU per exchange: server CPU (all threads, schedstat ns) over completed exchanges at fixed rates held at 0 % drops, fresh server per run after the same warm-up run (${WARMUP} s at ${WARMUP_RATE}/s, or at the measured rate when higher), rounds alternating order; the goal figure is the highest ours/dnsmasq ratio over those rates and both client behaviours. Rate: highest ladder rung held at 0 % drops.`,
});
record.side(
  'ours',
  `ip netns exec <ap> ${shellLine(oursArgv()).replace(process.execPath, 'node').replace(here, 'bench/dhcp')}`,
  'createDhcpServer, leases in memory',
);
record.side('peer', `ip netns exec <ap> ${shellLine(dnsmasqArgv())}`);
record.side(
  'load',
  `ip netns exec <phone> ${shellLine(perfdhcpArgv('<rate>', false))}`,
  'and the same with -B',
);
record.side(
  'ours + lease file',
  shellLine(oursArgv('<file>')).replace(process.execPath, 'node').replace(here, 'bench/dhcp'),
  'createFileLeaseStore',
);
record.side('dnsmasq + lease file', shellLine(dnsmasqArgv('<file>')));
console.log(
  `perfdhcp -4 -R ${CLIENTS} -p ${SECONDS} -W ${EXIT_WAIT_MS * 1000}; pool 192.168.2.50-200 (151); dnsmasq --no-ping --quiet-dhcp`,
);
const figures = {};

// ---- 1. CPU per exchange at fixed rates
async function fixedRates(pair, label, rates) {
  const cpu = { startup: Object.fromEntries(pair.map((n) => [n, []])) }; // mode -> rate -> name -> [µs]
  for (const [mode, broadcast] of modes) {
    cpu[mode] = {};
    for (const rate of rates) {
      cpu[mode][rate] = Object.fromEntries(pair.map((n) => [n, []]));
      const failed = new Set(); // a server that dropped in every try of a round is not tried again
      for (let r = 0; r < ROUNDS; r++) {
        for (const name of r % 2 ? [...pair].reverse() : pair) {
          if (failed.has(name)) continue;
          let result;
          for (let t = 0; t < TRIES; t++) {
            result = await attempt(name, rate, broadcast);
            if (result.clean) break;
          }
          console.log(
            `  ${label} ${mode.padEnd(7)} -r ${String(rate).padStart(5)}  ${name.padEnd(20)} ${fmt(result)}  ${result.clean ? 'ok' : 'DROPS'}`,
          );
          if (result.clean) cpu[mode][rate][name].push(result.cpuUs);
          else failed.add(name);
          cpu.startup[name].push(result.startCpuMs);
        }
      }
    }
  }
  return cpu;
}

const cpuLines = [];
if (PARTS.includes('cpu')) {
  console.log('\n1. server CPU per exchange at fixed rates (0 % drops)');
  const cpu = await fixedRates(['ours', 'dnsmasq'], 'memory', RATES);
  let worst;
  for (const [mode] of modes) {
    for (const rate of RATES) {
      const o = cpu[mode][rate].ours;
      const d = cpu[mode][rate].dnsmasq;
      if (!o.length || !d.length) {
        cpuLines.push(`${mode} ${rate}/s: no clean run for ${o.length ? 'dnsmasq' : 'ours'}`);
        continue;
      }
      const r = median(o) / median(d);
      cpuLines.push(
        `perfdhcp ${mode} at ${rate}/s: ours ${median(o).toFixed(1)} µs, dnsmasq ${median(d).toFixed(1)} µs per exchange (${r.toFixed(2)}x)`,
      );
      const entry = {
        label: `server CPU per exchange, perfdhcp ${mode} at ${rate}/s`,
        ...ratio(median(o), median(d), { unit: 'µs', better: 'lower' }),
        spread: spread(o.map((x, i) => round(x / (d[i] ?? median(d))))),
      };
      figures[`cpuPerExchange_${mode === '-B' ? 'B' : 'default'}_${rate}`] = entry;
      if (!worst || entry.ratio > worst.ratio) worst = { ...entry };
    }
  }
  figures.startupCpu = {
    label: 'server CPU from start to listening (ms, once per start; not in the per-exchange figures)',
    ...ratio(median(cpu.startup.ours), median(cpu.startup.dnsmasq), { unit: 'ms', better: 'lower' }),
  };
  if (worst) {
    figures.cpuPerExchange = {
      ...worst,
      label: `server CPU per exchange, goal figure: the highest ratio above (${worst.label.replace('server CPU per exchange, ', '')})`,
    };
  }
}

// ---- 2. exchanges/s at 0 % drops
if (PARTS.includes('ladder')) {
  console.log('\n2. exchanges/s at 0 % drops (each server climbs its own ladder)');
  let worst;
  for (const [mode, broadcast] of modes) {
    const names = ['ours', 'dnsmasq'];
    const ladder = Object.fromEntries(
      names.map((n) => [n, { next: 250, best: null, fine: false, done: false }]),
    );
    let turn = 0;
    while (names.some((n) => !ladder[n].done)) {
      const order = names.map((_, i) => names[(i + turn) % names.length]).filter((n) => !ladder[n].done);
      turn++;
      for (const name of order) {
        const l = ladder[name];
        const target = l.next;
        let result;
        for (let t = 0; t < TRIES; t++) {
          result = await attempt(name, target, broadcast);
          if (result.clean) break;
        }
        console.log(
          `  ${mode.padEnd(7)} -r ${String(target).padStart(5)}  ${name.padEnd(8)} ${fmt(result)}  ${result.clean ? 'ok' : 'DROPS'}`,
        );
        if (result.clean) {
          l.best = { target, ...result };
          l.next = target + (l.fine ? FINE_STEP : coarseStep(target));
          if (l.next > MAX_RATE) l.done = true;
        } else if (!l.fine && l.best && l.best.target + FINE_STEP < target) {
          l.fine = true;
          l.next = l.best.target + FINE_STEP;
        } else {
          l.done = true;
        }
      }
    }
    const o = ladder.ours.best?.rate ?? 0;
    const d = ladder.dnsmasq.best?.rate ?? 0;
    const capped = ladder.ours.best?.target >= MAX_RATE && ladder.dnsmasq.best?.target >= MAX_RATE;
    const entry = {
      label: `exchanges/s at 0 % drops, perfdhcp ${mode}${capped ? ` (both held the ladder's top, ${MAX_RATE}/s)` : ''}`,
      ...ratio(o, d, { unit: '/s', better: 'higher' }),
      cpuAtTop: {
        ours: round(ladder.ours.best?.cpuUs ?? Number.NaN),
        dnsmasq: round(ladder.dnsmasq.best?.cpuUs ?? Number.NaN),
      },
    };
    figures[`rateAtZeroDrops_${mode === '-B' ? 'B' : 'default'}`] = entry;
    if (!worst || entry.ratio < worst.ratio) worst = entry;
    console.log(
      `  ${mode}: ours ${o.toFixed(0)}/s, dnsmasq ${d.toFixed(0)}/s at 0 % drops (${(o / d).toFixed(2)}x)${capped ? ', both at the top of the ladder' : ''}; CPU per exchange at that rate: ours ${entry.cpuAtTop.ours} µs, dnsmasq ${entry.cpuAtTop.dnsmasq} µs`,
    );
  }
  figures.rateAtZeroDrops = {
    ...worst,
    label: `exchanges/s at 0 % drops, goal figure: the lower ratio above (${worst.label.replace('exchanges/s at 0 % drops, ', '')})`,
  };
}

// ---- 3. leases on disk (different durability)
if (PARTS.includes('file')) {
  console.log('\n3. leases on disk: different durability (see the header), no goal');
  const cpu = await fixedRates(['ours + lease file', 'dnsmasq + lease file'], 'file  ', FILE_RATES);
  for (const [mode] of modes) {
    for (const rate of FILE_RATES) {
      const o = cpu[mode][rate]['ours + lease file'];
      const d = cpu[mode][rate]['dnsmasq + lease file'];
      if (!o.length || !d.length) continue;
      figures[`leaseFileCpu_${mode === '-B' ? 'B' : 'default'}_${rate}`] = {
        label: `server CPU per exchange with a lease file (different durability), perfdhcp ${mode} at ${rate}/s`,
        ...ratio(median(o), median(d), { unit: 'µs', better: 'lower' }),
      };
    }
  }
  record.note(
    'lease-file figures compare different durability: ours writes a new holder atomically (temp file, fsync, rename, directory fsync) before its ACK leaves; dnsmasq answers first and rewrites (and fsyncs) its lease file after that main-loop turn',
  );
}

console.log('\nsummary:');
for (const l of cpuLines) console.log(`  ${l}`);
for (const [id, f] of Object.entries(figures)) {
  if (id.startsWith('rateAtZeroDrops') || id.startsWith('leaseFile'))
    console.log(`  ${f.label}: ours ${f.ours}, dnsmasq ${f.peer} (${f.ratio}x)`);
}
if (figures.cpuPerExchange)
  console.log(`  ${figures.cpuPerExchange.label}: ${figures.cpuPerExchange.ratio}x`);
record.finish(figures);
