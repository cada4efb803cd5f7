import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createNetns, killPid, type Netns, needs, readPidFile, tempDir, waitFor } from '@waved/test-lab';
import { parseScanResults } from '@waved/wpa-cli';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWpaStation, toScannedNetworks } from '../../src/adapters/system/wpa-station.js';
import type { Command } from '../../src/core/bus.js';
import { toProvisionRequest } from '../../src/domain/provisioning/controller.js';
import { CSRF, type Harness, startPortal } from '../portal/harness.js';

/**
 * Attack (and bug): a listed network whose name holds a `\`, a byte that is not UTF-8 or an
 * invisible character was provisioned with the bytes of its display form: `Caf\xe9` became
 * `4361665c786539`, so the device looked for a network literally named `Caf\xe9`, which anyone can
 * broadcast. Now the form posts the SSID bytes, and they reach the real wpa_supplicant unchanged.
 *
 * The portal renders the form from a real scan_results text (wpa_supplicant's own escaping); the
 * phone's choice is taken from the rendered page; the profile is read back from the real
 * wpa_supplicant (`-D wired` on a veth in a namespace of our own, lab.md §1) and from the file
 * `save_config` wrote.
 */
const lab = needs({ root: true, peers: ['wpa_supplicant', 'wpa_cli', 'ip'] });

/** The names, as bytes, and as wpa_supplicant prints them in scan_results (printf_encode). */
const NAMES: Array<{ label: string; bytes: Buffer; printed: string }> = [
  {
    label: 'Caf\\xe9 (a Latin-1 byte, not UTF-8)',
    bytes: Buffer.from([0x43, 0x61, 0x66, 0xe9]),
    printed: 'Caf\\xe9',
  },
  { label: 'Home\\Net (a backslash)', bytes: Buffer.from('Home\\Net', 'utf8'), printed: 'Home\\\\Net' },
  {
    label: 'Zero<U+200B>Width (an invisible character)',
    bytes: Buffer.from('Zero\u200bWidth', 'utf8'),
    printed: 'Zero\\xe2\\x80\\x8bWidth',
  },
];

lab.describe('SSID bytes: form → portal → real wpa_supplicant, byte for byte', () => {
  const dir = tempDir('waved-sec-ssid-');
  const ctrl = dir.join('ctrl');
  const conf = dir.join('wpa_supplicant.conf');
  let ns: Netns;
  let portal: Harness;
  let station: ReturnType<typeof createWpaStation>;
  const wpa = (...args: string[]) =>
    execFileSync('wpa_cli', ['-i', 'wl0', '-p', ctrl, ...args], { encoding: 'utf8' }).trim();

  beforeAll(async () => {
    ns = await createNetns(`wvssid${process.pid % 1000}`);
    await ns.exec('ip', ['link', 'add', 'wl0', 'type', 'veth', 'peer', 'name', 'wl0p']);
    await ns.exec('ip', ['link', 'set', 'wl0', 'up']);
    await ns.exec('ip', ['link', 'set', 'wl0p', 'up']);
    fs.writeFileSync(conf, `ctrl_interface=DIR=${ctrl} GROUP=root\nupdate_config=1\nap_scan=0\n`, {
      mode: 0o600,
    });
    await ns.exec('sh', [
      '-c',
      'umask 077 && exec "$@"',
      'sh',
      ...['wpa_supplicant', '-B', '-D', 'wired', '-i', 'wl0', '-c', conf],
      ...['-P', dir.join('wpa.pid'), '-f', dir.join('wpa.log')],
    ]);
    await waitFor(() => fs.existsSync(`${ctrl}/wl0`), { what: 'the control socket' });
    station = createWpaStation({ iface: 'wl0', ctrlDir: ctrl, configPath: conf, events: false });
    // What the station's scan gives the portal, from scan_results text as wpa_supplicant prints it.
    const scan = [
      'bssid / frequency / signal level / flags / ssid',
      ...NAMES.map(
        (n, i) => `02:00:00:00:00:0${i + 1}\t2412\t-${40 + i}\t[WPA2-PSK-CCMP][ESS]\t${n.printed}`,
      ),
    ].join('\n');
    portal = await startPortal();
    portal.session = { ...portal.session!, networks: toScannedNetworks(parseScanResults(scan)) };
  });
  afterAll(async () => {
    await portal?.close();
    station?.close();
    const pid = await readPidFile(dir.join('wpa.pid')).catch(() => null);
    if (pid) await killPid(pid);
    await ns?.remove();
    dir.remove();
  });

  /** Posts /save-connect as a phone's browser would: the chosen radio's value, from the page. */
  async function choose(extra: Record<string, string>): Promise<Command & { type: 'SettingsSaved' }> {
    const before = portal.commands.length;
    const res = await fetch(new URL('/save-connect', portal.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        csrf: CSRF,
        'wifi.passphrase': 'correct horse battery',
        ...extra,
      }).toString(),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const command = portal.commands[before];
    if (command?.type !== 'SettingsSaved' || !command.connect)
      throw new Error('no SettingsSaved with a network');
    return command as Command & { type: 'SettingsSaved' };
  }

  /** The profile's SSID as wpa_supplicant holds it: `"text"` when printable ASCII, else hex. */
  function ssidOf(id: number): Buffer {
    const v = wpa('get_network', String(id), 'ssid');
    return v.startsWith('"') ? Buffer.from(v.slice(1, -1), 'latin1') : Buffer.from(v, 'hex');
  }

  function savedSsids(): Buffer[] {
    return [...fs.readFileSync(conf, 'utf8').matchAll(/^\tssid=(.*)$/gm)].map((m) =>
      m[1]!.startsWith('"') ? Buffer.from(m[1]!.slice(1, -1), 'latin1') : Buffer.from(m[1]!, 'hex'),
    );
  }

  it.each(NAMES.map((n, i) => [n.label, i] as const))('a listed network: %s', async (_, i) => {
    const name = NAMES[i]!;
    const html = await (await fetch(portal.url)).text();
    // The radio next to this network's shown name: its value is what the phone posts.
    const items = [
      ...html.matchAll(
        /<input type="radio"[^>]*name="([^"]+)" value="([^"]*)"[^>]*>.*?<span class="ssid">([^<]*)<\/span>/g,
      ),
    ];
    // (formatSsid shows these three as wpa_supplicant prints them.)
    const item = items.find((m) => m[3] === name.printed);
    expect(item, `the form lists ${name.label}`).toBeDefined();
    const command = await choose({ [item![1]!]: item![2]! });
    await station.provision(toProvisionRequest(command.connect!));
    const id = Number(wpa('list_networks').split('\n').at(-1)!.split('\t')[0]);
    expect(ssidOf(id).toString('hex')).toBe(name.bytes.toString('hex'));
    expect(savedSsids().map((b) => b.toString('hex'))).toContain(name.bytes.toString('hex'));
    // Never the bytes of the display text (the old behaviour).
    expect(savedSsids().map((b) => b.toString('hex'))).not.toContain(
      Buffer.from(name.printed, 'utf8').toString('hex'),
    );
  });

  it('a hidden network typed by hand stays the text that was typed', async () => {
    // Names that are not in the list (a typed name that is listed is the listed network).
    for (const typed of ['Attic\\Net', 'Caf\\xe9']) {
      const command = await choose({ 'wifi.ssid_hex': '', 'wifi.hidden_ssid': typed });
      expect(command.connect).toMatchObject({ hidden: true });
      await station.provision(toProvisionRequest(command.connect!));
      expect(savedSsids().map((b) => b.toString('utf8'))).toContain(typed);
    }
    const text = fs.readFileSync(conf, 'utf8');
    expect(text).toContain('scan_ssid=1');
    expect(fs.statSync(conf).mode & 0o777).toBe(0o600);
  });
});
