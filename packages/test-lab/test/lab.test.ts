import { afterAll, expect, it } from 'vitest';
import { createNetns, createVethPair, needs, removeAllNetns, waitFor } from '../src/index.js';

const lab = needs({ root: true, peers: ['ip'] });
lab.describe('network namespaces', () => {
  afterAll(removeAllNetns);
  it('creates a veth pair across two namespaces that can ping', async () => {
    const a = await createNetns('labA');
    const b = await createNetns('labB');
    await createVethPair(
      { ns: a, name: 'va0', address: '10.77.0.1/24' },
      { ns: b, name: 'vb0', address: '10.77.0.2/24' },
    );
    const r = await waitFor(
      async () => (await a.exec('ping', ['-c', '1', '-W', '1', '10.77.0.2'], { allowFail: true })).code === 0,
      {
        timeoutMs: 5000,
      },
    );
    expect(r).toBe(true);
    await a.remove();
    await b.remove();
    const { stdout } = await (await import('../src/exec.js')).exec('ip', ['netns', 'list']);
    expect(stdout).not.toContain(a.name);
  });
});
