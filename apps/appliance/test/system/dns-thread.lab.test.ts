import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCaptiveDns } from '@waved/captive-dns';
import { needs } from '@waved/test-lab';
import { beforeAll, expect, it } from 'vitest';
import { buildCli, root } from '../helpers/build.js';

type DistIndex = typeof import('../../src/index.js');

/** Runs the real `dig` and resolves with its answer lines and its own "Query time". */
function dig(port: number, name: string, extra: string[] = []): Promise<{ answers: string[]; ms: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      'dig',
      ['@127.0.0.1', '-p', String(port), name, 'A', '+tries=1', '+time=3', ...extra],
      (error, stdout) => {
        if (error) return reject(error);
        const answers = stdout
          .split('\n')
          .filter((l) => /\sIN\s+A\s/.test(l) && !l.startsWith(';'))
          .map((l) => l.trim().split(/\s+/).at(-1) as string);
        const ms = Number(/Query time: (\d+) msec/.exec(stdout)?.[1] ?? Number.NaN);
        resolve({ answers, ms });
      },
    );
  });
}

/** Blocks this thread's event loop for `ms` (what a long piece of portal work does to it). */
function block(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}

/**
 * The captive DNS responder on its own thread, started through the built appliance (dist/), as the
 * device starts it while the AP is up; the real `dig` asks it.
 */
const lab = needs({ peers: ['dig'] });
lab.describe('the captive DNS thread (built dist/, real dig)', () => {
  let dist: DistIndex;
  beforeAll(async () => {
    buildCli();
    dist = (await import(pathToFileURL(path.join(root, 'dist/index.js')).href)) as DistIndex;
  });

  it('answers every name with the AP address over UDP and TCP, logs through the main thread, and closes', async () => {
    const lines: string[] = [];
    const logger = {
      info: (m: string, f?: Record<string, unknown>) => lines.push(`${m} ${JSON.stringify(f)}`),
    };
    expect(dist.captiveDnsThreadEntry()?.pathname).toBe(path.join(root, 'dist/dns-thread.js'));
    const dns = await dist.startCaptiveDnsThread({
      answer: '192.168.2.1',
      address: '127.0.0.1',
      port: 0,
      logger,
    });
    try {
      expect((await dig(dns.port, 'connectivitycheck.gstatic.com')).answers).toEqual(['192.168.2.1']);
      expect((await dig(dns.port, 'example.org', ['+tcp'])).answers).toEqual(['192.168.2.1']);
      expect(
        lines.some((l) => l.startsWith('captive-dns: listening') && l.includes(`"port":${dns.port}`)),
      ).toBe(true);
    } finally {
      await dns.close();
    }
    // closed: the port is free again, and a second close is harmless
    const again = await dist.startCaptiveDnsThread({
      answer: '192.168.2.1',
      address: '127.0.0.1',
      port: dns.port,
    });
    await again.close();
    await again.close();
  });

  it('answers while the main thread is blocked for 2 s; on the main thread the same query waits it out', async () => {
    const threaded = await dist.startCaptiveDnsThread({
      answer: '192.168.2.1',
      address: '127.0.0.1',
      port: 0,
    });
    const inline = createCaptiveDns({ answer: '192.168.2.1', address: '127.0.0.1', port: 0 });
    const { port: inlinePort } = await inline.listen();
    try {
      // dig starts during the block and sends within it: the block is long beside dig's start-up,
      // so the control below still waits well over 300 ms on a loaded machine
      const t = dig(threaded.port, 'a.example.com');
      block(2000);
      const fromThread = await t;
      expect(fromThread.answers).toEqual(['192.168.2.1']);
      expect(fromThread.ms).toBeLessThan(300);

      // the control: the same measurement sees a responder that shares the blocked loop
      const i = dig(inlinePort, 'b.example.com');
      block(2000);
      const fromMain = await i;
      expect(fromMain.answers).toEqual(['192.168.2.1']);
      expect(fromMain.ms).toBeGreaterThanOrEqual(300);
    } finally {
      await threaded.close();
      await inline.close();
    }
  });

  it('a port in use rejects with CAPTIVE_DNS_LISTEN, as the in-process server does; a missing entry with APPLIANCE_DNS_THREAD', async () => {
    const taken = dgram.createSocket('udp4');
    const port = await new Promise<number>((resolve) =>
      taken.bind(0, '127.0.0.1', () => resolve(taken.address().port)),
    );
    try {
      await expect(
        dist.startCaptiveDnsThread({ answer: '192.168.2.1', address: '127.0.0.1', port }),
      ).rejects.toMatchObject({ code: 'CAPTIVE_DNS_LISTEN' });
    } finally {
      taken.close();
    }
    await expect(
      dist.startCaptiveDnsThread({
        answer: '192.168.2.1',
        address: '127.0.0.1',
        port: 0,
        entry: pathToFileURL(path.join(root, 'dist/no-such-thread.js')),
      }),
    ).rejects.toMatchObject({ code: 'APPLIANCE_DNS_THREAD' });
  });
});
