import { spawn } from 'node:child_process';
import fs from 'node:fs';
import {
  createNetns,
  createVethPair,
  killPid,
  type Netns,
  needs,
  readPidFile,
  tempDir,
  waitFor,
} from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSystemRadio } from '../../src/adapters/system/radio.js';
import type { CommandRunner } from '../../src/adapters/system/runner.js';
import { createWpaStation } from '../../src/adapters/system/wpa-station.js';
import type { ApplianceError } from '../../src/core/errors.js';
import type { StationEvent } from '../../src/core/ports/radio.js';

/** A scripted runner: records argv, answers from a table. */
function scripted(answers: Record<string, { code: number; stdout?: string }> = {}) {
  const calls: string[] = [];
  const run: CommandRunner = async (file, args) => {
    const line = [file, ...args].join(' ');
    calls.push(line);
    const hit = Object.entries(answers).find(([k]) => line.includes(k));
    return { stdout: hit?.[1].stdout ?? '', stderr: '', code: hit ? hit[1].code : 0 };
  };
  return { run, calls };
}

describe('system radio: the STA/AP switching commands', () => {
  const dir = tempDir('waved-sysradio-');
  afterAll(() => dir.remove());

  it('AP up and down run ip, hostapd, wpa_supplicant (umask 077, nl80211) and udhcpc with these argv', async () => {
    const { run, calls } = scripted({ 'wpa_cli -i wlan0 -p /var/run/wpa_supplicant ping': { code: 1 } });
    const runDir = dir.join('run1');
    const radio = createSystemRadio({ run, runDir, macAddress: async () => '02:00:00:00:5e:a1' });
    await radio.stopStation();
    await radio.configureApAddress();
    await radio.startHostapd('/tmp/waved-hostapd.conf');
    await radio.stopHostapd();
    await radio.flushAddresses();
    await radio.startStation();
    await radio.startDhcpClient();
    expect(calls).toEqual([
      'wpa_cli -i wlan0 -p /var/run/wpa_supplicant terminate',
      'ip addr flush dev wlan0',
      'ip link set wlan0 up',
      'ip addr add 192.168.2.1/24 dev wlan0',
      `hostapd -B -P ${runDir}/hostapd-wlan0.pid /tmp/waved-hostapd.conf`,
      'ip addr flush dev wlan0',
      'wpa_cli -i wlan0 -p /var/run/wpa_supplicant ping',
      `sh -c umask 077 && exec "$@" sh wpa_supplicant -B -D nl80211 -i wlan0 -c /etc/wpa_supplicant.conf -P ${runDir}/wpa_supplicant-wlan0.pid`,
      `udhcpc -i wlan0 -b -t 3 -T 2 -p ${runDir}/udhcpc-wlan0.pid`,
    ]);
    expect(radio.hostapdConfig({ ssid: 'Device-5EA1', psk: 'ab'.repeat(32) })).toContain('driver=nl80211\n');
    expect(await radio.macAddress()).toBe('02:00:00:00:5e:a1');
  });

  it('bounds every command by commandTimeoutMs (10 s by default), so a slow udhcpc is not killed mid-script', async () => {
    const bounds = async (commandTimeoutMs?: number) => {
      const seen = new Map<string, number | undefined>();
      const run: CommandRunner = async (file, args, opts) => {
        seen.set(`${file} ${args[0] ?? ''}`, opts?.timeoutMs);
        return { stdout: '', stderr: '', code: file === 'wpa_cli' && args.includes('ping') ? 1 : 0 };
      };
      const radio = createSystemRadio({
        run,
        runDir: dir.join(`bounds-${commandTimeoutMs ?? 'default'}`),
        ...(commandTimeoutMs ? { commandTimeoutMs } : {}),
      });
      await radio.stopStation();
      await radio.configureApAddress();
      await radio.startHostapd('/tmp/waved-hostapd.conf');
      await radio.flushAddresses();
      await radio.startStation();
      await radio.startDhcpClient();
      return seen;
    };
    const byDefault = await bounds();
    expect(byDefault.get('udhcpc -i')).toBe(10_000);
    expect(new Set(byDefault.values())).toEqual(new Set([10_000]));
    const slow = await bounds(60_000);
    expect(slow.get('udhcpc -i')).toBe(60_000);
    expect(slow.get('hostapd -B')).toBe(60_000);
    expect(new Set(slow.values())).toEqual(new Set([60_000]));
  });

  it('station recovery is idempotent: a running wpa_supplicant (pid file or control socket) is left alone', async () => {
    const runDir = dir.join('run2');
    fs.mkdirSync(runDir);
    fs.writeFileSync(`${runDir}/wpa_supplicant-wlan0.pid`, String(process.pid));
    const a = scripted();
    await createSystemRadio({ run: a.run, runDir }).startStation();
    expect(a.calls).toEqual([]);
    const b = scripted({ ping: { code: 0, stdout: 'PONG\n' } });
    await createSystemRadio({ run: b.run, runDir: dir.join('run3') }).startStation();
    expect(b.calls).toEqual(['wpa_cli -i wlan0 -p /var/run/wpa_supplicant ping']);
  });

  it('a hostapd failure carries its output; a hung wpa_cli terminate is an error', async () => {
    const { run } = scripted({
      hostapd: { code: 1, stdout: 'Line 7: invalid WPA passphrase length 5\n2 errors found' },
    });
    const radio = createSystemRadio({ run, runDir: dir.join('run4') });
    const error = await radio.startHostapd('/x.conf').catch((e: ApplianceError) => e);
    expect((error as ApplianceError).code).toBe('APPLIANCE_COMMAND_FAILED');
    expect((error as Error).message).toContain('2 errors found');
    const hung: CommandRunner = async () => ({ stdout: '', stderr: '', code: null, timedOut: true });
    const e2 = await createSystemRadio({ run: hung, runDir: dir.join('run5') })
      .stopStation()
      .catch((e: ApplianceError) => e);
    expect((e2 as ApplianceError).code).toBe('APPLIANCE_COMMAND_TIMEOUT');
  });

  it('every path, interface, driver and binary is configurable (the lab uses a veth and -D wired)', async () => {
    const { run, calls } = scripted({ ping: { code: 1 } });
    const runDir = dir.join('run6');
    const radio = createSystemRadio({
      run,
      runDir,
      iface: 'ap0',
      wpaDriver: 'wired',
      hostapdDriver: 'wired',
      wpaConfig: '/lab/wpa.conf',
      ctrlDir: '/lab/ctrl',
      bins: { wpa_supplicant: '/usr/sbin/wpa_supplicant' },
      udhcpcScript: '/lab/hook.sh',
    });
    await radio.startStation();
    await radio.startDhcpClient();
    expect(calls.at(-2)).toBe(
      `sh -c umask 077 && exec "$@" sh /usr/sbin/wpa_supplicant -B -D wired -i ap0 -c /lab/wpa.conf -P ${runDir}/wpa_supplicant-ap0.pid`,
    );
    expect(calls.at(-1)).toBe(`udhcpc -i ap0 -b -t 3 -T 2 -p ${runDir}/udhcpc-ap0.pid -s /lab/hook.sh`);
    expect(radio.hostapdConfig({ ssid: 'x', psk: 'ab'.repeat(32) })).toContain('driver=wired\n');
  });
});

const lab = needs({ root: true, peers: ['wpa_supplicant', 'wpa_cli', 'ip'] });
lab.describe('wpa_cli station and control-socket events on a real wpa_supplicant -D wired', () => {
  const dir = tempDir('waved-ctrl-');
  let ns: Netns;
  let pid = 0;
  let station: ReturnType<typeof createWpaStation>;
  const conf = dir.join('wpa.conf');
  beforeAll(async () => {
    ns = await createNetns('wvctl');
    await createVethPair({ ns, name: 'wl0' }, { ns, name: 'wl0peer' });
    fs.writeFileSync(
      conf,
      `ctrl_interface=DIR=${dir.join('ctrl')} GROUP=root\nupdate_config=1\nap_scan=0\n`,
      {
        mode: 0o600,
      },
    );
    await new Promise<void>((resolve, reject) => {
      const p = spawn('ip', [
        ...['netns', 'exec', ns.name, 'sh', '-c', 'umask 077 && exec "$@"', 'sh', 'wpa_supplicant'],
        ...['-B', '-D', 'wired', '-i', 'wl0', '-c', conf, '-P', dir.join('wpa.pid')],
      ]);
      p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`wpa_supplicant exited ${code}`))));
    });
    pid = await readPidFile(dir.join('wpa.pid'));
    station = createWpaStation({
      iface: 'wl0',
      ctrlDir: dir.join('ctrl'),
      configPath: conf,
      scanWaitMs: 100,
    });
  });
  afterAll(async () => {
    station?.close();
    if (pid) await killPid(pid);
    await ns?.remove();
    dir.remove();
  });

  it('reads status, has no signal on a wired driver, and an empty scan list', async () => {
    const st = await station.status();
    expect(st.state).toBe('DISCONNECTED');
    expect(await station.signalPoll()).toBeNull();
    expect(await station.scan()).toEqual([]);
  });

  it('reports CTRL-EVENT-CONNECTED from the control socket', async () => {
    const events: StationEvent[] = [];
    const off = station.onEvent((e) => events.push(e));
    await new Promise((r) => setTimeout(r, 300)); // ATTACH
    const W = ['-i', 'wl0', '-p', dir.join('ctrl')];
    const { stdout: id } = await ns.exec('wpa_cli', [...W, 'add_network']);
    const n = id.trim().split('\n').at(-1)!;
    await ns.exec('wpa_cli', [...W, 'set_network', n, 'ssid', '"open-lab"']);
    await ns.exec('wpa_cli', [...W, 'set_network', n, 'key_mgmt', 'NONE']);
    await ns.exec('wpa_cli', [...W, 'enable_network', n]);
    await waitFor(() => events.some((e) => e.type === 'connected'), {
      timeoutMs: 10_000,
      what: 'CONNECTED event',
    });
    expect((await station.status()).state).toBe('COMPLETED');
    off();
  });

  it('provision() writes the profile with the rules of @waved/wpa-cli, file mode 0600', async () => {
    await station.provision({ ssid: 'Lab Home', passphrase: 'lab-passphrase' });
    const text = fs.readFileSync(conf, 'utf8');
    expect(text).toContain('ssid="Lab Home"');
    expect(text).toMatch(/psk=[0-9a-f]{64}/);
    expect(text).not.toContain('lab-passphrase');
    expect(fs.statSync(conf).mode & 0o777).toBe(0o600);
  });
});
