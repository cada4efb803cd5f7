import fs from 'node:fs';
import path from 'node:path';
import { createNetns, killPid, type Netns, needs, readPidFile, tempDir, waitFor } from '@waved/test-lab';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSystemRadio } from '../../src/adapters/system/radio.js';
import { type CommandRunner, runCommand } from '../../src/adapters/system/runner.js';
import { createWpaStation } from '../../src/adapters/system/wpa-station.js';

/**
 * `save_config` makes wpa_supplicant write its file anew (a temp file, then a rename) with its own
 * umask: under the usual 022 the saved PSKs were readable by every user (0644) until the chmod
 * that follows. wpa_supplicant started by the appliance runs under umask 077, so neither the file
 * nor its temp file ever has a wider mode. The real wpa_supplicant (`-D wired`, lab.md §1) saves
 * while the modes are polled as fast as the event loop allows.
 */
const lab = needs({ root: true, peers: ['wpa_supplicant', 'wpa_cli', 'ip', 'sh'] });

lab.describe('wpa_supplicant.conf is never wider than 0600', () => {
  const dir = tempDir('waved-sec-wpamode-');
  let ns: Netns;
  const conf = dir.join('wpa_supplicant.conf');
  const ctrl = dir.join('ctrl');
  const runDir = dir.join('run');
  const inNs: (ns: Netns) => CommandRunner = (n) => (file, args, options) =>
    runCommand('ip', ['netns', 'exec', n.name, file, ...args], options);

  beforeAll(async () => {
    ns = await createNetns(`wvmode${process.pid % 1000}`);
    await ns.exec('ip', ['link', 'add', 'wl0', 'type', 'veth', 'peer', 'name', 'wl0p']);
    await ns.exec('ip', ['link', 'set', 'wl0', 'up']);
    await ns.exec('ip', ['link', 'set', 'wl0p', 'up']);
    fs.writeFileSync(conf, `ctrl_interface=DIR=${ctrl} GROUP=root\nupdate_config=1\nap_scan=0\n`, {
      mode: 0o600,
    });
  });
  afterAll(async () => {
    for (const f of fs.existsSync(runDir) ? fs.readdirSync(runDir) : []) {
      const pid = Number(fs.readFileSync(path.join(runDir, f), 'utf8').trim());
      if (pid > 1) await killPid(pid);
    }
    await ns?.remove();
    dir.remove();
  });

  it('started by the appliance: every save_config keeps the file and its temp file at 0600', async () => {
    const radio = createSystemRadio({
      run: inNs(ns),
      iface: 'wl0',
      wpaDriver: 'wired',
      wpaConfig: conf,
      ctrlDir: ctrl,
      runDir,
    });
    // The test runner's own umask is the common 022: only the appliance's start sets 077.
    const previous = process.umask(0o022);
    try {
      await radio.startStation();
    } finally {
      process.umask(previous);
    }
    await waitFor(() => fs.existsSync(path.join(ctrl, 'wl0')), { what: 'the control socket' });
    const station = createWpaStation({ iface: 'wl0', ctrlDir: ctrl, configPath: conf, events: false });

    // Poll both names as often as the event loop turns, while the saves run.
    const seen = new Map<string, number>();
    let polls = 0;
    let polling = true;
    const poll = () => {
      for (const file of [conf, `${conf}.tmp`]) {
        try {
          const mode = fs.statSync(file).mode & 0o777;
          seen.set(
            `${path.basename(file)} ${mode.toString(8)}`,
            (seen.get(`${path.basename(file)} ${mode.toString(8)}`) ?? 0) + 1,
          );
        } catch {
          // not there at this instant
        }
      }
      polls++;
      if (polling) setImmediate(poll);
    };
    poll();
    for (let i = 0; i < 6; i++) {
      await station.provision({ ssid: `Net ${i}`, passphrase: `passphrase-${i}-long` });
    }
    polling = false;
    expect(polls).toBeGreaterThan(100);
    expect(fs.readFileSync(conf, 'utf8')).toContain('ssid="Net 5"');
    const wider = [...seen.keys()].filter((k) => (Number.parseInt(k.split(' ')[1]!, 8) & 0o077) !== 0);
    expect(wider, JSON.stringify(Object.fromEntries(seen))).toEqual([]);
    station.close();
  });

  it('a wpa_supplicant started by someone else with umask 022 is named in a warning', async () => {
    const other = dir.join('ctrl-other');
    const otherConf = dir.join('other.conf');
    fs.writeFileSync(otherConf, `ctrl_interface=DIR=${other} GROUP=root\nupdate_config=1\nap_scan=0\n`, {
      mode: 0o600,
    });
    await ns.exec('ip', ['link', 'add', 'wl1', 'type', 'veth', 'peer', 'name', 'wl1p']);
    await ns.exec('ip', ['link', 'set', 'wl1', 'up']);
    await ns.exec('sh', [
      '-c',
      'umask 022 && exec "$@"',
      'sh',
      ...['wpa_supplicant', '-B', '-D', 'wired', '-i', 'wl1', '-c', otherConf, '-P', dir.join('other.pid')],
    ]);
    // -B returns before the daemon has written its pid file and opened its control socket.
    const pid = await readPidFile(dir.join('other.pid'));
    fs.mkdirSync(runDir, { recursive: true });
    fs.writeFileSync(path.join(runDir, 'other-by-init.pid'), String(pid)); // stopped in afterAll
    await waitFor(() => fs.existsSync(path.join(other, 'wl1')), { what: 'the other control socket' });
    const warnings: string[] = [];
    const radio = createSystemRadio({
      run: inNs(ns),
      iface: 'wl1',
      wpaDriver: 'wired',
      wpaConfig: otherConf,
      ctrlDir: other,
      runDir: dir.join('run-none'),
      logger: { debug() {}, info() {}, warn: (m: unknown) => warnings.push(String(m)), error() {} },
    });
    await radio.startStation();
    expect(warnings.join('\n')).toMatch(/umask 0022.*UMask=0077/);
  });
});
