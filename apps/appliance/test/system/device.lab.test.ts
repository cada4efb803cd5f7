import fs from 'node:fs';
import tty from 'node:tty';
import { createNetns, type Netns, needs, type Peer, startPeer, waitFor } from '@waved/test-lab';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCli } from '../helpers/build.js';
import { alive, createDeviceLab, type DeviceLab } from './lab.js';

/**
 * `waved start` as a device maker runs it, in the namespace lab: a blank root, the Wi-Fi country,
 * the screen page kept off the setup network, a crash with the setup network up, what kill -9
 * leaves behind, stray daemons on the interface, and a wrong wpa_supplicant.conf.
 */
const lab = needs({
  root: true,
  peers: ['wpa_supplicant', 'wpa_cli', 'hostapd', 'udhcpc', 'curl', 'ip', 'socat'],
});
lab.describe('waved start on a device (namespace lab)', () => {
  let d: DeviceLab;
  let waved: Peer | null = null;
  const crashHook = () => d.dir.join('crash-hook.mjs');
  const trigger = () => d.dir.join('crash-now');
  const screenPort = 18_081;

  beforeAll(async () => {
    buildCli();
    d = await createDeviceLab('dev', `\n[screen]\npage_port = ${screenPort}\n`);
    // a test-only preload: an uncaught exception as soon as the trigger file appears
    fs.writeFileSync(
      crashHook(),
      `import fs from 'node:fs';
const t = setInterval(() => {
  if (fs.existsSync(${JSON.stringify(trigger())})) {
    clearInterval(t);
    throw new Error('injected crash');
  }
}, 50);
t.unref();
`,
    );
  }, 120_000);
  afterAll(async () => {
    await waved?.stop(5000);
    await d?.remove();
  });

  const apUp = (p: Peer) =>
    waitFor(() => p.output().includes('setup network Device-') && fs.existsSync(d.paths.hostapdConf), {
      timeoutMs: 60_000,
      what: `the setup network (output so far: ${p.output().slice(-2000)})`,
    });
  const addresses = async () => (await d.ap.exec('ip', ['-4', '-o', 'addr', 'show', 'dev', 'ap0'])).stdout;
  const phoneCurl = (...args: string[]) =>
    d.phone.exec('curl', ['-s', '--max-time', '5', ...args], { allowFail: true });

  it('on a blank root: creates the settings and data directories (0700) and wpa_supplicant.conf (0600)', async () => {
    expect(fs.existsSync(d.paths.etc)).toBe(false);
    expect(fs.existsSync(d.paths.wpaConf)).toBe(false);
    waved = d.start(['--setup-on-start'], { node: ['--import', crashHook()] });
    await apUp(waved);
    expect(fs.statSync(d.paths.etc).mode & 0o777).toBe(0o700);
    expect(fs.statSync(d.paths.data).mode & 0o777).toBe(0o700);
    expect(fs.statSync(d.paths.wpaConf).mode & 0o777).toBe(0o600);
    const conf = fs.readFileSync(d.paths.wpaConf, 'utf8');
    expect(conf).toContain(`ctrl_interface=DIR=${d.paths.ctrl} GROUP=root`);
    expect(conf).toContain('update_config=1');
    expect(waved.output()).toContain(`created ${d.paths.wpaConf}`);
    expect(alive(d.pidOf('hostapd'))).toBe(true);
  }, 90_000);

  it('a save on the fresh image is stored (0600), where it used to answer 500', async () => {
    const form = (await phoneCurl('http://192.168.2.1/')).stdout;
    const csrf =
      /name="csrf"[^>]*value="([^"]+)"/.exec(form)?.[1] ?? /value="([^"]+)"[^>]*name="csrf"/.exec(form)?.[1];
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const r = await phoneCurl(
      ...['-o', '/dev/null', '-w', '%{http_code}', '-H', 'Accept: application/json'],
      ...['--data-urlencode', `csrf=${csrf}`, '--data-urlencode', 'wifi.country=DE'],
      ...['--data-urlencode', 'device.name=Lab device', 'http://192.168.2.1/save'],
    );
    expect(r.stdout).toBe('200');
    const saved = fs.readFileSync(d.paths.settings, 'utf8');
    expect(saved).toContain('country = "DE"');
    expect(saved).toContain('name = "Lab device"');
    expect(fs.statSync(d.paths.settings).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('the screen page is served on loopback only: not on the setup network', async () => {
    const local = await d.ap.exec('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      `http://127.0.0.1:${screenPort}/`,
    ]);
    expect(local.stdout).toBe('200');
    const fromPhone = await phoneCurl(
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      `http://192.168.2.1:${screenPort}/view.json`,
    );
    expect(fromPhone.stdout).toBe('000');
    const { stdout: sockets } = await d.ap.exec('ss', ['-ltnH']);
    expect(sockets).toContain(`127.0.0.1:${screenPort}`);
    expect(sockets).not.toContain(`0.0.0.0:${screenPort}`);
    expect(sockets).not.toContain(`192.168.2.1:${screenPort}`);
  }, 60_000);

  it('an uncaught exception with the setup network up: hostapd stopped, config removed, station restored, exit 70', async () => {
    // after the save the device tried to join, failed (no saved network) and brought the AP back
    await waitFor(
      async () =>
        alive(d.pidOf('hostapd')) &&
        fs.existsSync(d.paths.hostapdConf) &&
        (await addresses()).includes('192.168.2.1/24'),
      { timeoutMs: 60_000, what: 'the setup network back up' },
    );
    const hostapd = d.pidOf('hostapd');
    fs.writeFileSync(trigger(), '');
    const code = await waved!.exited;
    expect(code).toBe(70);
    expect(waved!.output()).toContain('uncaught exception: Error: injected crash');
    expect(alive(hostapd)).toBe(false);
    expect(fs.existsSync(d.paths.hostapdConf)).toBe(false);
    expect(await addresses()).not.toContain('192.168.2.1/24');
    const { stdout } = await d.ap.exec('wpa_cli', ['-i', 'ap0', '-p', d.paths.ctrl, 'ping'], {
      allowFail: true,
    });
    expect(stdout.trim()).toBe('PONG');
    fs.rmSync(trigger());
    waved = null;
  }, 60_000);

  it('after kill -9 with the setup network up, the next start cleans up what was left', async () => {
    const first = d.start(['--setup-on-start']);
    await apUp(first);
    // the Wi-Fi country saved before the crash: wpa_supplicant.conf, hostapd and iw reg set
    expect(fs.readFileSync(d.paths.wpaConf, 'utf8')).toContain('country=DE');
    const ap = fs.readFileSync(d.paths.hostapdConf, 'utf8');
    expect(ap).toContain('country_code=DE');
    expect(ap).toContain('ieee80211d=1');
    // this kernel has no cfg80211: iw fails, and waved says so and goes on
    expect(first.output()).toMatch(/iw reg set DE failed|Wi-Fi country DE applied/);
    const hostapd = d.pidOf('hostapd');
    process.kill(first.pid, 'SIGKILL');
    await first.exited;
    // what a power cut or kill -9 leaves: hostapd, its config, the setup address
    expect(alive(hostapd)).toBe(true);
    expect(fs.existsSync(d.paths.hostapdConf)).toBe(true);
    expect(await addresses()).toContain('192.168.2.1/24');
    waved = d.start();
    await waitFor(() => waved!.output().includes('feature wifi'), { timeoutMs: 30_000, what: 'the start' });
    await waitFor(() => !alive(hostapd), { timeoutMs: 30_000, what: 'the old hostapd to stop' });
    await waitFor(async () => !(await addresses()).includes('192.168.2.1/24'), {
      timeoutMs: 30_000,
      what: 'the setup address to go',
    });
    expect(fs.existsSync(d.paths.hostapdConf)).toBe(false);
    // said once the address is gone (the line follows the removal: wait for it, do not race it)
    await waitFor(
      () => waved!.output().includes('removed the setup address 192.168.2.1 a previous run left on ap0'),
      { timeoutMs: 30_000, what: 'the start to say what it cleaned up' },
    );
    await waved.stop(8000);
    waved = null;
  }, 120_000);

  it('stops a DHCP client on the interface that waved did not start, and leaves the same name in another namespace alone', async () => {
    let other: Netns | null = null;
    const strays: Peer[] = [];
    try {
      other = await createNetns('devo');
      await other.exec('ip', ['link', 'add', 'ap0', 'type', 'veth', 'peer', 'name', 'ap0p']);
      await other.exec('ip', ['link', 'set', 'ap0', 'up']);
      const udhcpc = ['udhcpc', '-i', 'ap0', '-f', '-t', '100', '-T', '1', '-s', '/bin/true'];
      const mine = startPeer('ip', ['netns', 'exec', d.ap.name, ...udhcpc]);
      const theirs = startPeer('ip', ['netns', 'exec', other.name, ...udhcpc]);
      strays.push(mine, theirs);
      await waitFor(() => alive(mine.pid) && alive(theirs.pid), { what: 'the two udhcpc' });
      waved = d.start();
      await waitFor(() => waved!.output().includes(`stopping udhcpc (pid ${mine.pid}) on ap0`), {
        timeoutMs: 30_000,
        what: 'the stray udhcpc to be stopped',
      });
      await mine.exited;
      expect(alive(theirs.pid)).toBe(true);
      await waved.stop(8000);
      waved = null;
    } finally {
      for (const p of strays) await p.stop();
      await other?.remove();
    }
  }, 90_000);

  it.each([
    ['ctrl_interface=/run/elsewhere\nupdate_config=1\n', 'change it to "ctrl_interface=DIR='],
    ['ctrl_interface=DIR=CTRL GROUP=root\n', 'needs "update_config=1"'],
  ])(
    'a wpa_supplicant.conf waved cannot use stops the start with the fix: %j',
    async (text, fix) => {
      const before = fs.readFileSync(d.paths.wpaConf, 'utf8');
      fs.writeFileSync(d.paths.wpaConf, text.replace('CTRL', d.paths.ctrl), { mode: 0o600 });
      try {
        const p = d.start();
        expect(await p.exited).toBe(1);
        expect(p.output()).toContain(fix);
        expect(p.output()).toContain(d.paths.wpaConf);
      } finally {
        fs.writeFileSync(d.paths.wpaConf, before, { mode: 0o600 });
      }
    },
    60_000,
  );

  it('--tty: the screen is drawn on a terminal and its keys open the setup network; the passphrase stays there', async () => {
    const a = d.dir.join('ttyA');
    const b = d.dir.join('ttyB');
    const socat = startPeer('socat', [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`]);
    try {
      await waitFor(() => fs.existsSync(a) && fs.existsSync(b), { what: 'the pty pair' });
      const fd = fs.openSync(b, fs.constants.O_RDWR | fs.constants.O_NOCTTY);
      const far = new tty.ReadStream(fd);
      let screen = '';
      far.on('data', (chunk: Buffer) => {
        screen += chunk.toString('utf8');
      });
      const press = (key: string) => fs.writeSync(fd, key);
      waved = d.start(['--tty', a]);
      await waitFor(() => screen.includes('Menu') && waved!.output().includes('running (started in'), {
        timeoutMs: 60_000,
        what: 'the menu on the terminal and the service running',
      });
      press('w');
      await waitFor(() => screen.includes('[ Set up Wi-Fi ]'), { what: 'the Wi-Fi screen' });
      press('b');
      await apUp(waved);
      const passphrase = await waitFor(() => /Password: ([0-9a-f]{8})/.exec(screen)?.[1], {
        timeoutMs: 30_000,
        what: 'the passphrase on the terminal',
      });
      // the QR code is drawn with half blocks on the terminal
      expect(screen).toMatch(/[▀▄█]{10,}/);
      // it never reaches the service's output (the journal)
      expect(waved.output()).not.toContain(passphrase);
      press('c');
      await waitFor(() => !fs.existsSync(d.paths.hostapdConf), {
        timeoutMs: 30_000,
        what: 'Cancel to close it',
      });
      await waved.stop(8000);
      waved = null;
      far.destroy();
    } finally {
      await socat.stop();
    }
  }, 120_000);
});
