#!/usr/bin/env node
// Runs the benchmarks in bench/<name>/run.mjs and checks their results against the goals.
//
//   npm run bench                    every benchmark; each writes bench/results/<name>.json, then
//                                    the documentation blocks are rewritten from those files
//   npm run bench -- dhcp ota        only these
//   npm run bench -- --check         no run: compare bench/results/*.json with bench/goals.mjs,
//                                    exit 1 on a missed goal or a missing result
//   npm run bench -- dns --check     run dns, then check everything on file
//   npm run bench -- --report        no run: rewrite the documentation blocks from the results
//
// Each benchmark runs its real peer in the same run and prints ours / peer. Figures taken while
// the machine is busy are recorded with their load and labelled as not final.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { goals, met } from './goals.mjs';
import { readResult, writeReport } from './report.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const check = args.includes('--check');
const reportOnly = args.includes('--report');
const wanted = args.filter((a) => !a.startsWith('--'));
const all = fs
  .readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(here, d.name, 'run.mjs')))
  .map((d) => d.name)
  .sort();
const chosen = wanted.length ? wanted : check || reportOnly ? [] : all;

/**
 * Waits (up to 3 minutes) for the 1-minute load average to fall to half the core count, so that one
 * benchmark does not start in the load the previous one left (results.mjs would label it busy).
 */
async function settle() {
  const limit = os.cpus().length / 2;
  const deadline = Date.now() + 180_000;
  if (os.loadavg()[0] <= limit) return;
  console.log(
    `\n(waiting for the 1-minute load average, ${os.loadavg()[0].toFixed(2)}, to fall to ${limit})`,
  );
  while (os.loadavg()[0] > limit && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2000));
}

let failed = 0;
for (const name of chosen) {
  if (!all.includes(name)) {
    console.error(`no benchmark named ${name}; have: ${all.join(', ')}`);
    process.exit(2);
  }
  await settle();
  console.log(
    `\n=== bench/${name} (node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores)`,
  );
  const r = spawnSync(process.execPath, [path.join(here, name, 'run.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`bench/${name} failed (exit ${r.status ?? r.signal}); its results file was not updated`);
  }
}

if (chosen.length || reportOnly) {
  const changed = writeReport();
  if (changed.length)
    console.log(`\nfigures in the documentation rewritten from bench/results: ${changed.join(', ')}`);
}

// The goals, from the files on record.
console.log('\ngoals (bench/goals.mjs) against bench/results/*.json:');
let missed = 0;
for (const goal of goals) {
  const result = readResult(goal.bench);
  const figure = result?.figures?.[goal.figure];
  const ratio = figure?.ratio;
  const ok = met(goal, ratio);
  if (!ok) missed++;
  const where = result
    ? `${result.date.slice(0, 10)}${result.load.busy ? ', busy machine' : ''}`
    : 'no result on file';
  console.log(
    `  ${ok ? 'met   ' : 'MISSED'}  ${goal.label} vs ${goal.peer}: ${Number.isFinite(ratio) ? `${ratio}×` : '—'} (goal ${goal.op === '<=' ? '≤' : '≥'} ${goal.value}×; ${where})`,
  );
}
if (check && missed) console.log(`\n${missed} goal(s) missed or without a result.`);
process.exit(failed || (check && missed) ? 1 : 0);
