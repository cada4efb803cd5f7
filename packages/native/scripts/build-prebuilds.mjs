#!/usr/bin/env node
// Builds the addon's prebuilds for linux-x64, linux-arm64 and linux-arm (armv7, hard float) with
// Debian's gcc and cross compilers, against the N-API headers of the `node-api-headers` package and
// libuv's header (Debian libuv1-dev). The output is byte-for-byte reproducible (no debug info, no
// build id, stripped, fixed flags), so the committed prebuilds can be checked against the source:
//   node scripts/build-prebuilds.mjs            rebuild prebuilds/ in place
//   node scripts/build-prebuilds.mjs --check    rebuild into a temp dir; exit 1 if any byte differs
//   node scripts/build-prebuilds.mjs --out DIR  rebuild into DIR
// Needs: gcc, gcc-aarch64-linux-gnu, gcc-arm-linux-gnueabihf, libuv1-dev (see .ci/run).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['native/waved_native.c', 'native/udp_batch.c'];
export const TARGETS = [
  { dir: 'linux-x64', cc: 'x86_64-linux-gnu-gcc', flags: ['-march=x86-64'] },
  { dir: 'linux-arm64', cc: 'aarch64-linux-gnu-gcc', flags: ['-march=armv8-a'] },
  {
    dir: 'linux-arm',
    cc: 'arm-linux-gnueabihf-gcc',
    flags: ['-march=armv7-a', '-mfpu=vfpv3-d16', '-mfloat-abi=hard', '-mthumb'],
  },
];
const COMMON = [
  '-std=gnu11',
  '-O2',
  '-fPIC',
  '-shared',
  '-fvisibility=hidden',
  '-fno-ident',
  '-g0',
  '-s',
  '-Wall',
  '-Wextra',
  '-Werror',
  '-Wno-unused-parameter',
  '-Wl,--build-id=none',
  '-Wl,-z,relro,-z,now',
  '-Wl,-z,noexecstack',
];

function napiInclude() {
  const require = createRequire(path.join(pkg, 'package.json'));
  return path.join(path.dirname(require.resolve('node-api-headers/package.json')), 'include');
}

/** libuv's public headers only, so a cross compiler never sees the build machine's other headers. */
function uvInclude(tmp) {
  const dir = path.join(tmp, 'uv-include');
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync('/usr/include/uv.h')) {
    throw new Error('libuv headers missing: apt-get install libuv1-dev');
  }
  fs.copyFileSync('/usr/include/uv.h', path.join(dir, 'uv.h'));
  fs.cpSync('/usr/include/uv', path.join(dir, 'uv'), { recursive: true });
  return dir;
}

export function buildAll(outDir) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'waved-native-build-'));
  try {
    const includes = ['-I', napiInclude(), '-I', uvInclude(tmp)];
    for (const t of TARGETS) {
      const dest = path.join(outDir, t.dir);
      fs.mkdirSync(dest, { recursive: true });
      const out = path.join(dest, 'waved_native.node');
      execFileSync(t.cc, [...COMMON, ...t.flags, ...includes, '-o', out, ...SOURCES], {
        cwd: pkg,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, LC_ALL: 'C', SOURCE_DATE_EPOCH: '0' },
      });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  if (args[0] === '--check') {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'waved-native-check-'));
    try {
      buildAll(tmp);
      let differ = 0;
      for (const t of TARGETS) {
        const committed = path.join(pkg, 'prebuilds', t.dir, 'waved_native.node');
        const rebuilt = path.join(tmp, t.dir, 'waved_native.node');
        const a = fs.existsSync(committed) ? sha256(committed) : 'missing';
        const b = sha256(rebuilt);
        console.log(
          `${t.dir}: committed ${a.slice(0, 16)} rebuilt ${b.slice(0, 16)} ${a === b ? 'same' : 'DIFFERENT'}`,
        );
        if (a !== b) differ++;
      }
      if (differ) {
        console.error(
          `${differ} prebuild(s) differ from the source: run npm run prebuilds -w @waved/native and commit`,
        );
        process.exit(1);
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  } else {
    const out = args[0] === '--out' ? path.resolve(args[1] ?? '') : path.join(pkg, 'prebuilds');
    buildAll(out);
    for (const t of TARGETS) {
      const file = path.join(out, t.dir, 'waved_native.node');
      console.log(`${path.relative(pkg, file)} ${fs.statSync(file).size} bytes sha256 ${sha256(file)}`);
    }
  }
}
