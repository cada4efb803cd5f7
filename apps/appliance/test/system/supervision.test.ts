import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createUnixDatagramSocket } from '@waved/native';
import { freePort, needs, tempDir, waitFor } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, buildCli, root } from '../helpers/build.js';

/** A real unix datagram socket, bound as a service manager's NOTIFY_SOCKET is. */
function notifyListener(socketPath: string) {
  const messages: Array<{ at: number; text: string }> = [];
  const socket = createUnixDatagramSocket();
  socket.bind(socketPath);
  socket.on('message', (msg) => messages.push({ at: Date.now(), text: msg.toString() }));
  return { messages, close: () => socket.close() };
}

describe('sd_notify: READY=1, WATCHDOG=1 and STOPPING=1 on a real NOTIFY_SOCKET (built CLI)', () => {
  const dir = tempDir('waved-notify-');
  beforeAll(() => buildCli(), 120_000);
  afterAll(() => dir.remove());

  it('reports ready with its pid, keeps the watchdog fed, and says when it stops', async () => {
    const socketPath = dir.join('notify.sock');
    const listener = notifyListener(socketPath);
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [
        bin,
        'sim',
        '--no-cloud',
        '--port',
        String(await freePort()),
        '--screen-port',
        '0',
        '--data-dir',
        dir.join('data'),
      ],
      {
        env: { ...process.env, NOTIFY_SOCKET: socketPath, WATCHDOG_USEC: '400000' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const ready = await waitFor(() => listener.messages.find((m) => m.text.startsWith('READY=1')), {
        timeoutMs: 30_000,
        what: 'READY=1',
      });
      expect(ready.text).toContain(`MAINPID=${child.pid}`);
      expect(ready.text).toMatch(/STATUS=running in \d+ ms/);
      // WATCHDOG_USEC=400000: a WATCHDOG=1 every 200 ms
      await waitFor(() => listener.messages.filter((m) => m.text === 'WATCHDOG=1').length >= 3, {
        timeoutMs: 10_000,
        what: 'three WATCHDOG=1',
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const stopping = listener.messages.findIndex((m) => m.text.startsWith('STOPPING=1'));
      expect(stopping).toBeGreaterThan(listener.messages.indexOf(ready));
      expect(ready.at - started).toBeLessThan(30_000);
    } finally {
      child.kill('SIGKILL');
      listener.close();
    }
  }, 60_000);

  it('without NOTIFY_SOCKET nothing is sent and nothing breaks', async () => {
    const r = spawnSync(
      process.execPath,
      [
        bin,
        'sim',
        '--no-cloud',
        '--port',
        '0',
        '--screen-port',
        '0',
        '--exit-after',
        '1500',
        '--data-dir',
        dir.join('d2'),
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status).toBe(0);
    expect(r.stderr).not.toContain('sd_notify');
  }, 60_000);
});

needs({ peers: ['systemd-analyze'] }).describe('the systemd unit', () => {
  it('passes systemd-analyze verify with no warning, as Type=notify with a watchdog and bounded capabilities', () => {
    const unit = fs.readFileSync(path.join(root, 'systemd/waved.service'), 'utf8');
    expect(unit).toMatch(/^Type=notify$/m);
    expect(unit).toMatch(/^WatchdogSec=\d+$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    const caps = /^CapabilityBoundingSet=(.*)$/m.exec(unit)?.[1]?.split(/\s+/).sort();
    expect(caps).toEqual(['CAP_NET_ADMIN', 'CAP_NET_BIND_SERVICE', 'CAP_NET_RAW', 'CAP_SYS_TIME']);
    // verify needs ExecStart to exist: point it at the launcher of this checkout
    const dir = tempDir('waved-unit-');
    try {
      const file = dir.join('waved.service');
      fs.writeFileSync(file, unit.replace('/usr/local/bin/waved', bin));
      const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      // verify reports a bad key or value only as a message: there must be none about the unit
      expect(`${r.stdout}${r.stderr}`.split('\n').filter((l) => l.includes('waved.service'))).toEqual([]);
    } finally {
      dir.remove();
    }
  });
});
