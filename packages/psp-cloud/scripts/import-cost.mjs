#!/usr/bin/env node
// Import cost of each entry point of the built package: time (wall and CPU) and resident memory that
// `await import()` adds to a fresh Node process, median over several runs. Build first (npm run build).
//   node scripts/import-cost.mjs [--runs 9] [--only <entry>] [--json]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ENTRIES = ['@waved/psp-cloud', '@waved/psp-cloud/sqlite', '@waved/psp-cloud/server'];
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 9;
const here = fileURLToPath(new URL('.', import.meta.url));

const CHILD = `
const spec = process.argv[1];
const rss0 = process.memoryUsage().rss;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await import(spec);
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const rssMb = (process.memoryUsage().rss - rss0) / 1e6;
process.stdout.write(JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, rssMb }));
`;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** One fresh process per sample, run from this package so the specifier resolves to its own dist. */
export function measure(spec, n = runs) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, spec], {
      cwd: here,
      encoding: 'utf8',
    });
    samples.push(JSON.parse(out));
  }
  return {
    spec,
    runs: n,
    wallMs: { median: median(samples.map((s) => s.wallMs)), min: Math.min(...samples.map((s) => s.wallMs)) },
    cpuMs: { median: median(samples.map((s) => s.cpuMs)), min: Math.min(...samples.map((s) => s.cpuMs)) },
    rssMb: { median: median(samples.map((s) => s.rssMb)), min: Math.min(...samples.map((s) => s.rssMb)) },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const results = ENTRIES.filter((e) => !only || e === only).map((e) => measure(e));
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ node: process.version, results }, null, 2)}\n`);
  } else {
    console.log(`node ${process.version}, ${runs} fresh processes per entry (median / min)`);
    for (const r of results) {
      console.log(
        `${r.spec.padEnd(26)} wall ${r.wallMs.median.toFixed(1)} / ${r.wallMs.min.toFixed(1)} ms` +
          `  cpu ${r.cpuMs.median.toFixed(1)} / ${r.cpuMs.min.toFixed(1)} ms  rss +${r.rssMb.median.toFixed(1)} / +${r.rssMb.min.toFixed(1)} MB`,
      );
    }
  }
}
