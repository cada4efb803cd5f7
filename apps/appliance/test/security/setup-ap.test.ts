import fs from 'node:fs';
import { createNetns, type Netns, needs, tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatHostapdConfig } from '../../src/domain/provisioning/ap.js';

/**
 * The setup AP's hostapd config, checked by the real hostapd (lab.md §2 recipe B: `driver=wired`
 * on a veth in a namespace of our own; still running after 3 s means it came up). Client isolation
 * keeps one phone on the setup network from reaching another; PMF is offered (optional), which
 * hostapd shows by generating an IGTK (the management-frame group key) at start.
 */
const lab = needs({ root: true, peers: ['hostapd', 'ip', 'timeout'] });

lab.describe('setup AP: client isolation and optional PMF, as the real hostapd reads them', () => {
  const dir = tempDir('waved-sec-ap-');
  let ns: Netns;

  beforeAll(async () => {
    ns = await createNetns(`wvsap${process.pid % 1000}`);
    await ns.exec('ip', ['link', 'add', 'hap0', 'type', 'veth', 'peer', 'name', 'hap1']);
    await ns.exec('ip', ['link', 'set', 'hap0', 'up']);
    await ns.exec('ip', ['link', 'set', 'hap1', 'up']);
  });
  afterAll(async () => {
    await ns?.remove();
    dir.remove();
  });

  /** `timeout 3 hostapd -dd <file>` inside the namespace: its exit code and output. */
  async function runHostapd(text: string) {
    const file = dir.join(`hostapd-${Math.random().toString(36).slice(2)}.conf`);
    fs.writeFileSync(file, text, { mode: 0o600 });
    const r = await ns.exec('timeout', ['3', 'hostapd', '-dd', file], { allowFail: true, timeoutMs: 10_000 });
    return { code: r.code, out: r.stdout + r.stderr };
  }

  const config = formatHostapdConfig({
    iface: 'hap0',
    driver: 'wired',
    ssid: 'Device-3F2A',
    psk: 'ab'.repeat(32),
  });

  it('the config carries ap_isolate=1 and ieee80211w=1, and hostapd comes up with it', async () => {
    expect(config).toContain('\nap_isolate=1\n');
    expect(config).toContain('\nieee80211w=1\n');
    const r = await runHostapd(config);
    expect(r.out).toContain('AP-ENABLED');
    expect(r.code).toBe(124); // still running when `timeout` stopped it
    // PMF on: hostapd makes the integrity group key for management frames.
    expect(r.out).toMatch(/IGTK - hexdump/);
    expect(r.out).not.toMatch(/Line \d+:/);
  });

  it('without ieee80211w there is no IGTK, and a wrong line is refused: the check can fail', async () => {
    const noPmf = await runHostapd(config.replace('ieee80211w=1\n', ''));
    expect(noPmf.out).toContain('AP-ENABLED');
    expect(noPmf.out).not.toMatch(/IGTK - hexdump/);
    const broken = await runHostapd(config.replace('ap_isolate=1', 'ap_isolation=1'));
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/unknown configuration item 'ap_isolation'/);
  });
});
