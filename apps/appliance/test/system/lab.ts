import fs from 'node:fs';
import path from 'node:path';
import { createNetns, createVethPair, type Netns, type Peer, startPeer, tempDir } from '@waved/test-lab';
import { bin } from '../helpers/build.js';

/**
 * A device in a network namespace for `waved start` (lab.md §1-§3): a veth `ap0` stands for wlan0,
 * wpa_supplicant runs with `-D wired`, hostapd with `driver=wired`. Every path of the profile is in
 * a temporary directory, so nothing outside it is touched.
 */
export interface DeviceLab {
  dir: ReturnType<typeof tempDir>;
  ap: Netns;
  /** The other end of the veth (a phone on the setup network, 192.168.2.10). */
  phone: Netns;
  profile: string;
  paths: {
    wpaConf: string;
    ctrl: string;
    runDir: string;
    hostapdConf: string;
    settings: string;
    etc: string;
    data: string;
  };
  /** Runs the built `waved start` in the device namespace. */
  start(args?: string[], options?: { env?: NodeJS.ProcessEnv; node?: string[] }): Peer;
  pidOf(name: 'wpa_supplicant' | 'hostapd' | 'udhcpc'): number | null;
  remove(): Promise<void>;
}

export const alive = (pid: number | null) => {
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** udhcpc's script in a namespace: puts the leased address on the interface (no route, no DNS). */
export function writeUdhcpcScript(file: string): string {
  fs.writeFileSync(
    file,
    [
      '#!/bin/sh',
      'case "$1" in',
      '  deconfig) ip -4 addr flush dev "$interface"; ip link set "$interface" up ;;',
      '  bound|renew) ip -4 addr flush dev "$interface"; ip addr add "$ip/24" dev "$interface" ;;',
      'esac',
      'exit 0',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return file;
}

/** The `[wifi]` section of a profile for a veth in a namespace: wpa_supplicant and hostapd with the wired driver (lab.md §1). */
export function wiredWifiProfile(o: {
  iface: string;
  wpaConfig: string;
  ctrlDir: string;
  hostapdConfig: string;
  runDir: string;
  udhcpcScript: string;
}): string {
  return `[wifi]
interface = "${o.iface}"
wpa_config = "${o.wpaConfig}"
ctrl_dir = "${o.ctrlDir}"
wpa_driver = "wired"
hostapd_driver = "wired"
hostapd_config = "${o.hostapdConfig}"
run_dir = "${o.runDir}"
udhcpc_script = "${o.udhcpcScript}"
`;
}

/** The pid a daemon waved started for `iface` wrote in `runDir` (`<daemon>-<iface>.pid`), or null. */
export function daemonPid(runDir: string, daemon: string, iface: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(runDir, `${daemon}-${iface}.pid`), 'utf8').trim());
    return Number.isInteger(pid) && pid > 1 ? pid : null;
  } catch {
    return null;
  }
}

export async function createDeviceLab(name: string, extraProfile = ''): Promise<DeviceLab> {
  const dir = tempDir(`waved-${name}-`);
  const ap = await createNetns(`${name.slice(0, 4)}a`);
  const phone = await createNetns(`${name.slice(0, 4)}p`);
  await createVethPair({ ns: ap, name: 'ap0' }, { ns: phone, name: 'ph0', address: '192.168.2.10/24' });
  const etc = dir.join('etc/waved');
  const paths = {
    wpaConf: dir.join('wpa_supplicant.conf'),
    ctrl: dir.join('ctrl'),
    runDir: dir.join('run'),
    hostapdConf: dir.join('waved-hostapd.conf'),
    settings: path.join(etc, 'config.toml'),
    etc,
    data: dir.join('var/lib/waved'),
  };
  const script = writeUdhcpcScript(dir.join('udhcpc.sh'));
  const profile = dir.join('device.toml');
  fs.writeFileSync(
    profile,
    `${wiredWifiProfile({
      iface: 'ap0',
      wpaConfig: paths.wpaConf,
      ctrlDir: paths.ctrl,
      hostapdConfig: paths.hostapdConf,
      runDir: paths.runDir,
      udhcpcScript: script,
    })}
[paths]
settings = "${paths.settings}"
data_dir = "${paths.data}"
pid_file = "${dir.join('pspapp.pid')}"
power_on_flag_file = "${dir.join('power_on_report.txt')}"
phone_book = "${dir.join('PHONE_BOOK.bin')}"
analytics_dir = "${dir.join('analytics')}"
progress_dir = "${dir.path}"
done_file = "${dir.join('swu.done')}"
${extraProfile}`,
  );
  const pidOf = (daemon: string) => daemonPid(paths.runDir, daemon, 'ap0');
  return {
    dir,
    ap,
    phone,
    profile,
    paths,
    start(args = [], options = {}) {
      return startPeer(
        'ip',
        [
          ...['netns', 'exec', ap.name, process.execPath, ...(options.node ?? []), bin, 'start'],
          ...['--profile', profile, '--scan-wait', '200', '--association-timeout', '3000'],
          ...['--no-screen', '--log-level', '4', '--exit-after', '120000'],
          ...args,
        ],
        { env: { ...process.env, ...options.env } },
      );
    },
    pidOf,
    async remove() {
      for (const daemon of ['wpa_supplicant', 'hostapd', 'udhcpc']) {
        const pid = pidOf(daemon);
        if (pid !== null && alive(pid)) process.kill(pid, 'SIGKILL');
      }
      await ap.remove();
      await phone.remove();
      dir.remove();
    },
  };
}
