// WPA2 PSK derivation (PBKDF2-HMAC-SHA1, 4096 iterations, 32 bytes), like for like: @waved/psk
// against OpenSSL's PKCS5_PBKDF2_HMAC_SHA1 looped in one process (bench/psk/pbkdf2.c, compiled here
// with the system cc and libssl-dev; the routine wpa_passphrase links) and against Python's
// hashlib.pbkdf2_hmac (OpenSSL underneath too). Every side derives the same list of SSID and
// passphrase pairs in one timed loop inside one process; process start is outside the timing. The
// figures are wall and CPU time per derivation, the median of rounds that rotate the order.
//
// Second part: how long the event loop stalls while 8 derivations run, with derivePskSync (on the
// loop) and derivePsk (libuv's thread pool), from perf_hooks.monitorEventLoopDelay.
//
// Environment: BENCH_PSK_N (derivations per round, default 200), BENCH_ROUNDS (default 5).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { derivePsk, derivePskSync } from '@waved/psk';
import { have, median, ratio, round, shellLine, spread, startRecord } from '../lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.BENCH_PSK_N ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const cases = Array.from({ length: N }, (_, i) => [`bench-ssid-${i}`, `passphrase-${i}-xyz`]);
const input = cases.map(([s, p]) => `${s}\t${p}\n`).join('');

if (!have('cc')) {
  console.error('bench/psk needs cc and libssl-dev (Debian: gcc libssl-dev); see .ci/run');
  process.exit(1);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waved-bench-psk-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const binary = path.join(dir, 'pbkdf2');
const compile = ['cc', '-O2', '-o', binary, path.join(here, 'pbkdf2.c'), '-lcrypto'];
try {
  execFileSync(compile[0], compile.slice(1), { stdio: 'pipe' });
} catch (error) {
  console.error(`bench/psk: compiling the OpenSSL peer failed (needs libssl-dev):\n${error.stderr}`);
  process.exit(1);
}

const python = `import hashlib, json, sys, time
cases = [l.rstrip('\\n').split('\\t') for l in sys.stdin if '\\t' in l]
w0, c0 = time.perf_counter_ns(), time.process_time_ns()
first = None
for s, p in cases:
    k = hashlib.pbkdf2_hmac('sha1', p.encode(), s.encode(), 4096, 32)
    first = first or k.hex()
print(json.dumps({'n': len(cases), 'wallNs': time.perf_counter_ns() - w0, 'cpuNs': time.process_time_ns() - c0, 'first': first}))
`;
const hasPython = have('python3');

const record = startRecord('psk', {
  method:
    'Same SSID/passphrase list on every side, derived in one timed loop inside one process (start-up excluded); wall and CPU time per derivation, median of rounds with the order rotated.',
});
record.side(
  'ours (sync)',
  `derivePskSync(ssid, passphrase) × ${N}`,
  `one loop in this Node process (${process.version})`,
);
record.side('ours (async)', `await Promise.all(${N} × derivePsk(ssid, passphrase))`, 'libuv thread pool');
record.side(
  'peer (OpenSSL)',
  `${shellLine(compile).replaceAll(dir, '$DIR').replace(here, 'bench/psk')}; $DIR/pbkdf2 < cases`,
  `PKCS5_PBKDF2_HMAC_SHA1 × ${N} in one loop`,
);
if (hasPython)
  record.side(
    'peer (Python)',
    'python3 -c <script> < cases',
    `hashlib.pbkdf2_hmac('sha1', passphrase, ssid, 4096, 32) × ${N} in one loop`,
  );

function external(file, args) {
  const r = spawnSync(file, args, { input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${file} failed (${r.status}): ${r.stderr}`);
  const out = JSON.parse(r.stdout);
  if (out.n !== N) throw new Error(`${file} derived ${out.n} of ${N}`);
  if (out.first !== derivePskSync(...cases[0])) throw new Error(`${file} and @waved/psk disagree`);
  return { wallMs: out.wallNs / 1e6 / N, cpuMs: out.cpuNs / 1e6 / N };
}

function oursSync() {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const [s, p] of cases) derivePskSync(s, p);
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wallMs: wall / N, cpuMs: (c.user + c.system) / 1000 / N };
}

async function oursAsync() {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(cases.map(([s, p]) => derivePsk(s, p)));
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wallMs: wall / N, cpuMs: (c.user + c.system) / 1000 / N };
}

const sides = {
  'ours sync': oursSync,
  'ours async': oursAsync,
  openssl: () => external(binary, []),
  ...(hasPython ? { python: () => external('python3', ['-c', python]) } : {}),
};
const names = Object.keys(sides);
const runs = Object.fromEntries(names.map((n) => [n, []]));
oursSync(); // warm-up (JIT, OpenSSL init)
console.log(`${N} derivations per round, ${ROUNDS} rounds, order rotated; per derivation:`);
for (let r = 0; r < ROUNDS; r++) {
  const order = names.map((_, i) => names[(i + r) % names.length]);
  for (const name of order) {
    const x = await sides[name]();
    runs[name].push(x);
    console.log(
      `  round ${r + 1} ${name.padEnd(10)} wall ${x.wallMs.toFixed(3)} ms  CPU ${x.cpuMs.toFixed(3)} ms`,
    );
  }
}
const med = (name, key) => median(runs[name].map((x) => x[key]));
const pairRatios = (a, b, key) => runs[a].map((x, i) => x[key] / runs[b][i][key]);

// Event-loop delay while 8 derivations run.
async function loopDelay(form) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  await new Promise((r) => setTimeout(r, 20));
  h.enable();
  await new Promise((r) => setTimeout(r, 5));
  if (form === 'sync') {
    await new Promise((resolve) =>
      setImmediate(() => {
        for (const [s, p] of cases.slice(0, 8)) derivePskSync(s, p);
        resolve();
      }),
    );
  } else {
    await Promise.all(cases.slice(0, 8).map(([s, p]) => derivePsk(s, p)));
  }
  await new Promise((r) => setTimeout(r, 5));
  h.disable();
  return h.max / 1e6;
}
const delays = { sync: [], async: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const form of r % 2 ? ['async', 'sync'] : ['sync', 'async']) delays[form].push(await loopDelay(form));
}

const figures = {
  cpuPerDerivation: {
    label: 'CPU per derivation (sync)',
    ...ratio(med('ours sync', 'cpuMs'), med('openssl', 'cpuMs'), { unit: 'ms', better: 'lower' }),
    spread: spread(pairRatios('ours sync', 'openssl', 'cpuMs').map((x) => round(x))),
  },
  wallPerDerivation: {
    label: 'wall time per derivation (sync)',
    ...ratio(med('ours sync', 'wallMs'), med('openssl', 'wallMs'), { unit: 'ms', better: 'lower' }),
    spread: spread(pairRatios('ours sync', 'openssl', 'wallMs').map((x) => round(x))),
  },
  asyncCpuPerDerivation: {
    label: 'CPU per derivation (async, thread pool)',
    ...ratio(med('ours async', 'cpuMs'), med('openssl', 'cpuMs'), { unit: 'ms', better: 'lower' }),
  },
  ...(hasPython
    ? {
        cpuPerDerivationPython: {
          label: 'CPU per derivation (sync) vs Python hashlib',
          ...ratio(med('ours sync', 'cpuMs'), med('python', 'cpuMs'), { unit: 'ms', better: 'lower' }),
        },
      }
    : {}),
  eventLoopDelay: {
    label: 'event-loop delay while 8 derivations run (max, ms; median of rounds)',
    sync: round(median(delays.sync)),
    async: round(median(delays.async)),
  },
};
record.note(
  `event-loop delay while 8 derivations run (max of monitorEventLoopDelay, median of ${ROUNDS} rounds): derivePskSync ${figures.eventLoopDelay.sync} ms, derivePsk ${figures.eventLoopDelay.async} ms`,
);

console.log('\nper derivation, median of rounds:');
for (const name of names) {
  console.log(
    `  ${name.padEnd(10)} wall ${med(name, 'wallMs').toFixed(3)} ms  CPU ${med(name, 'cpuMs').toFixed(3)} ms`,
  );
}
console.log(
  `ratio ours/OpenSSL: CPU ${figures.cpuPerDerivation.ratio}x (rounds ${figures.cpuPerDerivation.spread.min}–${figures.cpuPerDerivation.spread.max}), wall ${figures.wallPerDerivation.ratio}x` +
    (hasPython ? `; ours/Python CPU ${figures.cpuPerDerivationPython.ratio}x` : ''),
);
console.log(
  `event-loop delay while 8 derivations run (max): sync ${figures.eventLoopDelay.sync} ms, async ${figures.eventLoopDelay.async} ms`,
);
record.finish(figures);
