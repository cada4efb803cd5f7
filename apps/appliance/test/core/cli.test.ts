import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPinRecord } from '@waved/psk';
import { createCloudServer } from '@waved/psp-cloud/server';
import { freePort, tempDir, waitFor } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../helpers/build.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/waved.js');

beforeAll(() => {
  // The CLI runs from dist: build it once (tsup, about a second).
  buildCli();
}, 60_000);

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

/**
 * Waits for what the running CLI says or serves. The bound is the CLI itself: if it exits first,
 * the wait fails at once with its last log lines. `timeoutMs` only catches a CLI that hangs.
 */
function whileRunning<T>(
  r: ReturnType<typeof run>,
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 90_000,
): Promise<NonNullable<T>> {
  let done = false;
  const died = r.exited.then((code) => {
    if (done) return new Promise<never>(() => {});
    throw new Error(`waved exited (${code}) before ${what}; its log ends:\n${r.err().slice(-3000)}`);
  });
  return Promise.race([waitFor(check, { timeoutMs, what }), died]).finally(() => {
    done = true;
  });
}

describe('waved --help, --version and usage errors', () => {
  it('prints the commands and exits 0', async () => {
    const r = run(['--help']);
    expect(await r.exited).toBe(0);
    expect(r.out()).toContain('waved sim');
    expect(r.out()).toContain('waved start');
    expect(r.out()).toContain('waved check');
    expect(r.out()).toContain('--exit-after');
  });

  it('--version prints the version of the package', async () => {
    const r = run(['--version']);
    expect(await r.exited).toBe(0);
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    expect(r.out()).toBe(`waved ${pkg.version}\n`);
  });

  it.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['sim', '--bogus'], "Unknown option '--bogus'"],
    [['sim', '--port', 'abc'], '--port must be a whole number from 0 to 65535, got "abc"'],
    [['sim', '--port', '99999'], '--port must be a whole number from 0 to 65535, got "99999"'],
    [['sim', '--log-level', '9'], '--log-level must be a whole number from 0 to 5, got "9"'],
    [['sim', '--exit-after=-1'], '--exit-after must be a whole number'],
    [['start', '--portal-port', '0'], '--portal-port must be a whole number from 1 to 65535'],
    [[], 'a command is needed'],
  ])('%j is a usage error: one line, exit 2', async (args, message) => {
    const r = run(args);
    expect(await r.exited).toBe(2);
    expect(r.err()).toContain(message);
    expect(r.err().trimEnd().split('\n')).toHaveLength(1);
    expect(r.out()).toBe('');
  });

  it('a busy portal port is a fatal error: exit 1 with the reason, and no banner with a URL', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = run([
        'sim',
        '--port',
        String(port),
        '--screen-port',
        '0',
        '--no-cloud',
        '--data-dir',
        tempDir('waved-busy-').path,
      ]);
      expect(await r.exited).toBe(1);
      expect(r.err()).toContain(`portal port ${port} on 127.0.0.1 is not available (EADDRINUSE)`);
      expect(r.out()).not.toContain('http://');
      expect(r.err()).not.toContain('waved sim — portal');
    } finally {
      blocker.close();
    }
  });
});

describe('waved sim', () => {
  const dir = tempDir('waved-cli-');
  let child: ChildProcess | null = null;
  afterAll(() => {
    child?.kill('SIGKILL');
    dir.remove();
  });

  it('prints the portal URL, serves the form, and a full run (device application too) never logs a secret', async () => {
    const port = await freePort();
    const screenPort = await freePort();
    const config = dir.join('config.toml');
    // the cloud in this process, so the test sees what the device sent
    const server = createCloudServer({ devices: [{ serial: 'SIM0001', secret: 'sim-factory-secret' }] });
    const cloud = await server.listen({ host: '127.0.0.1', port: 0 });
    const r = run([
      'sim',
      '--cloud-url',
      cloud.url,
      '--port',
      String(port),
      '--screen-port',
      String(screenPort),
      '--device-demo',
      '--data-dir',
      dir.join('data'),
      '--log-level',
      '5',
      '--config',
      config,
      '--exit-after',
      '170000',
    ]);
    child = r.child;
    await whileRunning(r, () => r.out().includes(`portal: http://127.0.0.1:${port}/`), 'the portal URL');
    // auto setup: the AP comes up (the controller says so once it is), then the portal serves the
    // form with the cached networks
    await whileRunning(r, () => /setup network Device-[0-9A-F]{4} is up/.test(r.err()), 'the setup network');
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(res.status).toBe(200);
    const form = await res.text();
    expect(form).toContain('Home');
    const csrf =
      /name="csrf"[^>]*value="([^"]+)"/.exec(form)?.[1] ?? /value="([^"]+)"[^>]*name="csrf"/.exec(form)?.[1];
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // the AP passphrase as the device screen shows it (the screen page on loopback)
    const view = (await (await fetch(`http://127.0.0.1:${screenPort}/view.json`)).json()) as {
      passphrase?: string;
    };
    const apPassphrase = view.passphrase;
    expect(apPassphrase).toMatch(/^[0-9a-f]{8}$/);
    // stdout is not a terminal here (a file, as with `npm start > file`): it never gets the passphrase
    expect(r.out()).toContain('Password: (shown on the device screen)');
    expect(r.out()).not.toContain(apPassphrase!);

    // a wrong password first, then the right one
    const post = (passphrase: string) =>
      fetch(`http://127.0.0.1:${port}/save-connect`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          csrf: csrf!,
          'wifi.ssid': 'Home',
          'wifi.passphrase': passphrase,
        }).toString(),
      });
    expect((await post('wrong horse battery')).status).toBe(200);
    await whileRunning(r, () => r.err().includes('connecting failed: wrong-password'), 'Failed');
    // the setup network comes back for Try again (a second "is up" line), then the form takes the post
    await whileRunning(
      r,
      () => (r.err().match(/setup network Device-[0-9A-F]{4} is up/g) ?? []).length >= 2,
      'the setup network back after the failure',
    );
    const again = await post('correct horse');
    expect(again.status).toBe(200);
    await whileRunning(r, () => r.err().includes('restarting with the saved settings'), 'the restart');
    await whileRunning(r, () => r.err().includes('Wi-Fi: connected to "Home"'), 'connected');
    await whileRunning(r, () => r.err().includes('cloud: session ready'), 'the cloud session');
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    // a clean stop says so to the cloud
    const off = server.telemetry().filter((e) => e.event === 'device_power_off');
    expect(off).toHaveLength(1);
    expect(off[0]!.params).toMatchObject({ power_off_type: 'shutdown' });
    await cloud.close();
    expect(fs.statSync(config).mode & 0o777).toBe(0o600);
    // every log line goes to stderr when stdout is not a terminal (stdout carries the screen)
    const logs = r.err();
    expect(logs.split('\n').length).toBeGreaterThan(30);
    for (const secret of ['wrong horse battery', 'correct horse', csrf!, apPassphrase!]) {
      expect(logs).not.toContain(secret);
    }
    // stdout (the screen as text; the banner names the simulated network's passphrase on purpose)
    for (const secret of ['wrong horse battery', csrf!, apPassphrase!]) expect(r.out()).not.toContain(secret);
  }, 180_000);

  it('the failed-PIN counter is kept in pin-attempts.json next to config.toml, and a restart does not reset it', async () => {
    const settingsDir = dir.join('pin-settings');
    fs.mkdirSync(settingsDir, { mode: 0o700 });
    const config = path.join(settingsDir, 'config.toml');
    fs.writeFileSync(config, `[security]\ndevice_password = "${createPinRecord('482913')}"\n`, {
      mode: 0o600,
    });
    const counter = path.join(settingsDir, 'pin-attempts.json');
    const args = async () => [
      ...['sim', '--no-cloud', '--port', String(await freePort()), '--screen-port', '0'],
      ...['--data-dir', dir.join('pin-data'), '--config', config, '--exit-after', '170000'],
    ];
    /** Starts the simulator and posts `pins` as the current PIN of a save, one after another. */
    const tryPins = async (pins: string[]) => {
      const a = await args();
      const port = a[a.indexOf('--port') + 1];
      const r = run(a);
      try {
        await whileRunning(
          r,
          () => /setup network Device-[0-9A-F]{4} is up/.test(r.err()),
          'the setup network',
        );
        const form = await (await fetch(`http://127.0.0.1:${port}/`)).text();
        const csrf =
          /name="csrf"[^>]*value="([^"]+)"/.exec(form)?.[1] ??
          /value="([^"]+)"[^>]*name="csrf"/.exec(form)?.[1];
        const statuses: string[] = [];
        for (const pin of pins) {
          const res = await fetch(`http://127.0.0.1:${port}/save`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
            body: new URLSearchParams({ csrf: csrf!, 'security.current_pin': pin }).toString(),
          });
          statuses.push(`${res.status} wait ${res.headers.get('retry-after') ?? 0}`);
        }
        return statuses;
      } finally {
        r.child.kill('SIGTERM');
        await r.exited;
      }
    };
    // three wrong PINs are free, the fourth starts a hold of 1 s
    expect(await tryPins(['000001', '000002', '000003', '000004'])).toEqual([
      '422 wait 0',
      '422 wait 0',
      '422 wait 0',
      '422 wait 1',
    ]);
    expect(fs.statSync(counter).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(counter, 'utf8'))).toMatchObject({ failures: 4 });
    expect(fs.existsSync(dir.join('pin-data', 'pin-attempts.json'))).toBe(false);
    // let the 1 s hold of the fourth failure run out, however fast the restart below is
    await new Promise((r) => setTimeout(r, 1_100));
    // after a restart the count goes on (a fresh one would make this wrong PIN free): the fifth
    // wrong PIN in a row holds the next check for 2 s
    expect(await tryPins(['000005'])).toEqual(['422 wait 2']);
    expect(JSON.parse(fs.readFileSync(counter, 'utf8'))).toMatchObject({ failures: 5 });
  }, 120_000);

  it('--exit-after stops it cleanly', async () => {
    const port = await freePort();
    const r = run([
      'sim',
      '--port',
      String(port),
      '--screen-port',
      '0',
      '--no-cloud',
      '--exit-after',
      '1500',
      '--data-dir',
      dir.join('data2'),
      '--config',
      dir.join('c2.toml'),
    ]);
    expect(await r.exited).toBe(0);
    // its own private data directory, never the shared default <tmp>/waved-sim of `npm start`
    expect(fs.statSync(dir.join('data2')).mode & 0o777).toBe(0o700);
    expect(r.out()).toContain(`portal: http://127.0.0.1:${port}/`);
    // the terminal screen was drawn (not a TTY: printed as text)
    expect(r.out()).toContain('Set up Wi-Fi');
  });
});
