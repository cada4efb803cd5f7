#!/usr/bin/env node
// Runs the libraries' unit tests on Node 22 (the oldest Node they support) with an official build
// from the npm registry (scripts/node-dist.mjs), beside the usual run on Node 24. Unit tests are the
// test files of packages/* that need no real peer: those that do not call needs() from
// @waved/test-lab (the real-peer suites run on Node 24 in `npm test`).
//   node scripts/test-node22.mjs [package ...]     default: every workspace under packages/
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_VERSIONS, nodeDist } from './node-dist.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');

/** The unit test files of one package: its test/**.test.ts that do not need a real peer. */
export function unitTests(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && e.name !== 'fixtures' && e.name !== 'node_modules') walk(p);
      else if (e.isFile() && e.name.endsWith('.test.ts') && !/\bneeds\(/.test(fs.readFileSync(p, 'utf8'))) {
        out.push(path.relative(dir, p));
      }
    }
  };
  if (fs.existsSync(path.join(dir, 'test'))) walk(path.join(dir, 'test'));
  return out.sort();
}

const node22 = nodeDist(NODE_VERSIONS[22], process.arch === 'arm' ? 'armv7l' : process.arch);
const wanted = process.argv.slice(2);
const packages = fs
  .readdirSync(path.join(root, 'packages'))
  .filter((name) => fs.existsSync(path.join(root, 'packages', name, 'package.json')))
  .filter((name) => wanted.length === 0 || wanted.includes(name));
let failed = 0;
for (const name of packages) {
  const dir = path.join(root, 'packages', name);
  const files = unitTests(dir);
  if (files.length === 0) continue;
  console.log(`\n== ${name} on Node ${NODE_VERSIONS[22]}: ${files.length} unit test files`);
  // node_modules/.bin first, as npm does, so anything the tests spawn by name finds the same tools;
  // `node` itself resolves to Node 22 through process.execPath in the tests.
  const env = { ...process.env, PATH: `${path.dirname(node22)}:${process.env.PATH}` };
  const r = spawnSync(node22, [vitest, 'run', ...files], { cwd: dir, stdio: 'inherit', env });
  if (r.status !== 0) {
    failed++;
    console.error(`== ${name}: unit tests failed on Node ${NODE_VERSIONS[22]}`);
  }
}
if (failed) process.exit(1);
console.log(`\nunit tests on Node ${NODE_VERSIONS[22]}: ${packages.length} packages passed`);
