// Derivations per second: @waved/psk (sync and async) against wpa_passphrase, in the same run.
// wpa_passphrase is a process per derivation, which is how a shell script or a vendor daemon uses it;
// the figure for it therefore includes process start-up, and the report says so.
import { execFileSync } from 'node:child_process';
import { derivePsk, derivePskSync } from '@waved/psk';

const N = Number(process.env.BENCH_N ?? 400);
const cases = Array.from({ length: N }, (_, i) => [`bench-ssid-${i}`, `passphrase-${i}-xyz`]);

function rate(n, ms) {
  return (n / ms) * 1000;
}

let t = performance.now();
for (const [s, p] of cases) derivePskSync(s, p);
const sync = rate(N, performance.now() - t);

t = performance.now();
await Promise.all(cases.map(([s, p]) => derivePsk(s, p)));
const asyncRate = rate(N, performance.now() - t);

const peerN = Math.min(N, 200);
t = performance.now();
for (const [s, p] of cases.slice(0, peerN)) {
  const out = execFileSync('wpa_passphrase', [s, p], { encoding: 'utf8' });
  if (!/psk=[0-9a-f]{64}/.test(out)) throw new Error('wpa_passphrase gave no psk');
}
const peer = rate(peerN, performance.now() - t);

// Check they agree on a sample while we are here.
const [s0, p0] = cases[0];
const peerPsk = /\spsk=([0-9a-f]{64})/.exec(
  execFileSync('wpa_passphrase', [s0, p0], { encoding: 'utf8' }),
)[1];
if (peerPsk !== derivePskSync(s0, p0)) throw new Error('derivations disagree');

const fmt = (x) => x.toFixed(0).padStart(7);
console.log(
  `derivations/s  ours sync ${fmt(sync)}  ours async (thread pool) ${fmt(asyncRate)}  wpa_passphrase (process per call) ${fmt(peer)}`,
);
console.log(`ratio ours/peer: sync ${(sync / peer).toFixed(2)}x, async ${(asyncRate / peer).toFixed(2)}x`);
