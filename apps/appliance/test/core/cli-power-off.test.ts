// The built CLI tells the cloud why it stops: SIGINT (Ctrl-C, the user) is `user`, SIGTERM
// (systemd) is `shutdown` (the sim test in cli.test.ts holds that one).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCloudServer } from '@waved/psp-cloud/server';
import { freePort, tempDir, waitFor } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../helpers/build.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/waved.js');

describe('waved sim: device_power_off on SIGINT', () => {
  const dir = tempDir('waved-power-off-');
  const kill: Array<() => void> = [];
  beforeAll(() => buildCli(), 60_000);
  afterAll(() => {
    for (const k of kill) k();
    dir.remove();
  });

  it('SIGINT after the cloud session is up: the cloud receives device_power_off with power_off_type user', async () => {
    const server = createCloudServer({ devices: [{ serial: 'SIM0001', secret: 'sim-factory-secret' }] });
    const cloud = await server.listen({ host: '127.0.0.1', port: 0 });
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        bin,
        'sim',
        '--cloud-url',
        cloud.url,
        '--port',
        String(port),
        '--screen-port',
        '0',
        '--no-device-demo',
        '--data-dir',
        dir.join('data'),
        '--config',
        dir.join('config.toml'),
        '--exit-after',
        '170000',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    kill.push(() => child.kill('SIGKILL'));
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout.resume();
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const until = (check: () => boolean, what: string) =>
      Promise.race([
        waitFor(check, { timeoutMs: 90_000, what }),
        exited.then((code) => {
          throw new Error(`waved exited (${code}) before ${what}:\n${err.slice(-3000)}`);
        }),
      ]);
    await until(() => /setup network Device-[0-9A-F]{4} is up/.test(err), 'the setup network');
    const form = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    const csrf =
      /name="csrf"[^>]*value="([^"]+)"/.exec(form)?.[1] ?? /value="([^"]+)"[^>]*name="csrf"/.exec(form)?.[1];
    const saved = await fetch(`http://127.0.0.1:${port}/save-connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        csrf: csrf!,
        'wifi.ssid': 'Home',
        'wifi.passphrase': 'correct horse',
      }).toString(),
    });
    expect(saved.status).toBe(200);
    await until(() => err.includes('cloud: session ready'), 'the cloud session');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(err).toContain('stopping (SIGINT)');
    const off = server.telemetry().filter((e) => e.event === 'device_power_off');
    expect(off.map((e) => e.params)).toEqual([
      // the simulator's battery gauge reads 80 %
      expect.objectContaining({ power_off_type: 'user', battery: 80 }),
    ]);
    await cloud.close();
  }, 150_000);
});
