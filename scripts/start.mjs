#!/usr/bin/env node
// `npm start`: runs the appliance in simulator mode once it is built; see README.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'apps/appliance/bin/waved.js');
if (!fs.existsSync(cli)) {
  console.log('waved: the appliance is not part of this checkout yet.');
  console.log('It will run `waved sim`: a simulated radio, captive DNS and DHCP on loopback ports,');
  console.log('the provisioning portal on http://127.0.0.1:8080 and the device screen in this terminal.');
  process.exit(0);
}
const turbo = path.join(root, 'node_modules/.bin/turbo');
const build = spawnSync(turbo, ['run', 'build', '--output-logs=errors-only'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);
const r = spawnSync(process.execPath, [cli, 'sim', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(r.status ?? 0);
