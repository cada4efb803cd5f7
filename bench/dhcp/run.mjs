// 4-way exchanges (DORA) per second at 0 % drops: perfdhcp against @waved/dhcp-server and against
// dnsmasq --no-ping, on the same namespace pair, in one run. Two pairings: leases in memory (ours
// without a store, dnsmasq --leasefile-ro) and leases on disk (ours with createFileLeaseStore,
// dnsmasq with its lease file, which it rewrites and fsyncs on every change). Rates are stepped up;
// at each rate every server runs in turn (rotating who goes first) on a fresh pool, and a server's
// figure is the highest rate it held with no DISCOVER or REQUEST dropped in one of up to three
// tries. On a shared 2-core machine the drops are perfdhcp's own receive buffer overflowing while
// it waits for a CPU (UdpRcvbufErrors in its namespace), so a rate gets more than one chance.
// Needs root, perfdhcp (kea-admin), dnsmasq.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_DHCP_SECONDS ?? 5);
const RATES = (
  process.env.BENCH_DHCP_RATES ?? '250,500,750,1000,1250,1500,1750,2000,2500,3000,4000,5000,6000,8000'
)
  .split(',')
  .map(Number);
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
    child.once('exit', resolve);
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
    ],
    { encoding: 'utf8', timeout: (SECONDS + 30) * 1000 },
  );
  const out = r.stdout ?? '';
  if (!out.includes('4-way exchanges/second')) throw new Error(`perfdhcp failed (${r.status}): ${r.stderr}`);
  const num = (re) => Number(re.exec(out)?.[1] ?? Number.NaN);
  const sections = out.split('***Statistics for: ');
  const section = (name) => sections.find((s) => s.startsWith(name)) ?? '';
  const stat = (name, key) => Number(new RegExp(`${key}: ([\\d.]+)`).exec(section(name))?.[1] ?? Number.NaN);
  return {
    rate: num(/Rate: ([\d.]+) 4-way exchanges\/second/),
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

const names = Object.keys(servers);
const best = Object.fromEntries(names.map((n) => [n, null]));
const alive = Object.fromEntries(names.map((n) => [n, true]));
const width = Math.max(...names.map((n) => n.length));
const fmt = (r) =>
  `${r.rate.toFixed(0).padStart(5)} DORA/s  drops ${String(r.dropsDO).padStart(4)}/${String(r.dropsRA).padEnd(4)}  avg delay ${r.delayDO.toFixed(2)}/${r.delayRA.toFixed(2)} ms`;

console.log(
  `perfdhcp -4 -R ${CLIENTS} -p ${SECONDS} at each -r; pool 192.168.2.50-200 (151); dnsmasq --no-ping`,
);
let turn = 0;
for (const target of RATES) {
  if (!names.some((n) => alive[n])) break;
  const order = names.map((_, i) => names[(i + turn) % names.length]);
  turn++;
  for (const name of order) {
    if (!alive[name]) continue;
    let result;
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const server = await servers[name]();
      try {
        result = perfdhcp(target);
      } finally {
        await stop(server.child);
      }
      if (result.dropsDO === 0 && result.dropsRA === 0) break;
    }
    const clean = result.dropsDO === 0 && result.dropsRA === 0 && result.rate >= target * 0.95;
    console.log(
      `  -r ${String(target).padStart(5)}  ${name.padEnd(width)}  ${fmt(result)}  ${clean ? 'ok' : 'DROPS'}`,
    );
    if (clean) best[name] = result;
    else alive[name] = false;
  }
}

const figure = (n) => (best[n] ? best[n].rate : 0);
console.log('\n4-way exchanges/s at 0 % drops:');
for (const [label, a, b] of pairs) {
  const ratio =
    figure(b) > 0 ? `${(figure(a) / figure(b)).toFixed(2)}x` : 'n/a (dnsmasq dropped at every rate)';
  const capped = alive[a] && alive[b] ? ` (both held the top rate ${RATES.at(-1)}/s)` : '';
  console.log(
    `  ${label.padEnd(10)}  ours ${figure(a).toFixed(0).padStart(5)}  dnsmasq ${figure(b).toFixed(0).padStart(5)}  ratio ${ratio}${capped}`,
  );
}
console.log(
  `machine: ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (shared)`,
);
