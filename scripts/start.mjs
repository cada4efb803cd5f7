#!/usr/bin/env node
// `npm start`: builds, then runs the appliance in simulator mode (`waved sim`); see README.md.
// SIGINT, SIGTERM and SIGHUP go on to waved, and this process exits with waved's status, so
// stopping npm stops the simulator and frees its ports. npm runs this script through `sh -c`,
// which dies of npm's SIGTERM without passing it on: a parent that goes away counts as SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'apps/appliance/bin/waved.js');
if (!fs.existsSync(cli)) {
  console.log('waved: the appliance is not part of this checkout yet.');
  process.exit(0);
}
const turbo = path.join(root, 'node_modules/.bin/turbo');
const build = spawnSync(turbo, ['run', 'build', '--output-logs=errors-only'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const child = spawn(process.execPath, [cli, 'sim', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid !== parent && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}, 200);
orphaned.unref();
child.on('error', (error) => {
  console.error(`waved: could not start: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // die of the same signal, so npm and shells see what happened
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 0);
});
