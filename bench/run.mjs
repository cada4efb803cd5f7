#!/usr/bin/env node
// Runs the benchmarks in bench/<name>/run.mjs (all, or those named on the command line).
// Each benchmark runs its real peer in the same run and prints ours / peer.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const all = fs
  .readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(here, d.name, 'run.mjs')))
  .map((d) => d.name)
  .sort();
const chosen = wanted.length ? wanted : all;
let failed = 0;
for (const name of chosen) {
  if (!all.includes(name)) {
    console.error(`no benchmark named ${name}; have: ${all.join(', ')}`);
    process.exit(2);
  }
  console.log(`\n=== bench/${name} (node ${process.version})`);
  const r = spawnSync(process.execPath, [path.join(here, name, 'run.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
