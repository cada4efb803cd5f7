// 4-way exchanges (DORA) per second at 0 % drops: perfdhcp against @waved/dhcp-server and against
// dnsmasq --no-ping, on the same namespace pair, in one run. Two pairings: leases in memory (ours
// without a store, dnsmasq --leasefile-ro) and leases on disk (ours with createFileLeaseStore,
// dnsmasq with its lease file, which it rewrites and fsyncs on every change).
//
// Each server climbs its own ladder of rates (250-steps up to 2000, 500-steps above; after the first
// failure it goes back to its last clean rate and climbs in 100-steps), one rung per round, the
// servers taking turns in a rotating order, each run on a fresh pool. A rung is held when perfdhcp
// counts no dropped DISCOVER or REQUEST in one of up to three tries.
//
// perfdhcp stops listening the moment its test period (-p) ends, so without an exit wait (-W) the
// exchange still in flight at that instant is counted as a drop although the server answered it:
// kernel counters then show every datagram delivered to perfdhcp's socket. -W collects those late
// replies; the rate is the completed exchanges over the test period. Every line carries the UDP
// counters (/proc/net/snmp) of both namespaces, the server's CPU per exchange (/proc/<pid>/stat) and,
// for ours, its own counters, so a drop can be attributed to a socket buffer, the server or perfdhcp.
// Needs root, perfdhcp (kea-admin), dnsmasq.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_DHCP_SECONDS ?? 5);
const EXIT_WAIT_MS = Number(process.env.BENCH_DHCP_EXIT_WAIT_MS ?? 100); // perfdhcp -W
const MAX_RATE = Number(process.env.BENCH_DHCP_MAX_RATE ?? 8000);
const FINE_STEP = 100;
const coarseStep = (rate) => (rate < 2000 ? 250 : 500);
const CLIENTS = Number(process.env.BENCH_DHCP_CLIENTS ?? 100); // perfdhcp -R: distinct MACs (pool holds 151)
const MODES = (process.env.BENCH_DHCP_MODES ?? 'memory,file').split(',');
const TRIES = Number(process.env.BENCH_DHCP_TRIES ?? 3);

function have(program) {
  try {
    execFileSync('sh', ['-c', 'command -v "$1"', 'sh', program], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
if (process.getuid?.() !== 0 || !have('perfdhcp') || !have('dnsmasq')) {
  console.error('bench/dhcp needs root, perfdhcp (Debian kea-admin) and dnsmasq; see .ci/run');
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
run('ip', ['netns', 'exec', PH, 'ip', 'addr', 'add', '192.168.2.10/24', 'dev', 'ph0']); // perfdhcp needs one (lab.md §5)
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

async function startOurs(withStore) {
  const store = withStore ? [path.join(dir, `ours-${Date.now()}.json`)] : [];
  return start(
    'ip',
    ['netns', 'exec', AP, process.execPath, path.join(here, 'server.mjs'), 'ap0', ...store],
    (o) => o.includes('ready'),
  );
}

async function startDnsmasq(withFile) {
  const leases = withFile
    ? [`--dhcp-leasefile=${path.join(dir, `dnsmasq-${Date.now()}.leases`)}`]
    : ['--leasefile-ro'];
  const s = await start(
    'ip',
    [
      'netns',
      'exec',
      AP,
      'dnsmasq',
      '--keep-in-foreground',
      '--conf-file=/dev/null',
      '--port=0',
      '--interface=ap0',
      '--bind-interfaces',
      '--dhcp-range=192.168.2.50,192.168.2.200,12h',
      ...leases,
      '--dhcp-authoritative',
      '--no-ping',
      '--dhcp-option=option:dns-server,192.168.2.1',
      '--dhcp-option=114,"http://192.168.2.1/"',
      '--user=root',
      '--log-facility=/dev/null',
    ],
    () => true,
  );
  // no readiness line without logging: wait for its socket on :67
  for (let i = 0; i < 100; i++) {
    if (/:67\b[\s\S]*dnsmasq/.test(run('ip', ['netns', 'exec', AP, 'ss', '-lunp']))) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return s;
}

const servers = {};
if (MODES.includes('memory')) {
  servers.ours = () => startOurs(false);
  servers['dnsmasq --leasefile-ro'] = () => startDnsmasq(false);
}
if (MODES.includes('file')) {
  servers['ours + lease file'] = () => startOurs(true);
  servers['dnsmasq + lease file'] = () => startDnsmasq(true);
}
const pairs = [
  ['in memory', 'ours', 'dnsmasq --leasefile-ro'],
  ['lease file', 'ours + lease file', 'dnsmasq + lease file'],
].filter(([, a, b]) => servers[a] && servers[b]);

const CLK_TCK = Number(run('getconf', ['CLK_TCK']).trim()) || 100;

/** Udp: counters of a namespace (InDatagrams, InErrors, RcvbufErrors, SndbufErrors, ...). */
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

/** CPU ticks (user + system) a process has used; `ip netns exec` execs, so the child's pid is the server. */
function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
}

function perfdhcp(rate) {
  // perfdhcp exits with 3 when packets were dropped; its report is on stdout either way.
  const r = spawnSync(
    'ip',
    [
      'netns',
      'exec',
      PH,
      'perfdhcp',
      '-4',
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
    ],
    { encoding: 'utf8', timeout: (SECONDS + 30) * 1000 },
  );
  const out = r.stdout ?? '';
  if (!out.includes('4-way exchanges/second')) throw new Error(`perfdhcp failed (${r.status}): ${r.stderr}`);
  const sections = out.split('***Statistics for: ');
  const section = (name) => sections.find((s) => s.startsWith(name)) ?? '';
  const stat = (name, key) => Number(new RegExp(`${key}: ([\\d.]+)`).exec(section(name))?.[1] ?? Number.NaN);
  const acks = stat('REQUEST-ACK', 'received packets');
  return {
    // completed exchanges over the sending period (perfdhcp's own Rate also divides by the exit wait)
    rate: acks / SECONDS,
    acks,
    sent: stat('DISCOVER-OFFER', 'sent packets'),
    dropsDO: stat('DISCOVER-OFFER', 'drops'),
    dropsRA: stat('REQUEST-ACK', 'drops'),
    delayDO: stat('DISCOVER-OFFER', 'avg delay'),
    delayRA: stat('REQUEST-ACK', 'avg delay'),
    // perfdhcp's own correctness checks: an address handed to two clients, or a lease it rejects
    wrong:
      stat('DISCOVER-OFFER', 'non unique addresses') +
      stat('REQUEST-ACK', 'non unique addresses') +
      stat('DISCOVER-OFFER', 'rejected leases') +
      stat('REQUEST-ACK', 'rejected leases'),
  };
}

/** One try: a fresh server, perfdhcp at `target`, and the counters around it. */
async function attempt(name, target) {
  const server = await servers[name]();
  const pid = server.child.pid;
  const ap0 = udpCounters(AP);
  const ph0 = udpCounters(PH);
  const cpu0 = cpuTicks(pid);
  let result;
  let cpu;
  try {
    result = perfdhcp(target);
    cpu = cpuTicks(pid) - cpu0;
  } finally {
    await stop(server.child);
  }
  result.ap = udpDelta(ap0, udpCounters(AP));
  result.ph = udpDelta(ph0, udpCounters(PH));
  result.cpuUs = ((cpu / CLK_TCK) * 1e6) / Math.max(1, result.acks); // µs of server CPU per exchange
  const statsLine = server
    .output()
    .split('\n')
    .find((l) => l.startsWith('{"received"'));
  result.stats = statsLine ? JSON.parse(statsLine) : undefined;
  result.clean =
    result.dropsDO === 0 && result.dropsRA === 0 && result.wrong === 0 && result.rate >= target * 0.95;
  return result;
}

const names = Object.keys(servers);
const width = Math.max(...names.map((n) => n.length));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const fmt = (r) => {
  const ours = r.stats
    ? `  ours rx ${r.stats.received} tx ${r.stats.offer + r.stats.ack + r.stats.nak} err ${r.stats.sendErrors + r.stats.handlerErrors + r.stats.storeErrors}`
    : '';
  return (
    `${r.rate.toFixed(0).padStart(5)} DORA/s  drops ${String(r.dropsDO).padStart(3)}/${String(r.dropsRA).padEnd(3)}` +
    `  delay ${r.delayDO.toFixed(2)}/${r.delayRA.toFixed(2)} ms  cpu ${r.cpuUs.toFixed(0).padStart(3)} µs/DORA` +
    `  udp srv in ${r.ap.InDatagrams} out ${r.ap.OutDatagrams} rcvbuf ${r.ap.RcvbufErrors} sndbuf ${r.ap.SndbufErrors}` +
    `  perfdhcp in ${r.ph.InDatagrams} rcvbuf ${r.ph.RcvbufErrors} inerr ${r.ph.InErrors}${ours}`
  );
};

console.log(
  `perfdhcp -4 -R ${CLIENTS} -p ${SECONDS} -W ${EXIT_WAIT_MS * 1000} at each -r; pool 192.168.2.50-200 (151); dnsmasq --no-ping`,
);
console.log(`machine: ${os.cpus().length} cores, load average at start ${load()} (shared)`);

// Per server: the next rate to try, its last clean result, and whether it is in the fine phase.
const ladder = Object.fromEntries(names.map((n) => [n, { next: 250, best: null, fine: false, done: false }]));
const cpuAt = Object.fromEntries(names.map((n) => [n, new Map()]));
let turn = 0;
while (names.some((n) => !ladder[n].done)) {
  const order = names.map((_, i) => names[(i + turn) % names.length]).filter((n) => !ladder[n].done);
  turn++;
  for (const name of order) {
    const l = ladder[name];
    const target = l.next;
    let result;
    for (let t = 0; t < TRIES; t++) {
      result = await attempt(name, target);
      if (result.clean) break;
    }
    console.log(
      `  -r ${String(target).padStart(5)}  ${name.padEnd(width)}  ${fmt(result)}  ${result.clean ? 'ok' : 'DROPS'}`,
    );
    if (result.clean) {
      l.best = { target, ...result };
      cpuAt[name].set(target, result.cpuUs);
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

const figure = (n) => (ladder[n].best ? ladder[n].best.rate : 0);
console.log(
  '\n4-way exchanges/s at 0 % drops (highest rate held; CPU per exchange at the top rate both held):',
);
for (const [label, a, b] of pairs) {
  const ratio =
    figure(b) > 0 ? `${(figure(a) / figure(b)).toFixed(2)}x` : 'n/a (dnsmasq dropped at every rate)';
  const capped =
    ladder[a].best?.target >= MAX_RATE && ladder[b].best?.target >= MAX_RATE
      ? ` (both held the top rate ${MAX_RATE}/s)`
      : '';
  const common = [...cpuAt[a].keys()].filter((r) => cpuAt[b].has(r)).sort((x, y) => y - x)[0];
  const cpu =
    common === undefined
      ? ''
      : `  cpu at ${common}/s: ours ${cpuAt[a].get(common).toFixed(0)} µs, dnsmasq ${cpuAt[b].get(common).toFixed(0)} µs per DORA`;
  console.log(
    `  ${label.padEnd(10)}  ours ${figure(a).toFixed(0).padStart(5)}  dnsmasq ${figure(b).toFixed(0).padStart(5)}  ratio ${ratio}${capped}${cpu}`,
  );
}
console.log(`machine: ${os.cpus().length} cores, load average at end ${load()} (shared)`);
