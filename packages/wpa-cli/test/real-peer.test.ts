import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { derivePskSync } from '@waved/psk';
import {
  createNetns,
  createVethPair,
  type Netns,
  needs,
  type Peer,
  startPeer,
  tempDir,
  waitFor,
  waitForPath,
} from '@waved/test-lab';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  type CommandRunner,
  createWpaCli,
  decodeSsid,
  encodeSsidHex,
  provisionNetwork,
  runCommand,
  syncSavedConfig,
  type WpaCli,
} from '../src/index.js';

/** The pid of the process whose command line holds every one of `parts`. */
function pidOf(...parts: string[]): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (parts.every((p) => argv.some((a) => a.endsWith(p)))) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

const traced = needs({ root: true, peers: ['strace'] });

const lab = needs({ root: true, peers: ['wpa_supplicant', 'wpa_cli', 'ip'] });

lab.describe('against the real wpa_supplicant 2.10 (-D wired on a veth in a netns, real wpa_cli)', () => {
  const dir = tempDir('wpa-cli-peer-');
  const conf = dir.join('wpa_supplicant.conf');
  const ctrl = dir.join('ctrl');
  const daemonLog = dir.join('wpa.log');
  let ns: Netns | undefined;
  let peer: Peer | undefined;
  let cli: WpaCli;
  const commands: string[][] = [];
  const logs: string[] = [];
  const recording: CommandRunner = (file, args, options) => {
    commands.push([...args]);
    return runCommand(file, args, options);
  };

  beforeAll(async () => {
    ns = await createNetns('wpacli');
    await createVethPair({ ns, name: 'wl0' }, { ns, name: 'wl0peer' });
    writeFileSync(conf, `ctrl_interface=DIR=${ctrl} GROUP=root\nupdate_config=1\n`, { mode: 0o600 });
    // save_config rewrites the file with the daemon's umask (lab.md §1), so start it under 077.
    peer = startPeer('sh', [
      '-c',
      'umask 077 && exec "$@"',
      'sh',
      ...ns.prefix,
      'wpa_supplicant',
      '-D',
      'wired',
      '-i',
      'wl0',
      '-c',
      conf,
      '-f',
      daemonLog,
      '-t',
    ]);
    await waitForPath(`${ctrl}/wl0`);
    // The control socket is a path, not netns-scoped: wpa_cli runs here in the root namespace.
    cli = createWpaCli({
      iface: 'wl0',
      ctrlDir: ctrl,
      run: recording,
      timeoutMs: 5000,
      logger: { debug: (message, fields) => logs.push(`${message} ${JSON.stringify(fields ?? {})}`) },
    });
    await waitFor(() => cli.ping().then(() => true), { what: 'wpa_supplicant PONG' });
  });

  afterAll(async () => {
    await peer?.stop();
    await ns?.remove();
    dir.remove();
  });

  beforeEach(() => {
    commands.length = 0;
    logs.length = 0;
  });

  it('answers status, and each kind of refusal comes back as its WpaCliError code', async () => {
    const status = await cli.status();
    expect(status.wpaState).toBe('DISCONNECTED');
    expect(status.address).toMatch(/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/);
    await expect(cli.signalPoll()).rejects.toMatchObject({ code: 'WPA_CLI_FAIL' });
    await expect(cli.getNetwork(4242, 'ssid')).rejects.toMatchObject({ code: 'WPA_CLI_FAIL' });
    await expect(cli.enableNetwork(4242)).rejects.toMatchObject({ code: 'WPA_CLI_FAIL' });
    const elsewhere = createWpaCli({ iface: 'wl0', ctrlDir: dir.join('no-ctrl'), timeoutMs: 5000 });
    await expect(elsewhere.ping()).rejects.toMatchObject({ code: 'WPA_CLI_CONNECT' });
    expect(commands[0]).toEqual(['-i', 'wl0', '-p', ctrl, '--', 'status']);
  });

  const ssids: Array<[string, Buffer]> = [
    ['a quote', Buffer.from('say "hi"')],
    ['a backslash', Buffer.from('back\\slash\\x41')],
    ['a space at the end', Buffer.from('trailing ')],
    ['an emoji', Buffer.from('Café 📶')],
    ['non-UTF-8 bytes', Buffer.from([0xff, 0xfe, 0x00, 0x1b, 0x0a, 0x41, 0xc3])],
    ['exactly 32 bytes', Buffer.from('0123456789abcdefghijklmnopqrstuv')],
    ['32 bytes that all need escaping', Buffer.alloc(32, 0x80)],
  ];
  it.each(ssids)(
    'an SSID with %s round-trips through set_network, list_networks and decodeSsid',
    async (_, bytes) => {
      const id = await cli.addNetwork();
      try {
        await cli.setNetwork(id, 'ssid', encodeSsidHex(bytes));
        const entry = (await cli.listNetworks()).find((n) => n.id === id);
        expect(entry?.ssid).toEqual(bytes);
        // and what wpa_cli printed decodes to the same bytes on its own
        const listed = (
          await runCommand('wpa_cli', ['-i', 'wl0', '-p', ctrl, '--', 'list_networks'], { timeoutMs: 5000 })
        ).stdout;
        const line = listed.split('\n').find((l) => l.startsWith(`${id}\t`))!;
        expect(decodeSsid(line.split('\t')[1]!)).toEqual(bytes);
        // get_network prints printable ASCII quoted and everything else as hex
        const got = await cli.getNetwork(id, 'ssid');
        expect(
          got.startsWith('"') ? Buffer.from(got.slice(1, -1), 'latin1') : Buffer.from(got, 'hex'),
        ).toEqual(bytes);
      } finally {
        await cli.removeNetwork(id);
      }
    },
  );

  it('the real daemon refuses a 33-byte SSID, and encodeSsidHex refuses it first', async () => {
    const id = await cli.addNetwork();
    try {
      await expect(cli.setNetwork(id, 'ssid', '41'.repeat(33))).rejects.toMatchObject({
        code: 'WPA_CLI_FAIL',
      });
      expect(() => encodeSsidHex(Buffer.alloc(33, 0x41))).toThrow(
        expect.objectContaining({ code: 'WPA_CLI_ARGUMENT' }),
      );
    } finally {
      await cli.removeNetwork(id);
    }
  });

  it('provisions by the profile rules: reuse by SSID, rising priorities, disabled stays disabled, PSK as 64 hex, 0600', async () => {
    const chmodCalls: Array<[string, number]> = [];
    const spyChmod = async (path: string, mode: number) => {
      chmodCalls.push([path, mode]);
      await chmod(path, mode);
    };
    const provision = (ssid: string, passphrase: string) =>
      provisionNetwork(cli, { ssid, passphrase, configPath: conf, chmod: spyChmod });

    const home1 = await provision('Home', 'first-passphrase');
    const office = await provision('Office', 'office-passphrase');
    expect(office.id).not.toBe(home1.id);
    await cli.disableNetwork(office.id);
    await cli.saveConfig();
    const home2 = await provision('Home', 'second-passphrase');
    const guest = await provision('Guest 📶', 'guest-passphrase');

    expect(home1.created).toBe(true);
    expect(home2).toMatchObject({ id: home1.id, created: false });
    expect(guest.created).toBe(true);
    const priorities = [home1, office, home2, guest].map((r) => r.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
    expect(new Set(priorities).size).toBe(4);

    const nets = await cli.listNetworks();
    const byId = new Map(nets.map((n) => [n.id, n]));
    expect(byId.get(office.id)!.disabled).toBe(true);
    expect(byId.get(home1.id)!.disabled).toBe(false);
    expect(byId.get(guest.id)!.disabled).toBe(false);
    expect(nets.filter((n) => n.ssid.equals(Buffer.from('Home')))).toHaveLength(1);
    for (const r of [home2, office, guest])
      expect(await cli.getNetwork(r.id, 'priority')).toBe(String(r.priority));

    const saved = readFileSync(conf, 'utf8');
    const psks = [...saved.matchAll(/^\s*psk=(.*)$/gm)].map((m) => m[1]);
    expect(psks).toHaveLength(3);
    for (const psk of psks) expect(psk).toMatch(/^[0-9a-f]{64}$/);
    expect(psks).toContain(derivePskSync('Home', 'second-passphrase'));
    expect(psks).not.toContain(derivePskSync('Home', 'first-passphrase'));
    for (const secret of ['first-passphrase', 'office-passphrase', 'second-passphrase', 'guest-passphrase']) {
      expect(saved).not.toContain(secret);
    }
    expect(saved).toMatch(/ssid="Office"[\s\S]*?disabled=1/);
    expect(statSync(conf).mode & 0o777).toBe(0o600);
    expect(chmodCalls).toEqual(Array(4).fill([conf, 0o600]));
    // the passphrases never reached wpa_supplicant either
    const daemon = readFileSync(daemonLog, 'utf8');
    for (const secret of ['first-passphrase', 'office-passphrase', 'second-passphrase', 'guest-passphrase']) {
      expect(daemon).not.toContain(secret);
    }
  });

  it('records every command and log line of a provisioning: no select_network, no passphrase, no PSK in the log', async () => {
    const passphrase = 'never-log-this-9f3';
    const psk = derivePskSync('Secretive', passphrase);
    await provisionNetwork(cli, { ssid: 'Secretive', passphrase, configPath: conf });
    const sent = commands.map((a) => a.slice(a.indexOf('--') + 1));
    expect(sent.map((c) => c[0])).toContain('save_config');
    expect(sent.some((c) => c.includes('select_network'))).toBe(false);
    expect(sent.flat().some((arg) => arg.includes(passphrase))).toBe(false);
    expect(sent.filter((c) => c.includes(psk))).toEqual([
      expect.arrayContaining(['set_network', 'psk', psk]),
    ]);
    const log = logs.join('\n');
    expect(logs.length).toBeGreaterThanOrEqual(sent.length);
    expect(log).toContain('psk ****');
    expect(log).not.toContain('select_network');
    expect(log).not.toContain(passphrase);
    expect(log).not.toContain(psk);
  });

  traced.describe('save_config under strace', () => {
    it('wpa_supplicant writes <conf>.tmp, fdatasyncs and renames it, and fsyncs no directory; provisionNetwork syncs after it', async () => {
      const pid = pidOf('wpa_supplicant', conf);
      expect(pid).toBeGreaterThan(0);
      const out = dir.join('strace.txt');
      const tracer = startPeer('strace', [
        '-qq',
        '-p',
        String(pid),
        '-e',
        'trace=open,openat,fdatasync,fsync,rename,renameat,renameat2',
        '-o',
        out,
      ]);
      const tracerPid = () => /^TracerPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      await waitFor(() => tracerPid() !== '0', { what: 'strace attached' });
      const synced: string[] = [];
      await provisionNetwork(cli, {
        ssid: 'Traced',
        passphrase: 'traced-passphrase',
        configPath: conf,
        sync: async (file) => {
          synced.push(readFileSync(out, 'utf8'));
          await syncSavedConfig(file);
        },
      });
      await tracer.stop();
      const calls = readFileSync(out, 'utf8')
        .split('\n')
        .filter((l) => /open|sync|rename/.test(l));
      const tmp = `${conf}.tmp`;
      const opened = calls.findIndex((l) => l.includes(`"${tmp}", O_WRONLY|O_CREAT|O_TRUNC`));
      const datasync = calls.findIndex((l, i) => i > opened && l.startsWith('fdatasync('));
      const renamed = calls.findIndex(
        (l) => l.includes(`rename("${tmp}", "${conf}")`) || l.includes(`"${tmp}", AT_FDCWD, "${conf}"`),
      );
      expect(opened).toBeGreaterThanOrEqual(0);
      expect(datasync).toBeGreaterThan(opened);
      expect(renamed).toBeGreaterThan(datasync);
      // no fsync at all, so neither the rename nor the directory entry is on disk when save_config answers OK
      expect(calls.filter((l) => l.startsWith('fsync('))).toEqual([]);
      // provisionNetwork's own fsyncs came after the daemon's rename
      expect(synced).toHaveLength(1);
      expect(synced[0]).toContain(`"${conf}"`);
      expect(statSync(conf).mode & 0o777).toBe(0o600);
    });
  });
});
