import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { derivePskSync } from '@waved/psk';
import { describe, expect, it } from 'vitest';
import { createWpaCli, provisionNetwork, syncSavedConfig, WpaCliError } from '../src/index.js';
import { fakeSupplicant } from './helpers/fake-supplicant.js';

const PASS = 'correct horse battery';

function setup(initial: Parameters<typeof fakeSupplicant>[0] = []) {
  const sup = fakeSupplicant(initial);
  const modes: Array<[string, number, number]> = [];
  const cli = createWpaCli({ iface: 'wl0', run: sup.run });
  const steps: string[] = [];
  const chmod = async (path: string, mode: number) => {
    modes.push([path, mode, sup.saves.length]);
    steps.push(`chmod ${path} ${mode.toString(8)}`);
  };
  const sync = async (path: string) => {
    steps.push(`sync ${path} after ${sup.commands.at(-1)?.join(' ')}`);
  };
  return { sup, cli, chmod, sync, modes, steps };
}

describe('provisionNetwork (profile rules)', () => {
  it('adds a profile: SSID as hex, the derived PSK, priority above the saved maximum, enabled, saved, 0600, reassociate', async () => {
    const { sup, cli, chmod, sync, modes } = setup([
      { ssid: Buffer.from('Office'), priority: 7, disabled: false },
      { ssid: Buffer.from('Lab'), priority: 3, disabled: true },
    ]);
    const result = await provisionNetwork(cli, {
      ssid: 'Home',
      passphrase: PASS,
      configPath: '/etc/wpa.conf',
      chmod,
      sync,
    });
    expect(result).toEqual({ id: 2, created: true, priority: 8 });
    const psk = derivePskSync('Home', PASS);
    expect(sup.commands.map((c) => c.join(' '))).toEqual([
      'list_networks',
      'get_network 0 priority',
      'get_network 1 priority',
      'add_network',
      `set_network 2 ssid ${Buffer.from('Home').toString('hex')}`,
      'set_network 2 key_mgmt WPA-PSK',
      `set_network 2 psk ${psk}`,
      'set_network 2 priority 8',
      'enable_network 2',
      'save_config',
      'reassociate',
    ]);
    expect(modes).toEqual([['/etc/wpa.conf', 0o600, 1]]);
    // other profiles exactly as they were
    expect(sup.networks.map((n) => [n.id, n.disabled])).toEqual([
      [0, false],
      [1, true],
      [2, false],
    ]);
  });

  it('reuses the profile with the same SSID bytes and never sends select_network', async () => {
    const { sup, cli, chmod, sync } = setup([
      { ssid: Buffer.from('café'), priority: 1, disabled: true },
      { ssid: Buffer.from('cafe\u0301'), priority: 2, disabled: true }, // same text to the eye, other bytes
    ]);
    const r = await provisionNetwork(cli, { ssid: 'café', passphrase: PASS, configPath: '/c', chmod, sync });
    expect(r).toEqual({ id: 0, created: false, priority: 3 });
    expect(sup.networks.map((n) => [n.id, n.disabled, n.priority])).toEqual([
      [0, false, 3],
      [1, true, 2],
    ]);
    expect(sup.commands.some((c) => c[0] === 'select_network' || c[0] === 'add_network')).toBe(false);
  });

  it('accepts SSID bytes and a ready 64-hex psk', async () => {
    const { sup, cli, chmod, sync } = setup();
    const psk = 'F42C6FC52DF0EBEF9EBB4B90B38A5F902E83FE1B135A70E23AED762E9710A12E';
    await provisionNetwork(cli, {
      ssid: Uint8Array.from([0xff, 0x22]),
      psk,
      configPath: '/c',
      chmod,
      sync,
      hidden: true,
    });
    expect(sup.networks[0]!.ssid).toEqual(Buffer.from([0xff, 0x22]));
    expect(sup.networks[0]!.vars).toMatchObject({ psk: psk.toLowerCase(), scan_ssid: '1', priority: '1' });
  });

  it('clears a temporary disable (e.g. after WRONG_KEY) of the re-provisioned profile only', async () => {
    const { sup, cli, chmod, sync } = setup([
      { ssid: Buffer.from('A'), disabled: false, tempDisabled: true },
      { ssid: Buffer.from('B'), disabled: false, tempDisabled: true },
    ]);
    await provisionNetwork(cli, { ssid: 'A', passphrase: PASS, configPath: '/c', chmod, sync });
    expect(sup.commands.filter((c) => c[0]?.endsWith('able_network')).map((c) => c.join(' '))).toEqual([
      'disable_network 0',
      'enable_network 0',
    ]);
    expect(sup.networks.map((n) => n.tempDisabled)).toEqual([false, true]);
  });

  it('removes a half-made new profile when a set_network fails', async () => {
    const { sup, cli, chmod, sync } = setup();
    sup.failOn.push((c) => c[0] === 'set_network' && c[2] === 'priority');
    await expect(
      provisionNetwork(cli, { ssid: 'X', passphrase: PASS, configPath: '/c', chmod, sync }),
    ).rejects.toMatchObject({
      code: 'WPA_CLI_FAIL',
    });
    expect(sup.networks).toEqual([]);
    expect(sup.saves).toEqual([]);
  });

  it('makes the saved file durable (fsync of the file and its directory) after chmod and before reassociate', async () => {
    const { cli, chmod, sync, steps, sup } = setup();
    await provisionNetwork(cli, { ssid: 'X', passphrase: PASS, configPath: '/etc/wpa.conf', chmod, sync });
    // the sync follows save_config and the chmod; reassociate comes only after it
    expect(steps).toEqual(['chmod /etc/wpa.conf 600', 'sync /etc/wpa.conf after save_config']);
    expect(sup.commands.at(-1)).toEqual(['reassociate']);
  });

  it('fails with WPA_CLI_CONFIG_SYNC, without reassociating, when the saved file cannot be fsynced', async () => {
    const { cli, chmod, sup } = setup();
    const sync = async () => {
      throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    };
    await expect(
      provisionNetwork(cli, { ssid: 'X', passphrase: PASS, configPath: '/c', chmod, sync }),
    ).rejects.toMatchObject({ code: 'WPA_CLI_CONFIG_SYNC' });
    expect(sup.commands.map((c) => c[0])).not.toContain('reassociate');
  });

  it('syncSavedConfig fsyncs the file, then its directory; a missing file is an error', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wpa-sync-'));
    try {
      const file = path.join(dir, 'wpa.conf');
      writeFileSync(file, 'update_config=1\n');
      await expect(syncSavedConfig(file)).resolves.toBeUndefined();
      await expect(syncSavedConfig(path.join(dir, 'gone.conf'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails with WPA_CLI_CONFIG_MODE when the file cannot be set to 0600', async () => {
    const { cli, sync } = setup();
    const chmod = async () => {
      throw Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' });
    };
    await expect(
      provisionNetwork(cli, { ssid: 'X', passphrase: PASS, configPath: '/c', chmod, sync }),
    ).rejects.toMatchObject({
      code: 'WPA_CLI_CONFIG_MODE',
    });
  });

  it.each<[{ ssid: string; passphrase?: string; psk?: string }, string]>([
    [{ ssid: 'X', passphrase: 'short' }, 'passphrase too short'],
    [{ ssid: 'X', passphrase: 'pässwörd123' }, 'passphrase not ASCII'],
    [{ ssid: 'X' }, 'neither passphrase nor psk'],
    [{ ssid: 'X', passphrase: PASS, psk: 'a'.repeat(64) }, 'both'],
    [{ ssid: 'X', psk: 'xyz' }, 'psk not 64 hex'],
    [{ ssid: '', passphrase: PASS }, 'empty SSID'],
    [{ ssid: 'x'.repeat(33), passphrase: PASS }, '33-byte SSID'],
  ])('refuses %j (%s) before running wpa_cli, without echoing a secret', async (opts) => {
    const { sup, cli, chmod, sync } = setup();
    const error = await provisionNetwork(cli, { configPath: '/c', chmod, sync, ...opts }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WpaCliError);
    expect((error as WpaCliError).code).toBe('WPA_CLI_ARGUMENT');
    if ('passphrase' in opts && opts.passphrase)
      expect((error as Error).message).not.toContain(opts.passphrase);
    expect(sup.commands).toEqual([]);
  });

  it('runs overlapping provisions one after the other so priorities stay distinct', async () => {
    const { sup, cli, chmod, sync } = setup();
    const results = await Promise.all(
      ['A', 'B', 'C'].map((ssid) =>
        provisionNetwork(cli, { ssid, passphrase: PASS, configPath: '/c', chmod, sync }),
      ),
    );
    expect(results.map((r) => r.priority)).toEqual([1, 2, 3]);
    expect(sup.networks.map((n) => n.priority)).toEqual([1, 2, 3]);
  });
});
