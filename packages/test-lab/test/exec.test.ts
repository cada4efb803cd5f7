import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startPeer, tempDir } from '../src/index.js';

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
