import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { needs } from '@waved/test-lab';
import { expect, it } from 'vitest';

const runScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../hwsim/run');

function hwsim(scenario: string): Promise<{ code: number; log: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [runScript, scenario], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d: Buffer) => {
      log += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      log += d.toString();
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, log }));
  });
}

const lab = needs({
  peers: ['qemu-system-x86_64', 'hostapd', 'wpa_supplicant', 'iw', 'depmod', 'cpio', 'dpkg-deb'],
});

lab.describe('mac80211_hwsim virtual radios in a TCG VM', () => {
  it('completes a real WPA2 handshake and a DHCP lease (harness self-check)', async () => {
    const { code, log } = await hwsim('radio');
    if (code !== 0) console.log(log);
    expect(log).toMatch(/station COMPLETED/);
    expect(log).toMatch(/lease obtained/);
    expect(code).toBe(0);
  });

  it('provisions the device from a phone end to end: QR, DHCP, DNS, portal, wrong key, Try again, failover, timeout', async () => {
    const started = Date.now();
    const { code, log } = await hwsim('provisioning');
    if (code !== 0) console.log(log);
    const summary = log.slice(log.indexOf('SUMMARY'));
    console.log(
      `hwsim provisioning scenario: ${((Date.now() - started) / 1000).toFixed(0)} s wall\n${summary.split('\n').slice(0, 9).join('\n')}`,
    );
    for (const stepName of [
      '1 provisioning opens',
      '2 phone joins',
      '4 wrong passphrase',
      '3 try again',
      '6 second saved network',
      '5 provisioning timeout',
      '7 logs hold no passphrase',
    ]) {
      expect(summary, stepName).toContain(stepName);
    }
    // The whole guest console (appliance log, peer log tails, bus trace) never shows a home passphrase.
    for (const secret of ['correct-horse-42', 'battery-staple-7', 'wrong-passphrase-9'])
      expect(log).not.toContain(secret);
    expect(code).toBe(0);
  });
});
