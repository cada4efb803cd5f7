import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Peer, startPeer, tempDir, waitFor } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Attack: another client on the setup network opens hundreds of connections to the portal and
 * sends its headers slowly, so the portal's process runs out of file descriptors and every phone's
 * request fails. As measured: at a 400-descriptor limit, 450 slow connections made every normal
 * request fail for about 20 s. The portal runs here in its own process with that same limit; the
 * attacker and the phone are distinct loopback addresses (127.0.0.x are all this machine's).
 */
const hooks = fileURLToPath(import.meta.resolve('@waved/test-lab/ts-hooks'));
const child = fileURLToPath(new URL('./fixtures/portal-child.ts', import.meta.url));
const SLOW = 450;
const FD_LIMIT = 400;

describe('portal connection caps', () => {
  const dir = tempDir('waved-sec-conn-');
  let portal: Peer;
  let port: number;
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    portal = startPeer('sh', [
      '-c',
      `ulimit -n ${FD_LIMIT} && exec "$@"`,
      'sh',
      process.execPath,
      '--no-warnings',
      '--import',
      hooks,
      child,
      dir.path,
    ]);
    const line = await waitFor(() => /listening (\d+)/.exec(portal.output()), {
      timeoutMs: 20_000,
      what: `the portal child: ${portal.output()}`,
    });
    port = Number(line[1]);
    const limits = fs.readFileSync(`/proc/${portal.pid}/limits`, 'utf8');
    expect(limits).toMatch(new RegExp(`Max open files\\s+${FD_LIMIT}\\s`));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await portal?.stop();
    dir.remove();
  });

  /** Opens `count` connections from `from` that send half a request header and then stall. */
  async function slowWave(from: string[], count: number): Promise<void> {
    const opened: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      const socket = net.connect({ host: '127.0.0.1', port, localAddress: from[i % from.length] });
      socket.on('error', () => {});
      sockets.push(socket);
      opened.push(
        new Promise<void>((resolve) => {
          socket.once('connect', () => {
            socket.write('GET / HTTP/1.1\r\nHost: 192.168.2.1\r\nX-Slow: ');
            resolve();
          });
          socket.once('close', () => resolve());
        }),
      );
    }
    await Promise.all(opened);
    // Let the portal accept (or refuse) every one of them.
    await new Promise((r) => setTimeout(r, 300));
  }

  /** A phone's ordinary GET / from `from`: its status, or the error. */
  function phoneGet(from: string): Promise<number | string> {
    return new Promise((resolve) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: '/', localAddress: from, agent: false, timeout: 3_000 },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (e) => resolve((e as NodeJS.ErrnoException).code ?? e.message));
    });
  }

  it(`${SLOW} slow connections from one address do not keep another phone out`, async () => {
    expect(await phoneGet('127.0.0.3')).toBe(200);
    await slowWave(['127.0.0.2'], SLOW);
    const results: Array<number | string> = [];
    for (let i = 0; i < 5; i++) results.push(await phoneGet(`127.0.0.${3 + (i % 2)}`));
    expect(results).toEqual([200, 200, 200, 200, 200]);
    // The same address is held to its share: most of the wave was closed at once.
    const stillOpen = sockets.filter((s) => !s.destroyed && s.readyState === 'open').length;
    expect(stillOpen).toBeLessThanOrEqual(16);
  });

  it(`the wave from ${SLOW / 15} addresses at once does not keep a phone out either, and can be repeated`, async () => {
    const many = Array.from({ length: 30 }, (_, i) => `127.0.1.${i + 1}`);
    for (let wave = 0; wave < 2; wave++) {
      await slowWave(many, SLOW);
      const results: Array<number | string> = [];
      for (let i = 0; i < 4; i++) results.push(await phoneGet('127.0.0.5'));
      expect(results, `wave ${wave + 1}`).toEqual([200, 200, 200, 200]);
    }
  });
});
