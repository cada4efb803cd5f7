import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { needs, type Peer, waitFor } from '@waved/test-lab';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { buildCli } from '../helpers/build.js';
import { alive, createDeviceLab, type DeviceLab } from './lab.js';

/**
 * The Wi-Fi timings of `waved start` come from the profile (`wifi.association_timeout_ms`,
 * `wifi.step_limit_ms`, `wifi.setup_timeout_ms`) and their flags, and the built CLI honours them:
 * on a slow or emulated machine a device maker raises them, a test shortens the setup session.
 */
const lab = needs({
  root: true,
  peers: ['wpa_supplicant', 'wpa_cli', 'hostapd', 'udhcpc', 'curl', 'ip'],
});
lab.describe('waved start: the Wi-Fi timings of the profile and the flags (namespace lab)', () => {
  let d: DeviceLab;
  let waved: Peer | null = null;
  /** A directory whose `hostapd` takes 6 s before it runs the real one (a slow machine). */
  let slowBin: string;

  beforeAll(async () => {
    buildCli();
    d = await createDeviceLab('tmg');
    slowBin = d.dir.join('slow-bin');
    fs.mkdirSync(slowBin);
    const hostapd = execFileSync('sh', ['-c', 'command -v hostapd'], { encoding: 'utf8' }).trim();
    fs.writeFileSync(path.join(slowBin, 'hostapd'), `#!/bin/sh\nsleep 6\nexec ${hostapd} "$@"\n`, {
      mode: 0o755,
    });
  }, 120_000);
  /** The slow wrapper has ended, and a hostapd it started after its step was given up is stopped. */
  const noLateHostapd = async () => {
    const wrappers = () =>
      fs.readdirSync('/proc').filter((pid) => {
        try {
          return /^\d+$/.test(pid) && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(slowBin);
        } catch {
          return false;
        }
      });
    await waitFor(() => wrappers().length === 0, {
      timeoutMs: 15_000,
      what: 'the slow hostapd wrapper gone',
    });
    await waitFor(
      () => {
        const pid = d.pidOf('hostapd');
        if (pid !== null && alive(pid)) process.kill(pid, 'SIGTERM');
        return !alive(pid);
      },
      { timeoutMs: 10_000, what: 'no hostapd left' },
    );
  };
  afterEach(async () => {
    await waved?.stop(8000);
    waved = null;
    await noLateHostapd();
    fs.rmSync(d.paths.hostapdConf, { force: true });
  });
  afterAll(async () => {
    await d?.remove();
  });

  const setupUp = (p: Peer) =>
    waitFor(() => p.output().includes('setup network Device-') && fs.existsSync(d.paths.hostapdConf), {
      timeoutMs: 60_000,
      what: `the setup network (output so far: ${p.output().slice(-2000)})`,
    });

  it('--setup-timeout closes the setup network after that long without a save', async () => {
    waved = d.start(['--setup-on-start', '--setup-timeout', '6000']);
    await setupUp(waved);
    const up = Date.now();
    expect(waved.output()).toContain('the setup network closes after 6000 ms');
    await waitFor(() => waved!.output().includes('provisioning session timed out'), {
      timeoutMs: 30_000,
      what: 'the setup session to time out',
    });
    const took = Date.now() - up;
    // 6 s from the session's start, which was a little before the AP was seen up; never the 300 s
    expect(took).toBeGreaterThan(2_000);
    expect(took).toBeLessThan(20_000);
    await waitFor(() => !fs.existsSync(d.paths.hostapdConf), { timeoutMs: 15_000, what: 'config removed' });
  }, 90_000);

  it('--association-timeout is the time a save may take to join: Failed after it, not after 30 s', async () => {
    waved = d.start(['--setup-on-start', '--association-timeout', '7000']);
    await setupUp(waved);
    expect(waved.output()).toContain('join within 7000 ms after a save');
    const phoneCurl = (...args: string[]) =>
      d.phone.exec('curl', ['-s', '--max-time', '5', ...args], { allowFail: true });
    const form = (await phoneCurl('http://192.168.2.1/')).stdout;
    const csrf =
      /name="csrf"[^>]*value="([^"]+)"/.exec(form)?.[1] ?? /value="([^"]+)"[^>]*name="csrf"/.exec(form)?.[1];
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const r = await phoneCurl(
      ...['-o', '/dev/null', '-w', '%{http_code}', '-H', 'Accept: application/json'],
      ...['--data-urlencode', `csrf=${csrf}`, '--data-urlencode', 'wifi.hidden_ssid=Lab Net'],
      ...['--data-urlencode', 'wifi.passphrase=lab passphrase 42', 'http://192.168.2.1/save-connect'],
    );
    expect(r.stdout).toBe('200');
    // WPA-PSK on a wired driver never completes a handshake (lab.md §1): the deadline decides.
    await waitFor(() => waved!.output().includes('radio: provision network'), {
      timeoutMs: 20_000,
      what: 'the network provisioned',
    });
    const provisioned = Date.now();
    await waitFor(() => waved!.output().includes('connecting failed: association-timeout'), {
      timeoutMs: 40_000,
      what: 'the association deadline',
    });
    const took = Date.now() - provisioned;
    expect(took).toBeGreaterThan(6_000);
    expect(took).toBeLessThan(25_000);
    // the deadline, not a radio step, ended it
    expect(waved.output()).not.toContain('the radio step limit');
  }, 120_000);

  it('--step-limit bounds each radio step: a hostapd slower than it fails the setup network, a larger one lets it come up', async () => {
    const env = { PATH: `${slowBin}:${process.env.PATH}` };
    // 4 s: time enough for every other step here (stopping the station takes about 1 s)
    waved = d.start(['--setup-on-start', '--step-limit', '4000'], { env });
    try {
      await waitFor(() => waved!.output().includes('start hostapd did not finish within 4000 ms'), {
        timeoutMs: 60_000,
        what: 'the step limit',
      });
    } catch (error) {
      throw new Error(`${(error as Error).message}; output: ${waved.output().slice(-3000)}`);
    }
    await waved.stop(8000);
    waved = null;
    await noLateHostapd();

    waved = d.start(['--setup-on-start', '--step-limit', '20000'], { env });
    await setupUp(waved);
    expect(waved.output()).toContain('a radio step within 20000 ms');
    expect(waved.output()).not.toContain('did not finish within');
    expect(alive(d.pidOf('hostapd'))).toBe(true);
  }, 150_000);
});
