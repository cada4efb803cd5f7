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

  const peer = [];
  const ours = [];
  let md5;
  for (let round = 0; round < ROUNDS; round++) {
    const p = timed('md5sum', [swu]);
    md5 = p.stdout.slice(0, 32);
    peer.push(p.ms);
    const o = timed(process.execPath, [path.join(here, 'verify-child.mjs'), swu, md5]);
    const result = JSON.parse(o.stdout);
    if (result.md5 !== md5 || result.images !== 1) throw new Error('verifySwu and md5sum disagree');
    ours.push({ ...result, wall: o.ms });
  }
  const best = (xs) => Math.min(...xs);
  const peerMs = best(peer);
  const ourWall = best(ours.map((o) => o.wall));
  const ourIn = best(ours.map((o) => o.ms));
  const rss = Math.max(...ours.map((o) => o.maxRssMb));
  const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `file ${(size / 2 ** 30).toFixed(3)} GiB, ${ROUNDS} rounds, best of each; cores ${os.cpus().length}, load ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(
    `md5sum                                   ${f(peerMs)}  (${(size / 2 ** 20 / (peerMs / 1000)).toFixed(0)} MiB/s)`,
  );
  console.log(
    `verifySwu (MD5 + crc + sha256), process  ${f(ourWall)}  (inside verifySwu ${f(ourIn)}, CPU ${f(best(ours.map((o) => o.cpuMs)))})`,
  );
  console.log(
    `ratio ours/md5sum: ${(ourWall / peerMs).toFixed(2)}x process, ${(ourIn / peerMs).toFixed(2)}x verifySwu alone (goal <= 1.10x)`,
  );
  console.log(
    `peak RSS of our process: ${rss.toFixed(1)} MB (goal < 80 MB; a bare \`node -e\` is ${(JSON.parse(execFileSync(process.execPath, ['-p', 'process.resourceUsage().maxRSS']).toString()) / 1024).toFixed(1)} MB)`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
