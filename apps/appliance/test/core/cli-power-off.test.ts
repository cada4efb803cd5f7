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

describe('waved sim: settings telemetry from the portal, and device_power_off on SIGINT', () => {
  const dir = tempDir('waved-power-off-');
  const kill: Array<() => void> = [];
  beforeAll(() => buildCli(), 60_000);
  afterAll(() => {
    for (const k of kill) k();
    dir.remove();
  });

  it('portal saves are reported; SIGINT after the cloud session is up sends device_power_off with power_off_type user', async () => {
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
        '--log-level',
        '5',
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
    const post = async (path: string, fields: Record<string, string>) => {
      const form = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      const csrf =
        /name="csrf"[^>]*value="([^"]+)"/.exec(form)?.[1] ??
        /value="([^"]+)"[^>]*name="csrf"/.exec(form)?.[1];
      return fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ csrf: csrf!, ...fields }).toString(),
      });
    };
    // the user changes settings on the portal with the network: each change is a telemetry event
    const saved = await post('/save-connect', {
      'wifi.ssid': 'Home',
      'wifi.passphrase': 'correct horse',
      'device.language': 'fr',
      'device.country': 'DE',
      'audio.prompt_tones': 'off',
      'storage.auto_upload': 'off',
      'security.device_password': '4821',
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
    const one = (name: string) =>
      server
        .telemetry()
        .filter((e) => e.event === name)
        .map((e) => e.params);
    expect(one('set_language_region')).toEqual([expect.objectContaining({ language: 'fr', region: 'DE' })]);
    expect(one('prompt_tone_setting')).toEqual([expect.objectContaining({ enabled: false })]);
    expect(one('password_lock_toggle')).toEqual([expect.objectContaining({ state: true })]);
    expect(one('upload_to_cloud_toggle')).toHaveLength(1);
    expect(err).not.toContain('4821');
    await cloud.close();
  }, 150_000);
});
