import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createNetns,
  createVethPair,
  needs,
  removeAllNetns,
  startPeer,
  tempDir,
  waitFor,
} from '../src/index.js';

describe('tempDir', () => {
  it('is private and removable', () => {
    const dir = tempDir('lab-test-');
    expect(fs.statSync(dir.path).mode & 0o777).toBe(0o700);
    fs.writeFileSync(dir.join('x'), 'y');
    dir.remove();
    expect(fs.existsSync(dir.path)).toBe(false);
  });
});

describe('startPeer', () => {
  it('stops a process by PID and reports its exit', async () => {
    const peer = startPeer('sleep', ['30']);
    expect(peer.pid).toBeGreaterThan(0);
    await peer.stop();
    expect(() => process.kill(peer.pid, 0)).toThrow();
  });
});

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
