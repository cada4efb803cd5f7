// Verifying a 1 GiB signed .swu, like for like, every side pinned to one core (taskset -c 0) and
// reading the same file from the page cache:
//
//   ours   verifySwu(file, { md5, certificate, hardwareRevision }) in a fresh Node process, as the
//          appliance runs it before an install: MD5 of the whole file (the descriptor's
//          file_md5), the cpio crc of every entry, the sha256 of every artefact, the CMS signature
//          of sw-description (openssl cms) and the hardware revision. On one core its MD5 worker
//          shares that core.
//   peer 1 `md5sum FILE; openssl dgst -sha256 FILE`: the two digests a shell script would take
//          (goal: our CPU time at most 1.2x theirs).
//   peer 2 `swupdate -c -k CERT -H board:1.0 -i FILE`: SWUpdate's own check of the same package
//          (signature, cpio crc, sha256; no MD5) (goal: our wall time on one core at most 1.0x).
//
// CPU time is user + system of the process and its children (bash's `time`), wall time is the
// elapsed time of the same run. Rounds rotate the order; the figures are medians. Our unpinned
// wall time (MD5 worker on a second core) and peak RSS are printed too.
//
// Environment: BENCH_OTA_MB (image size, default 1024), BENCH_ROUNDS (default 3).
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSwu } from '@waved/swu-ota';
import { have, median, ratio, round, shellLine, spread, startRecord } from '../lib/results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SIZE_MB = Number(process.env.BENCH_OTA_MB ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

for (const program of ['taskset', 'md5sum', 'openssl', 'swupdate']) {
  if (!have(program)) {
    console.error(
      `bench/ota needs ${program} (Debian: util-linux, coreutils, openssl, swupdate); see .ci/run`,
    );
    process.exit(1);
  }
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waved-bench-ota-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const p = (name) => path.join(dir, name);

/** Wall and CPU milliseconds of a command line, from bash's `time` (the CPU of children included). */
function timed(argv, env = {}) {
  const r = spawnSync(
    'bash',
    ['-c', `TIMEFORMAT='%R %U %S'; time { "$@" > ${p('out')} 2>&1; }`, 'bench', ...argv],
    {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    },
  );
  const out = fs.readFileSync(p('out'), 'utf8');
  const [real, user, sys] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { status: r.status, out, wallMs: real * 1000, cpuMs: (user + sys) * 1000 };
}

// A signer as in lab.md §6 (swupdate's Debian build requires CMS-signed packages).
const cert = p('signer.cert.pem');
const key = p('signer.key.pem');
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '2',
    '-subj',
    '/O=waved bench/CN=swu-signer',
  ],
  { stdio: 'ignore' },
);

// Real bytes: a random 1 MiB block with the block number stamped in, repeated.
const image = p('rootfs.img');
const block = crypto.randomBytes(1 << 20);
const fd = fs.openSync(image, 'w');
for (let i = 0; i < SIZE_MB; i++) {
  block.writeUInt32LE(i, 0);
  fs.writeSync(fd, block);
}
fs.closeSync(fd);
const swu = p('software.swu');
fs.writeFileSync(p('target.img'), '');
await buildSwu({
  description: {
    software: {
      version: '1.0.0',
      'hardware-compatibility': ['1.0'],
      images: [{ filename: 'rootfs.img', type: 'raw', device: p('target.img') }],
    },
  },
  files: [{ name: 'rootfs.img', path: image }],
  output: swu,
  signer: { certificate: cert, key },
});
fs.rmSync(image);
const size = fs.statSync(swu).size;
const md5 = execFileSync('md5sum', [swu], { encoding: 'utf8' }).slice(0, 32);
fs.mkdirSync(p('swupdate-tmp'));

const oursArgv = [process.execPath, path.join(here, 'verify-child.mjs'), swu, md5, cert, '1.0'];
const sides = {
  ours: ['taskset', '-c', '0', ...oursArgv],
  'md5sum; openssl': [
    'taskset',
    '-c',
    '0',
    'bash',
    '-c',
    'md5sum "$1" && openssl dgst -sha256 "$1"',
    'peer',
    swu,
  ],
  'swupdate -c': ['taskset', '-c', '0', 'swupdate', '-c', '-k', cert, '-H', 'board:1.0', '-i', swu],
  'ours, 2 cores': oursArgv,
};
const display = (argv) =>
  shellLine(argv)
    .replaceAll(dir, '$DIR')
    .replace(process.execPath, 'node')
    .replace(path.join(here, 'verify-child.mjs'), 'bench/ota/verify-child.mjs');

const record = startRecord('ota', {
  method:
    'The same 1 GiB signed package from the page cache; each side pinned to one core with taskset -c 0; CPU = user + system of the process tree (bash time), wall = elapsed of the same run; medians of rounds with the order rotated.',
});
record.side('ours', display(sides.ours), 'verifySwu with md5, certificate and hardwareRevision');
record.side(
  'peer (CPU)',
  `${display(['taskset', '-c', '0', 'md5sum', '$DIR/software.swu'])} && openssl dgst -sha256 $DIR/software.swu`,
);
record.side(
  'peer (one-core wall)',
  `TMPDIR=$DIR/swupdate-tmp ${display(sides['swupdate -c'])}`,
  'SWUpdate 2022.12',
);

execFileSync('cat', [swu], { stdio: ['ignore', 'ignore', 'inherit'] }); // into the page cache
const names = Object.keys(sides);
const runs = Object.fromEntries(names.map((n) => [n, []]));
console.log(`file ${(size / 2 ** 30).toFixed(3)} GiB; ${ROUNDS} rounds, order rotated; one core unless said`);
for (let r = 0; r < ROUNDS; r++) {
  for (const name of names.map((_, i) => names[(i + r) % names.length])) {
    const x = timed(sides[name], name === 'swupdate -c' ? { TMPDIR: p('swupdate-tmp') } : {});
    if (name.startsWith('ours')) {
      if (x.status !== 0) throw new Error(`verifySwu failed: ${x.out}`);
      const report = JSON.parse(x.out);
      if (report.md5 !== md5 || report.images !== 1 || !report.signatureVerified)
        throw new Error(`verifySwu and md5sum disagree: ${x.out}`);
      x.maxRssMb = report.maxRssMb;
    } else if (name === 'swupdate -c') {
      // swupdate 2022.12 sometimes exits 1 after reporting success under load (lab.md §10)
      if (!/SWUPDATE successful/.test(x.out)) throw new Error(`swupdate -c failed (${x.status}):\n${x.out}`);
    } else if (x.status !== 0 || !x.out.includes(md5)) throw new Error(`md5sum/openssl failed: ${x.out}`);
    runs[name].push(x);
    console.log(
      `  round ${r + 1} ${name.padEnd(16)} wall ${(x.wallMs / 1000).toFixed(2)} s  CPU ${(x.cpuMs / 1000).toFixed(2)} s`,
    );
  }
}
const med = (name, k) => median(runs[name].map((x) => x[k]));
const paired = (a, b, k) => runs[a].map((x, i) => round(x[k] / runs[b][i][k]));
const figures = {
  cpuTime: {
    label: 'CPU time to verify, vs md5sum then openssl dgst -sha256',
    ...ratio(med('ours', 'cpuMs') / 1000, med('md5sum; openssl', 'cpuMs') / 1000, {
      unit: 's',
      better: 'lower',
    }),
    spread: spread(paired('ours', 'md5sum; openssl', 'cpuMs')),
  },
  oneCoreWall: {
    label: 'wall time on one core, vs swupdate -c',
    ...ratio(med('ours', 'wallMs') / 1000, med('swupdate -c', 'wallMs') / 1000, {
      unit: 's',
      better: 'lower',
    }),
    spread: spread(paired('ours', 'swupdate -c', 'wallMs')),
  },
  cpuTimeVsSwupdate: {
    label: 'CPU time, vs swupdate -c',
    ...ratio(med('ours', 'cpuMs') / 1000, med('swupdate -c', 'cpuMs') / 1000, { unit: 's', better: 'lower' }),
  },
  oneCoreWallVsDigests: {
    label: 'wall time on one core, vs md5sum then openssl dgst -sha256',
    ...ratio(med('ours', 'wallMs') / 1000, med('md5sum; openssl', 'wallMs') / 1000, {
      unit: 's',
      better: 'lower',
    }),
  },
  twoCoreWall: {
    label: 'our wall time with the MD5 worker on a second core, vs md5sum then openssl on one',
    ...ratio(med('ours, 2 cores', 'wallMs') / 1000, med('md5sum; openssl', 'wallMs') / 1000, {
      unit: 's',
      better: 'lower',
    }),
  },
  peakRssMb: round(Math.max(...runs.ours.map((x) => x.maxRssMb))),
};
record.note(`peak RSS of our process (MD5 worker included): ${figures.peakRssMb} MB`);
console.log('\nmedians:');
for (const name of names) {
  console.log(
    `  ${name.padEnd(16)} wall ${(med(name, 'wallMs') / 1000).toFixed(2)} s  CPU ${(med(name, 'cpuMs') / 1000).toFixed(2)} s`,
  );
}
console.log(
  `ratio ours/peer: CPU ${figures.cpuTime.ratio}x md5sum+openssl (goal <= 1.2x), one-core wall ${figures.oneCoreWall.ratio}x swupdate -c (goal <= 1.0x); peak RSS ${figures.peakRssMb} MB`,
);
record.finish(figures);
