// The ARP cache writer against the kernel, in a network namespace of its own (root).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNetns, createVethPair, type Netns, needs } from '@waved/test-lab';
import { afterAll, beforeAll, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const lab = needs({ root: true, peers: ['ip'] });

lab.describe('createArpWriter in a namespace with a veth (Ethernet) interface', () => {
  let ns: Netns;
  let other: Netns;
  beforeAll(async () => {
    ns = await createNetns('arp');
    other = await createNetns('arpo');
    await createVethPair({ ns, name: 'eth9', address: '10.77.0.1/24' }, { ns: other, name: 'eth8' });
  });
  afterAll(async () => {
    await ns?.remove();
    await other?.remove();
  });

  it('writes the entry the kernel then uses (lladdr, not permanent); names the errors', async () => {
    const { stdout } = await ns.exec(
      process.execPath,
      [
        path.join(here, 'fixtures/arp.mjs'),
        path.join(here, '../dist/index.js'),
        'eth9',
        '10.77.0.9',
        '02:11:22:33:44:55',
      ],
      { env: { ...process.env, NODE_NO_WARNINGS: '1' } },
    );
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({
      written: 'ok',
      unknownDevice: 'NATIVE_SYSCALL/ENODEV',
      shortAddress: 'NATIVE_ARGUMENT/',
      badName: 'NATIVE_ARGUMENT/',
    });
    const neigh = (await ns.exec('ip', ['-4', 'neigh', 'show', '10.77.0.9', 'dev', 'eth9'])).stdout.trim();
    expect(neigh).toMatch(/^10\.77\.0\.9 lladdr 02:11:22:33:44:55 (REACHABLE|STALE|DELAY)$/);
  });
});
