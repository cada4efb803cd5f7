import dgram from 'node:dgram';
import fs from 'node:fs';
import { freePort, needs, tempDir } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileStore } from '../../src/adapters/system/files.js';
import { createSystemRadio } from '../../src/adapters/system/radio.js';
import { type CommandRunner, runCommand } from '../../src/adapters/system/runner.js';
import { type ProvisioningState, StateBus } from '../../src/core/bus.js';
import type { ApplianceError } from '../../src/core/errors.js';
import { createProvisioningController } from '../../src/domain/provisioning/controller.js';
import { createSimRadio } from '../../src/sim/radio.js';

/**
 * The controller on the real system radio with the real in-process DNS and DHCP servers (on
 * loopback) and, where it matters, the real hostapd: a port already taken or a config hostapd
 * refuses ends in Failed{ap-failed}, the config file is gone and the station is started again.
 */
const dir = tempDir('waved-faults-');
afterAll(() => dir.remove());

/** The real hostapd when asked for; every other command is recorded and succeeds. */
function mixedRunner(calls: string[], realHostapd: boolean): CommandRunner {
  return async (file, args, options) => {
    calls.push([file, ...args].join(' '));
    if (file === 'hostapd' && realHostapd) return runCommand(file, args, options);
    return { stdout: file === 'wpa_cli' ? 'PONG\n' : '', stderr: '', code: 0 };
  };
}

async function occupy(port: number) {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((r) => s.bind(port, '127.0.0.1', r));
  return s;
}

async function run(options: { dnsBusy?: boolean; dhcpBusy?: boolean; hostapdConfig?: string }) {
  const calls: string[] = [];
  const dnsPort = await freePort();
  const dhcpPort = await freePort();
  const blockers = [
    ...(options.dnsBusy ? [await occupy(dnsPort)] : []),
    ...(options.dhcpBusy ? [await occupy(dhcpPort)] : []),
  ];
  const radio = createSystemRadio({
    run: mixedRunner(calls, options.hostapdConfig !== undefined),
    runDir: dir.join(`run-${dnsPort}`),
    gateway: '127.0.0.1',
    dnsPort,
    dhcpPort,
    bindDhcpToInterface: false,
    macAddress: async () => '02:00:00:00:ab:cd',
  });
  if (options.hostapdConfig) radio.hostapdConfig = () => options.hostapdConfig!;
  // The station side (scan) from the simulator; the radio steps are the system ones.
  const station = createSimRadio({ scanDelayMs: 1 });
  const bus = new StateBus();
  const states: ProvisioningState[] = [];
  bus.on('ProvisioningState', (s) => states.push(s));
  const configPath = dir.join(`hostapd-${dnsPort}.conf`);
  const controller = createProvisioningController({
    files: createFileStore(),
    bus,
    radio,
    station,
    hostapdConfigPath: configPath,
    derivePsk: async () => 'cd'.repeat(32),
  });
  controller.start();
  bus.send({ type: 'OpenWifiProvisioning' });
  for (let i = 0; i < 200 && !['Failed', 'ApActive'].includes(states.at(-1)!.state); i++) {
    await new Promise((r) => setTimeout(r, 25));
  }
  const last = states.at(-1)!;
  await controller.stop();
  for (const b of blockers) b.close();
  station.close();
  return { last, calls, configPath, dnsPort, dhcpPort };
}

describe('AP bring-up faults on the real servers', () => {
  it('port 53 already in use: Failed{ap-failed}, DHCP closed again, config removed, station started', async () => {
    const r = await run({ dnsBusy: true });
    expect(r.last).toMatchObject({ state: 'Failed', reason: 'ap-failed' });
    expect(r.last.state === 'Failed' && r.last.message).toContain('start DNS server failed');
    expect(fs.existsSync(r.configPath)).toBe(false);
    // the DHCP server that did start was closed: its port can be bound again
    const s = await occupy(r.dhcpPort);
    s.close();
    expect(r.calls.at(-1)).toMatch(/wpa_cli .* ping$/);
  });

  it('port 67 already in use: Failed{ap-failed}, nothing left bound', async () => {
    const r = await run({ dhcpBusy: true });
    expect(r.last).toMatchObject({ state: 'Failed', reason: 'ap-failed' });
    expect(r.last.state === 'Failed' && r.last.message).toContain('start DHCP server failed');
    expect(fs.existsSync(r.configPath)).toBe(false);
  });
});

const lab = needs({ peers: ['hostapd'] });
lab.describe('hostapd refusing its config (real hostapd, lab.md §2)', () => {
  it('a parse error fails the step with hostapd’s own message, and the config is still removed', async () => {
    const bad =
      'interface=lo\ndriver=nl80211\nssid=x\nwpa=2\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\nwpa_psk=f42c6fc52df0\n';
    const r = await run({ hostapdConfig: bad });
    expect(r.last).toMatchObject({ state: 'Failed', reason: 'ap-failed' });
    expect(r.last.state === 'Failed' && r.last.message).toContain('start hostapd failed');
    expect(fs.existsSync(r.configPath)).toBe(false);
    expect(r.calls.some((c) => c.startsWith('hostapd -B'))).toBe(true);
  });

  it('the system radio reports the hostapd output in its error', async () => {
    const file = dir.join('bad.conf');
    fs.writeFileSync(file, 'interface=lo\ndriver=bogus\n', { mode: 0o600 });
    const radio = createSystemRadio({ runDir: dir.join('run-bad') });
    const error = await radio.startHostapd(file).catch((e: ApplianceError) => e);
    expect((error as ApplianceError).code).toBe('APPLIANCE_COMMAND_FAILED');
    expect((error as Error).message).toMatch(/driver|Line 2/);
  });
});
