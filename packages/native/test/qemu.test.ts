// The arm64 and armv7 prebuilds, loaded and exercised by Node for those CPUs under qemu-user, with
// official Node builds from the npm registry (scripts/node-dist.mjs). The other native dependencies
// of the project are loaded the same way, to show which architectures their prebuilds cover.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { needs } from '@waved/test-lab';
import { beforeAll, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { NODE_VERSIONS, nodeDist } from '../../../scripts/node-dist.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..');
const root = path.resolve(pkg, '../..');
const run = promisify(execFile);

const CPUS = {
  arm64: { qemu: 'qemu-aarch64', sysroot: '/usr/aarch64-linux-gnu', prebuild: 'linux-arm64', arch: 'arm64' },
  armv7l: { qemu: 'qemu-arm', sysroot: '/usr/arm-linux-gnueabihf', prebuild: 'linux-arm', arch: 'arm' },
} as const;
type Cpu = keyof typeof CPUS;
const nodes: Partial<Record<Cpu, string>> = {};

/** Runs `args` with the Node for `cpu` under qemu-user; returns the parsed JSON line it prints. */
async function underQemu(cpu: Cpu, args: string[]): Promise<Record<string, unknown>> {
  const c = CPUS[cpu];
  const { stdout } = await run(c.qemu, ['-L', c.sysroot, nodes[cpu]!, ...args], {
    cwd: pkg,
    timeout: 120_000,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`${cpu}: ${error.stdout ?? ''}${error.stderr ?? ''}`);
  });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

needs({ peers: ['qemu-aarch64', 'qemu-arm'] }).describe('prebuilds under qemu-user', () => {
  beforeAll(() => {
    nodes.arm64 = nodeDist(NODE_VERSIONS.arm64, 'arm64');
    nodes.armv7l = nodeDist(NODE_VERSIONS.armv7l, 'armv7l');
  }, 180_000);

  it.each(['arm64', 'armv7l'] as const)(
    '%s: the prebuild loads; a unix datagram round trip, socket options and a UDP batch echo work',
    async (cpu) => {
      const c = CPUS[cpu];
      const file = path.join(pkg, 'prebuilds', c.prebuild, 'waved_native.node');
      const out = await underQemu(cpu, [path.join(here, 'fixtures/exercise.mjs'), 'raw', file]);
      expect(out).toMatchObject({
        arch: c.arch,
        abi: 3,
        sent: 4,
        unix: { text: 'PING', from: expect.stringMatching(/-b$/) },
        sndbuf: 131_072,
        // qemu-user 7.2 does not translate SO_BINDTOIFINDEX: the path a kernel < 5.1 takes
        ifindex: expect.toBeOneOf([1, 'ENOPROTOOPT']),
        deviceSet: 'ok',
        batch: 'BATCH-OK',
      });
      expect(out.error).toBeUndefined();
    },
    180_000,
  );

  it('arm64 on Node 24: the built package picks its prebuild and serves the public API', async () => {
    const out = await underQemu('arm64', [
      path.join(here, 'fixtures/exercise.mjs'),
      'package',
      path.join(pkg, 'dist/index.js'),
    ]);
    expect(out).toMatchObject({
      arch: 'arm64',
      node: `v${NODE_VERSIONS.arm64}`,
      status: { available: true, reason: '' },
      unix: { text: 'PING', from: expect.stringMatching(/-pb$/) },
      sndbuf: 131_072,
    });
  }, 180_000);

  it.each([
    ['arm64', '@serialport/bindings-cpp', true],
    ['armv7l', '@serialport/bindings-cpp', true],
    ['arm64', 'better-sqlite3', true],
    // No 32-bit ARM prebuild: the SQLite stores need another engine there (docs/decisions.md).
    ['armv7l', 'better-sqlite3', false],
  ] as const)(
    '%s: %s loads its shipped prebuild: %s',
    async (cpu, name, loads) => {
      const script =
        name === 'better-sqlite3'
          ? `const D = require(${JSON.stringify(path.join(root, 'node_modules/better-sqlite3'))}); const db = new D(':memory:'); console.log(JSON.stringify({ ok: db.prepare('select 40 + 2 as v').get().v === 42 }));`
          : `const { binding } = require(${JSON.stringify(path.join(root, 'node_modules/@serialport/bindings-cpp/dist/serialport-bindings.js'))}); console.log(JSON.stringify({ ok: typeof binding.open === 'function' && typeof binding.set === 'function' }));`;
      const attempt = underQemu(cpu, [
        '-e',
        `try { ${script} } catch (e) { console.log(JSON.stringify({ ok: false, error: String(e.message).split('\\n')[0] })) }`,
      ]);
      const out = await attempt;
      expect(out.ok).toBe(loads);
    },
    180_000,
  );
});
