// Verifying a 1 GiB .swu (MD5 of the file + cpio crc + sha256 of the image) with @waved/swu-ota,
// against `md5sum` of the same file, in the same run. Ours runs in a fresh process, like md5sum, so
// both wall times include process start-up; our peak RSS is the child's maxRSS (MD5 worker included).
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSwu } from '@waved/swu-ota';

const here = path.dirname(fileURLToPath(import.meta.url));
const SIZE_MB = Number(process.env.BENCH_OTA_MB ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ota-'));

/** Wall and CPU seconds of a shell command, from bash's `time` (the CPU of its children included). */
function shellTimed(script, file) {
  const r = spawnSync(
    'bash',
    ['-c', `TIMEFORMAT='%R %U %S'; time { ${script}; } > /dev/null`, 'bench', file],
    {
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`${script} failed: ${r.stderr}`);
  const [real, user, sys] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { ms: real * 1000, cpuMs: (user + sys) * 1000 };
}

function timed(file, args) {
  const t = performance.now();
  const r = spawnSync(file, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${file} failed: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

try {
  // Real bytes: a random 1 MiB block, with the block number stamped in, repeated.
  const image = path.join(dir, 'rootfs.img');
  const block = crypto.randomBytes(1 << 20);
  const fd = fs.openSync(image, 'w');
  for (let i = 0; i < SIZE_MB; i++) {
    block.writeUInt32LE(i, 0);
    fs.writeSync(fd, block);
  }
  fs.closeSync(fd);
  const swu = path.join(dir, 'software.swu');
  await buildSwu({
    description: { software: { version: '1.0.0', images: [{ filename: 'rootfs.img', type: 'raw' }] } },
    files: [{ name: 'rootfs.img', path: image }],
    output: swu,
  });
  fs.rmSync(image);
  const size = fs.statSync(swu).size;

  const md5 = execFileSync('md5sum', [swu], { encoding: 'utf8' }).slice(0, 32);
  const peer = [];
  const both = [];
  const ours = [];
  for (let round = 0; round < ROUNDS; round++) {
    peer.push(shellTimed('md5sum "$1"', swu));
    // The same two digests a shell script would take, side by side (context, not the goal's peer).
    both.push(shellTimed('md5sum "$1" & sha256sum "$1" & wait', swu));
    const o = timed(process.execPath, [path.join(here, 'verify-child.mjs'), swu, md5]);
    const result = JSON.parse(o.stdout);
    if (result.md5 !== md5 || result.images !== 1) throw new Error('verifySwu and md5sum disagree');
    ours.push({ ...result, wall: o.ms });
  }
  const best = (xs) => Math.min(...xs);
  const peerMs = best(peer.map((p) => p.ms));
  const bothMs = best(both.map((p) => p.ms));
  const ourWall = best(ours.map((o) => o.wall));
  const ourIn = best(ours.map((o) => o.ms));
  const rss = Math.max(...ours.map((o) => o.maxRssMb));
  const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const cpu = (xs) => f(best(xs.map((x) => x.cpuMs)));
  const bareRss =
    JSON.parse(execFileSync(process.execPath, ['-p', 'process.resourceUsage().maxRSS']).toString()) / 1024;
  const lines = [
    `file ${(size / 2 ** 30).toFixed(3)} GiB, ${ROUNDS} rounds, best of each; cores ${os.cpus().length}, load ${os.loadavg()[0].toFixed(1)}`,
    `md5sum                                   wall ${f(peerMs)}  CPU ${cpu(peer)}  (${(size / 2 ** 20 / (peerMs / 1000)).toFixed(0)} MiB/s)`,
    `md5sum & sha256sum side by side          wall ${f(bothMs)}  CPU ${cpu(both)}`,
    `verifySwu (MD5 + crc + sha256), process  wall ${f(ourWall)}  CPU ${cpu(ours)}  (inside verifySwu ${f(ourIn)})`,
    `ratio ours/md5sum: ${(ourWall / peerMs).toFixed(2)}x wall (${(ourIn / peerMs).toFixed(2)}x verifySwu alone; goal <= 1.10x); ours/(md5sum & sha256sum) ${(ourWall / bothMs).toFixed(2)}x`,
    '(the wall ratio assumes a second core is free for the MD5 worker; on a loaded machine compare CPU too)',
    `peak RSS of our process: ${rss.toFixed(1)} MB (goal < 80 MB; a bare \`node -e\` is ${bareRss.toFixed(1)} MB)`,
  ];
  for (const line of lines) console.log(line);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
