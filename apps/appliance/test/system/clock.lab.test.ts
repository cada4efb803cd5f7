import fs from 'node:fs';
import path from 'node:path';
import {
  createNetns,
  createVethPair,
  killPid,
  type Netns,
  needs,
  type Peer,
  readPidFile,
  startPeer,
  tempDir,
  waitFor,
} from '@waved/test-lab';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bin, buildCli } from '../helpers/build.js';
import { daemonPid, wiredWifiProfile, writeUdhcpcScript } from './lab.js';

/**
 * The clock of a device without RTC (lab.md §1, §3, §8): the station joins with the real
 * wpa_supplicant, gets its address from dnsmasq with the real udhcpc, and only then asks the NTP
 * server (chronyd -x in the router's namespace, which never touches this machine's clock). The
 * server starts late: waved retries with backoff until it answers. `date` is a stand-in on PATH
 * that records the time waved sets.
 */
const lab = needs({
  root: true,
  peers: ['wpa_supplicant', 'wpa_cli', 'udhcpc', 'dnsmasq', 'chronyd', 'ip'],
});
lab.describe('SNTP after the first address, retried until the server answers (namespace lab)', () => {
  const dir = tempDir('waved-clock-');
  let sta: Netns;
  let router: Netns;
  let waved: Peer;
  const pids: number[] = [];
  const dateLog = dir.join('date.log');
  const leases: Array<{ at: number }> = [];

  beforeAll(async () => {
    buildCli();
    sta = await createNetns('clks');
    router = await createNetns('clkr');
    await createVethPair({ ns: sta, name: 'wl0' }, { ns: router, name: 'rt0', address: '10.77.0.1/24' });
    const dnsmasq = startPeer('ip', [
      ...['netns', 'exec', router.name, 'dnsmasq', '--conf-file=/dev/null', '--port=0', '--interface=rt0'],
      ...['--bind-interfaces', '--dhcp-range=10.77.0.50,10.77.0.99,12h', '--no-ping', '--dhcp-authoritative'],
      ...[`--dhcp-leasefile=${dir.join('leases')}`, `--pid-file=${dir.join('dnsmasq.pid')}`, '--user=root'],
      `--log-facility=${dir.join('dnsmasq.log')}`,
    ]);
    await dnsmasq.exited;
    pids.push(await readPidFile(dir.join('dnsmasq.pid')));
    // a saved open network: wpa_supplicant with the wired driver completes it (lab.md §1)
    const ctrl = dir.join('ctrl');
    fs.writeFileSync(
      dir.join('wpa.conf'),
      `ctrl_interface=DIR=${ctrl} GROUP=root\nupdate_config=1\n\nnetwork={\n\tssid="Open"\n\tkey_mgmt=NONE\n}\n`,
      { mode: 0o600 },
    );
    writeUdhcpcScript(dir.join('udhcpc.sh'));
    // `date` as waved calls it (date -u -s @<seconds>): recorded, never run
    const stubs = dir.join('bin');
    fs.mkdirSync(stubs);
    fs.writeFileSync(path.join(stubs, 'date'), `#!/bin/sh\necho "$@" >> ${dateLog}\n`, { mode: 0o755 });
    fs.writeFileSync(
      dir.join('device.toml'),
      `${wiredWifiProfile({
        iface: 'wl0',
        wpaConfig: dir.join('wpa.conf'),
        ctrlDir: ctrl,
        hostapdConfig: dir.join('hostapd.conf'),
        runDir: dir.join('run'),
        udhcpcScript: dir.join('udhcpc.sh'),
      })}[paths]
settings = "${dir.join('etc/config.toml')}"
data_dir = "${dir.join('data')}"
`,
    );
    fs.mkdirSync(dir.join('etc'), { mode: 0o700 });
    fs.writeFileSync(dir.join('etc/config.toml'), '[ntp]\nenabled = true\nservers = ["10.77.0.1"]\n', {
      mode: 0o600,
    });
    waved = startPeer(
      'ip',
      [
        ...['netns', 'exec', sta.name, process.execPath, bin, 'start', '--profile', dir.join('device.toml')],
        ...['--no-screen', '--log-level', '4', '--exit-after', '150000'],
      ],
      { env: { ...process.env, PATH: `${stubs}:${process.env.PATH}` } },
    );
  }, 120_000);

  afterAll(async () => {
    await waved?.stop(8000);
    for (const name of ['wpa_supplicant', 'udhcpc']) {
      const pid = daemonPid(dir.join('run'), name, 'wl0');
      if (pid !== null) await killPid(pid);
    }
    for (const pid of pids) await killPid(pid);
    await sta?.remove();
    await router?.remove();
    dir.remove();
  });

  it('asks only after the lease, retries with backoff while the server is down, then sets the clock', async () => {
    const firstAsk = () => waved.output().indexOf('SNTP:');
    // the lease arrives first; not one SNTP attempt before it
    await waitFor(
      async () => {
        const { stdout } = await sta.exec('ip', ['-4', '-o', 'addr', 'show', 'dev', 'wl0']);
        if (/inet 10\.77\.0\.\d+\//.test(stdout)) leases.push({ at: Date.now() });
        return leases.length > 0;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `the lease (output: ${waved.output().slice(-1500)})` },
    );
    const beforeLease = waved.output();
    expect(beforeLease.includes('SNTP:')).toBe(false);
    // the server is not there yet: the attempt fails and is retried
    await waitFor(() => /SNTP: clock not set \(.*\); trying again in 5 s/.test(waved.output()), {
      timeoutMs: 60_000,
      what: 'a failed first attempt',
    });
    expect(firstAsk()).toBeGreaterThan(beforeLease.length - 1);
    expect(fs.existsSync(dateLog)).toBe(false);
    const conf = dir.join('chrony.conf');
    fs.writeFileSync(
      conf,
      [
        'port 123',
        'bindaddress 10.77.0.1',
        'allow 10.77.0.0/24',
        'local stratum 8',
        'cmdport 0',
        `pidfile ${dir.join('chronyd.pid')}`,
        `driftfile ${dir.join('chrony.drift')}`,
        '',
      ].join('\n'),
    );
    const chrony = startPeer('ip', [
      ...['netns', 'exec', router.name, 'chronyd', '-x', '-f', conf, '-u', 'root', '-L', '0'],
      ...['-l', dir.join('chronyd.log')],
    ]);
    await chrony.exited;
    pids.push(await readPidFile(dir.join('chronyd.pid')));
    const line = await waitFor(() => (fs.existsSync(dateLog) ? fs.readFileSync(dateLog, 'utf8') : null), {
      timeoutMs: 60_000,
      what: 'the clock to be set',
    });
    const m = /^-u -s @(\d+)$/m.exec(line);
    expect(m).not.toBeNull();
    expect(Math.abs(Number(m![1]) * 1000 - Date.now())).toBeLessThan(30_000);
    // the log line follows the `date` call: wait for it rather than race it
    await waitFor(() => /SNTP: clock set from 10\.77\.0\.1/.test(waved.output()), {
      timeoutMs: 30_000,
      what: 'the log to say the clock was set',
    });
  }, 150_000);
});
