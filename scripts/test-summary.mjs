#!/usr/bin/env node
// The closing line of a test run, strict enough to trust: reads a saved `npm test` log (turbo
// running `test:unit` and `test:lab` in every workspace, each a vitest run) and says what ran.
//
//   node scripts/test-summary.mjs [--root DIR] [--tasks test:unit,test:lab] LOG
//
// For each workspace task it reads vitest's closing block: `Test Files` (a file that failed to
// import, or whose beforeAll threw, is a failed file even when no test failed), `Tests` (passed,
// failed, skipped, todo) and `Errors` (unhandled errors). A task that started and printed no
// `Test Files` line did not finish. Turbo's own `Failed:` line names tasks that exited non-zero
// (a build, or a vitest run whose reporter failed). The workspaces come from the root package.json
// (`workspaces`); each one with a `test:unit` or `test:lab` script must report that task, and one
// with only a `test` script is reported as never run by `npm test`. Lines without a turbo prefix
// (a plain vitest log) count as one run named `vitest`.
//
// Exit status: 1 on any failed test or file, unhandled error, unfinished run, failed turbo task or
// missing workspace task. Under CI=true also on any skipped or todo test: in CI every test runs.
// The last line is the plain total: "N passed, N failed, N skipped, N todo".
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return value;
};
const root = path.resolve(option('--root', path.join(path.dirname(fileURLToPath(import.meta.url)), '..')));
const tasks = option('--tasks', 'test:unit,test:lab').split(',');
const [logFile] = args;
if (!logFile) {
  console.error('usage: node scripts/test-summary.mjs [--root DIR] [--tasks test:unit,test:lab] LOG');
  process.exit(2);
}
// The same rule as isCi() of @waved/test-lab: set, and not '', '0' or 'false'.
const ciValue = process.env.CI ?? '';
const ci = ciValue !== '' && ciValue !== '0' && ciValue.toLowerCase() !== 'false';

/** Workspace tasks `npm test` must run, from the root package.json's `workspaces` globs. */
function expectedTasks() {
  const rootManifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dirs = [];
  for (const pattern of rootManifest.workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const parent = path.join(root, pattern.slice(0, -2));
      if (!fs.existsSync(parent)) continue;
      for (const d of fs.readdirSync(parent, { withFileTypes: true }))
        if (d.isDirectory()) dirs.push(path.join(parent, d.name));
    } else dirs.push(path.join(root, pattern));
  }
  const expected = [];
  const untested = [];
  for (const dir of dirs.sort()) {
    const file = path.join(dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const { name, scripts = {} } = JSON.parse(fs.readFileSync(file, 'utf8'));
    const mine = tasks.filter((t) => scripts[t]);
    for (const t of mine) expected.push(`${name}#${t}`);
    if (mine.length === 0 && scripts.test) untested.push(name);
  }
  return { expected, untested };
}

const text = fs
  .readFileSync(logFile, 'utf8')
  .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
  .replace(/\r/g, '');

/** Lines of each task, keyed `package#task` (turbo prefixes them `package:task: `). */
const runs = new Map();
const failedByTurbo = new Set();
const prefix = /^((?:@[\w.-]+\/)?[\w.-]+):(test(?::[\w-]+)?): ?(.*)$/;
for (const line of text.split('\n')) {
  const failed = /^\s*Failed:\s+(.*)$/.exec(line);
  if (failed) {
    for (const t of failed[1].split(/[,\s]+/).filter(Boolean)) failedByTurbo.add(t);
    continue;
  }
  const m = prefix.exec(line);
  const key = m ? `${m[1]}#${m[2]}` : 'vitest';
  const body = m ? m[3] : line;
  if (!m && !/^\s*(Test Files|Tests|Errors)\s{2}/.test(body) && !runs.has('vitest')) continue;
  if (!runs.has(key)) runs.set(key, []);
  runs.get(key).push(body);
}

const counts = (s) => {
  const c = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  for (const [, n, kind] of s.matchAll(/(\d+)\s+(passed|failed|skipped|todo)\b/g)) c[kind] += Number(n);
  return c;
};

const total = { passed: 0, failed: 0, skipped: 0, todo: 0, failedFiles: 0, errors: 0 };
const problems = [];
const rows = [];
for (const [key, lines] of runs) {
  const last = (re) => lines.filter((l) => re.test(l)).at(-1);
  const files = last(/^\s*Test Files\s{2}/);
  const tests = last(/^\s*Tests\s{2}/);
  const errors = last(/^\s*Errors\s{2}/);
  if (!files) {
    if (lines.some((l) => /No test files found/.test(l))) problems.push(`${key}: no test files found`);
    else problems.push(`${key}: started but printed no "Test Files" line (crashed or killed)`);
    rows.push(`  ${key.padEnd(34)} did not finish`);
    continue;
  }
  const f = counts(files);
  const t = tests ? counts(tests) : { passed: 0, failed: 0, skipped: 0, todo: 0 };
  const e = errors ? Number(/(\d+)\s+error/.exec(errors)?.[1] ?? 1) : 0;
  for (const k of ['passed', 'failed', 'skipped', 'todo']) total[k] += t[k];
  total.failedFiles += f.failed;
  total.errors += e;
  if (f.failed) problems.push(`${key}: ${f.failed} test file(s) failed`);
  if (t.failed) problems.push(`${key}: ${t.failed} test(s) failed`);
  if (e) problems.push(`${key}: ${e} unhandled error(s)`);
  if (ci && t.skipped) problems.push(`${key}: ${t.skipped} test(s) skipped (CI=true: every test must run)`);
  if (ci && t.todo) problems.push(`${key}: ${t.todo} todo test(s) (CI=true: every test must run)`);
  const parts = [`${t.passed} passed`];
  for (const k of ['failed', 'skipped', 'todo']) if (t[k]) parts.push(`${t[k]} ${k}`);
  if (f.failed) parts.push(`${f.failed} file(s) failed`);
  if (e) parts.push(`${e} error(s)`);
  rows.push(`  ${key.padEnd(34)} ${parts.join(', ')}`);
}
for (const t of failedByTurbo) {
  if (!problems.some((p) => p.startsWith(`${t}:`))) problems.push(`${t}: turbo reports the task failed`);
}

const { expected, untested } = expectedTasks();
const finished = [...runs].filter(
  ([k, lines]) => k !== 'vitest' && lines.some((l) => /^\s*Test Files\s{2}/.test(l)),
);
const missing = expected.filter((k) => !runs.has(k));
for (const k of missing) problems.push(`${k}: did not report (not run, or its log is missing)`);
for (const name of untested)
  problems.push(`${name}: has a "test" script but no ${tasks.join('/')} script, so npm test never runs it`);

console.log(
  `test summary: ${finished.length} of ${expected.length} workspace test runs finished (${tasks.join(', ')})${runs.has('vitest') ? ', plus one unprefixed vitest run' : ''}`,
);
for (const r of rows) console.log(r);
const fatal = problems.length > 0;
for (const p of problems) console.log(`  ! ${p}`);
console.log(
  `${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped, ${total.todo} todo; ` +
    `${total.failedFiles} failed file(s), ${total.errors} unhandled error(s), ${missing.length} missing run(s)` +
    (fatal ? ' — NOT OK' : ''),
);
process.exit(fatal ? 1 : 0);
