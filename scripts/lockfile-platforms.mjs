#!/usr/bin/env node
// The npm registry mirror this project installs from serves only linux-x64 builds of
// platform-specific optional packages (@esbuild/*, @rollup/*, @biomejs/cli-*, turbo-*): the others
// answer 404. npm then writes a lockfile without them, and `npm ci` rejects its own lockfile
// ("Missing: @biomejs/cli-android-arm64@ from lock file"). This adds an optional entry for each
// missing optional dependency, so `npm ci` accepts the lockfile and simply skips those packages,
// as it would skip them on any other linux-x64 machine. Run it after every `npm install`:
//   node scripts/lockfile-platforms.mjs            fix package-lock.json in place
//   node scripts/lockfile-platforms.mjs --check    exit 1 if it needs fixing
import fs from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;

function resolves(from, name) {
  // Node resolution inside the lockfile: nested node_modules first, then each ancestor.
  let base = from;
  for (;;) {
    const key = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[key]) return true;
    if (!base) return false;
    const at = base.lastIndexOf('/node_modules/');
    base = at >= 0 ? base.slice(0, at) : '';
  }
}

// Platform fields from the package name (for example `@rollup/rollup-linux-arm64-musl`), so that
// `npm ci` skips the entry by its os/cpu/libc instead of trying to fetch it.
function platformOf(name) {
  const t = name.split('/').pop().toLowerCase();
  const has = (re) => re.test(t);
  const os = has(/(^|-)android(-|$)/)
    ? 'android'
    : has(/(^|-)darwin(-|$)/)
      ? 'darwin'
      : has(/(^|-)freebsd(-|$)/)
        ? 'freebsd'
        : has(/(^|-)openbsd(-|$)/)
          ? 'openbsd'
          : has(/(^|-)openharmony(-|$)/)
            ? 'openharmony'
            : has(/(^|-)(win32|windows)(-|$)/)
              ? 'win32'
              : has(/(^|-)linux(-|$)/)
                ? 'linux'
                : null;
  const cpu = has(/arm64/)
    ? 'arm64'
    : has(/(^|-)arm(-|$)/)
      ? 'arm'
      : has(/ia32/)
        ? 'ia32'
        : has(/loong64/)
          ? 'loong64'
          : has(/ppc64/)
            ? 'ppc64'
            : has(/riscv64/)
              ? 'riscv64'
              : has(/s390x/)
                ? 's390x'
                : has(/(x64|(^|-)64$)/)
                  ? 'x64'
                  : null;
  const out = {};
  if (os) out.os = [os];
  if (cpu) out.cpu = [cpu];
  if (os === 'linux') out.libc = [has(/musl/) ? 'musl' : 'glibc'];
  return out;
}

const added = [];
for (const [key, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const existing = packages[`node_modules/${name}`];
    if (existing && !existing.resolved && !existing.integrity && existing.optional && !existing.os) {
      Object.assign(existing, platformOf(name)); // an older stub without platform fields
      continue;
    }
    if (resolves(key, name)) continue;
    const version = String(range).replace(/^[\^~=v]/, '');
    if (!/^\d+\.\d+\.\d+/.test(version)) continue;
    const target = packages[`node_modules/${name}`] ? `${key}/node_modules/${name}` : `node_modules/${name}`;
    const stub = { version, optional: true, ...platformOf(name) };
    if (entry.dev) stub.dev = true;
    if (entry.devOptional) stub.devOptional = true;
    packages[target] = stub;
    added.push(`${name}@${version}`);
  }
}

if (process.argv.includes('--check')) {
  if (added.length) {
    console.error(
      `package-lock.json lacks ${added.length} optional platform entries; run node scripts/lockfile-platforms.mjs`,
    );
    process.exit(1);
  }
  process.exit(0);
}
// Keep npm's key order: sort the packages map like npm does (root first, then alphabetical).
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'))),
);
lock.packages = sorted;
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  added.length ? `added ${added.length} optional platform entries` : 'package-lock.json already complete',
);
