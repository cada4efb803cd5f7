#!/usr/bin/env node
// Sums the vitest "Tests" lines of every workspace in a saved `npm test` log and prints one plain
// closing line: "N passed, N failed, N skipped".
import fs from 'node:fs';

const text = fs.readFileSync(process.argv[2], 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
const total = { passed: 0, failed: 0, skipped: 0 };
let suites = 0;
for (const line of text.split('\n')) {
  const m = /^\S*\s*Tests\s+(.*)\(\d+\)\s*$/.exec(line.replace(/^[^:]+:test:/, '').trim());
  if (!m) continue;
  suites++;
  for (const [, n, kind] of m[1].matchAll(/(\d+)\s+(passed|failed|skipped)/g)) total[kind] += Number(n);
}
console.log(`test summary: ${suites} workspaces`);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
