// The signed cloud client has no external peer; its benchmark (in the package) compares signing and
// signed round trips with in-run baselines (bare HMAC, unsigned requests of the same server) and
// reports telemetry rates. This runs it, shows its output, and records the figures.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ratio, startRecord } from '../lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const script = path.resolve(here, '../../packages/psp-cloud/bench/run.mjs');
const record = startRecord('cloud', {
  method: 'packages/psp-cloud/bench/run.mjs: in-process rates against baselines measured in the same run',
});
record.side(
  'ours',
  'signRequest + verifySignature; client.getUpdateDescriptor (signed GET) to the reference server',
);
record.side(
  'peer',
  'one bare HMAC-SHA256 (node:crypto); unsigned HEAD of the same server over the same kind of pool',
);
const r = spawnSync(process.execPath, [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
process.stdout.write(r.stdout);
if (r.status !== 0) process.exit(r.status ?? 1);
const pick = (re) => {
  const m = re.exec(r.stdout);
  if (!m) throw new Error(`unexpected output of ${script}: no match for ${re}`);
  return m.slice(1).map(Number);
};
const [sign, hmac] = pick(/sign\+verify\/s\s+(\d+)\s+bare HMAC\/s\s+(\d+)/);
const [signed, unsigned] = pick(/signed GET\/s\s+(\d+)\s+unsigned HEAD\/s\s+(\d+)/);
const [tracked, delivered] = pick(/durable track\/s\s+(\d+)\s+delivered\/s \(batches of 50\)\s+(\d+)/);
// Import cost of each entry point (the package's own script: fresh processes, medians).
const importCost = spawnSync(
  process.execPath,
  [path.resolve(here, '../../packages/psp-cloud/scripts/import-cost.mjs'), '--json'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
if (importCost.status !== 0) process.exit(importCost.status ?? 1);
const entries = JSON.parse(importCost.stdout).results;
for (const e of entries) {
  console.log(
    `import ${e.spec.padEnd(26)} CPU ${e.cpuMs.median.toFixed(1)} ms  wall ${e.wallMs.median.toFixed(1)} ms  RSS +${e.rssMb.median.toFixed(1)} MB (median of ${e.runs} fresh processes)`,
  );
}
record.note(
  `import cost, median of fresh processes (packages/psp-cloud/scripts/import-cost.mjs): ${entries
    .map((e) => `${e.spec} ${e.cpuMs.median.toFixed(1)} ms of CPU, +${e.rssMb.median.toFixed(1)} MB`)
    .join('; ')}`,
);
record.note(
  `telemetry: ${tracked} events/s durably queued (SQLite, synchronous=FULL), ${delivered} events/s delivered in batches of 50`,
);
record.finish({
  signing: {
    label: 'sign + verify per second, vs one bare HMAC',
    ...ratio(sign, hmac, { unit: '/s', better: 'higher' }),
  },
  roundTrips: {
    label: 'signed GETs per second, vs unsigned HEADs of the same server',
    ...ratio(signed, unsigned, { unit: '/s', better: 'higher' }),
  },
  telemetry: { trackedPerSecond: tracked, deliveredPerSecond: delivered },
  importCost: Object.fromEntries(
    entries.map((e) => [e.spec, { cpuMs: e.cpuMs.median, wallMs: e.wallMs.median, rssMb: e.rssMb.median }]),
  ),
});
