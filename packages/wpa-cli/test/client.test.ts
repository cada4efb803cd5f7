import { describe, expect, it } from 'vitest';
import { createWpaCli, WpaCliError, type WpaCliErrorCode } from '../src/index.js';
import { scriptedRunner } from './helpers/fake-runner.js';
import { fixture } from './helpers/fixtures.js';

const cliWith = (run: ReturnType<typeof scriptedRunner>, extra: { timeoutMs?: number } = {}) =>
  createWpaCli({ iface: 'wl0', ctrlDir: '/run/wpa', run, ...extra });

describe('createWpaCli: argv', () => {
  it('runs wpa_cli -i IFACE -p DIR -- CMD ARGS with the default 10 s timeout', async () => {
    const run = scriptedRunner([fixture('set-network-ok')]);
    await cliWith(run).setNetwork(0, 'priority', '-5');
    expect(run.calls).toEqual([
      {
        file: 'wpa_cli',
        args: ['-i', 'wl0', '-p', '/run/wpa', '--', 'set_network', '0', 'priority', '-5'],
        timeoutMs: 10_000,
      },
    ]);
  });

  it('leaves -p out without ctrlDir and passes a value with spaces and quotes as one argument', async () => {
    const run = scriptedRunner(['OK\n']);
    await createWpaCli({ iface: 'wlan0', run, bin: '/opt/wpa_cli' }).setNetwork(2, 'id_str', '"a b; $(x)"');
    expect(run.calls[0]!.file).toBe('/opt/wpa_cli');
    expect(run.calls[0]!.args).toEqual(['-i', 'wlan0', '--', 'set_network', '2', 'id_str', '"a b; $(x)"']);
  });

  it.each([
    ['iface', () => createWpaCli({ iface: 'wl 0' })],
    ['iface', () => createWpaCli({ iface: '-x' })],
    ['iface', () => createWpaCli({ iface: 'a'.repeat(16) })],
    ['ctrlDir', () => createWpaCli({ iface: 'wl0', ctrlDir: '' })],
    ['timeoutMs', () => createWpaCli({ iface: 'wl0', timeoutMs: 0 })],
  ])('refuses a bad %s', (_, make) => {
    expect(make).toThrow(expect.objectContaining({ code: 'WPA_CLI_ARGUMENT' }));
  });

  it.each([
    ['a negative id', (c: ReturnType<typeof createWpaCli>) => c.enableNetwork(-1)],
    ['a fractional id', (c: ReturnType<typeof createWpaCli>) => c.removeNetwork(1.5)],
    ['a name with a space', (c: ReturnType<typeof createWpaCli>) => c.setNetwork(0, 'ssid x', '41')],
    ['a value with a newline', (c: ReturnType<typeof createWpaCli>) => c.setNetwork(0, 'ssid', '41\nOK')],
    ['a get with a bad name', (c: ReturnType<typeof createWpaCli>) => c.getNetwork(0, '../x')],
  ])('refuses %s before running anything', async (_, act) => {
    const run = scriptedRunner([]);
    await expect(act(cliWith(run))).rejects.toMatchObject({ code: 'WPA_CLI_ARGUMENT' });
    expect(run.calls).toHaveLength(0);
  });
});

describe('createWpaCli: every reply is classified', () => {
  // stdout/stderr/exit codes as the real wpa_cli 2.10 produced them (lab.md §1, fixtures/exit-codes.txt)
  const cases: Array<[string, Parameters<typeof scriptedRunner>[0][number], WpaCliErrorCode]> = [
    ['FAIL (exit 0)', fixture('set-network-fail'), 'WPA_CLI_FAIL'],
    ['FAIL-BUSY (exit 0)', fixture('scan-busy'), 'WPA_CLI_FAIL_BUSY'],
    ['UNKNOWN COMMAND from the daemon (exit 0)', fixture('unknown-command'), 'WPA_CLI_UNKNOWN_COMMAND'],
    [
      "wpa_cli's own unknown command (exit 1)",
      { stdout: "Unknown command 'scan'\n", code: 1 },
      'WPA_CLI_UNKNOWN_COMMAND',
    ],
    [
      'no control socket (exit 255)',
      {
        stderr: 'Failed to connect to non-global ctrl_ifname: wl0  error: No such file or directory\n',
        code: 255,
      },
      'WPA_CLI_CONNECT',
    ],
    [
      'the daemon did not answer (exit 254)',
      { stdout: "'SCAN' command timed out.\n", code: 254 },
      'WPA_CLI_TIMEOUT',
    ],
    [
      'killed by the runner at the timeout',
      { code: null, signal: 'SIGKILL', timedOut: true },
      'WPA_CLI_TIMEOUT',
    ],
    ['another exit status', { stdout: 'Invalid SCAN command\n', code: 255 }, 'WPA_CLI_EXIT'],
    ['killed by a signal', { code: null, signal: 'SIGSEGV' }, 'WPA_CLI_EXIT'],
    ['another FAIL- reason', 'FAIL-CHANNEL-UNAVAILABLE\n', 'WPA_CLI_FAIL'],
    ['an unexpected reply to a command that answers OK', 'PONG\n', 'WPA_CLI_PARSE'],
  ];
  it.each(cases)('%s -> %s', async (_, reply, code) => {
    const run = scriptedRunner([reply]);
    const error = await cliWith(run)
      .scan()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WpaCliError);
    expect((error as WpaCliError).code).toBe(code);
    expect((error as WpaCliError).command).toBe('scan');
  });

  it('a runner that cannot start wpa_cli gives WPA_CLI_SPAWN with the cause', async () => {
    const cause = Object.assign(new Error('spawn wpa_cli ENOENT'), { code: 'ENOENT' });
    const cli = createWpaCli({ iface: 'wl0', run: () => Promise.reject(cause) });
    await expect(cli.ping()).rejects.toMatchObject({ code: 'WPA_CLI_SPAWN', cause });
  });

  it('a runner that never returns is abandoned with WPA_CLI_TIMEOUT and told to abort', async () => {
    let aborted = false;
    const cli = createWpaCli({
      iface: 'wl0',
      timeoutMs: 50,
      run: (_f, _a, { signal }) => {
        signal?.addEventListener('abort', () => {
          aborted = true;
        });
        return new Promise(() => {});
      },
    });
    const started = Date.now();
    await expect(cli.status()).rejects.toMatchObject({ code: 'WPA_CLI_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(aborted).toBe(true);
  });
});

describe('createWpaCli: typed methods on captured replies', () => {
  it('ping, add_network, get_network and OK commands', async () => {
    const run = scriptedRunner([
      fixture('ping'),
      fixture('add-network'),
      fixture('get-network-ssid-text'),
      fixture('get-network-psk'),
      fixture('get-network-priority'),
      ...Array(8).fill(fixture('save-config')),
    ]);
    const cli = cliWith(run);
    await cli.ping();
    expect(await cli.addNetwork()).toBe(0);
    expect(await cli.getNetwork(0, 'ssid')).toBe('"IEEE"');
    expect(await cli.getNetwork(0, 'psk')).toBe('*');
    expect(await cli.getNetwork(0, 'priority')).toBe('5');
    await cli.enableNetwork(0);
    await cli.disableNetwork(0);
    await cli.removeNetwork('all');
    await cli.saveConfig();
    await cli.reassociate();
    await cli.reconnect();
    await cli.disconnect();
    await cli.scan();
    expect(run.calls.map((c) => c.args.slice(5).join(' '))).toEqual([
      'ping',
      'add_network',
      'get_network 0 ssid',
      'get_network 0 psk',
      'get_network 0 priority',
      'enable_network 0',
      'disable_network 0',
      'remove_network all',
      'save_config',
      'reassociate',
      'reconnect',
      'disconnect',
      'scan',
    ]);
  });

  it('add_network refuses a reply that is not an id', async () => {
    await expect(cliWith(scriptedRunner(['OK\n'])).addNetwork()).rejects.toMatchObject({
      code: 'WPA_CLI_PARSE',
    });
  });

  it('get_network of a missing network is WPA_CLI_FAIL', async () => {
    await expect(
      cliWith(scriptedRunner([fixture('get-network-missing')])).getNetwork(9, 'ssid'),
    ).rejects.toMatchObject({ code: 'WPA_CLI_FAIL' });
  });

  it.each([['signal-poll-wired'], ['signal-poll-disconnected']])(
    'signal_poll answered by %s is WPA_CLI_FAIL',
    async (name) => {
      await expect(cliWith(scriptedRunner([fixture(name)])).signalPoll()).rejects.toMatchObject({
        code: 'WPA_CLI_FAIL',
      });
    },
  );

  it('signal_poll while connected gives the RSSI to classify', async () => {
    const poll = await cliWith(scriptedRunner([fixture('signal-poll-hwsim')])).signalPoll();
    expect(poll.rssi).toBe(-30);
  });

  it('status and scan_results are parsed', async () => {
    const cli = cliWith(scriptedRunner([fixture('status-associated'), fixture('scan-results-empty')]));
    expect((await cli.status()).wpaState).toBe('ASSOCIATED');
    expect(await cli.scanResults()).toEqual([]);
  });

  it('a malformed status reply is WPA_CLI_PARSE naming the command', async () => {
    await expect(cliWith(scriptedRunner(['hello\n'])).status()).rejects.toMatchObject({
      code: 'WPA_CLI_PARSE',
      command: 'status',
    });
  });

  it('list_networks follows LAST_ID pages when the 4 KiB reply was cut', async () => {
    const run = scriptedRunner([fixture('list-networks-truncated'), fixture('list-networks-page2')]);
    const nets = await cliWith(run).listNetworks();
    expect(run.calls.map((c) => c.args.slice(5))).toEqual([
      ['list_networks'],
      ['list_networks', 'LAST_ID=32'],
    ]);
    expect(nets.map((n) => n.id)).toEqual(Array.from({ length: 47 }, (_, i) => i));
  });

  it('list_networks asks once when the reply is short', async () => {
    const run = scriptedRunner([fixture('list-networks-mixed')]);
    expect(await cliWith(run).listNetworks()).toHaveLength(7);
    expect(run.calls).toHaveLength(1);
  });

  it('list_networks stops when paging does not move forward', async () => {
    const full = fixture('list-networks-truncated');
    await expect(cliWith(scriptedRunner([full, full])).listNetworks()).rejects.toMatchObject({
      code: 'WPA_CLI_PARSE',
    });
  });
});

describe('createWpaCli: logging', () => {
  it('logs every call with the psk value masked, and never the value', async () => {
    const lines: string[] = [];
    const psk = 'f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e';
    const run = scriptedRunner(['OK\n', 'FAIL\n']);
    const cli = createWpaCli({
      iface: 'wl0',
      run,
      logger: { debug: (m, f) => lines.push(m + JSON.stringify(f ?? {})) },
    });
    await cli.setNetwork(0, 'psk', psk);
    const error = (await cli.setNetwork(0, 'psk', psk).catch((e: unknown) => e)) as WpaCliError;
    expect(error.code).toBe('WPA_CLI_FAIL');
    expect(error.message).toContain('psk ****');
    expect(error.message).not.toContain(psk);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^wpa_cli set_network 0 psk \*\*\*\* -> ok/);
    expect(lines[1]).toMatch(/^wpa_cli set_network 0 psk \*\*\*\* -> WPA_CLI_FAIL/);
    expect(lines.join('\n')).not.toContain(psk);
    // the real value did reach wpa_cli
    expect(run.calls[0]!.args.at(-1)).toBe(psk);
  });

  it('takes any shared Logger: one without debug stays silent, and a class-based one keeps its this', async () => {
    const infoOnly = { info: (m: string) => expect.unreachable(m) };
    await createWpaCli({ iface: 'wl0', run: scriptedRunner(['OK\n']), logger: infoOnly }).reassociate();

    class Collecting {
      readonly lines: string[] = [];
      debug(message: string) {
        this.lines.push(message);
      }
    }
    const logger = new Collecting();
    await createWpaCli({ iface: 'wl0', run: scriptedRunner(['OK\n']), logger }).reassociate();
    expect(logger.lines).toEqual([expect.stringMatching(/^wpa_cli reassociate -> ok/)]);
  });
});
