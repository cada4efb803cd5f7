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

const lab = needs({ peers: ['qemu-system-x86_64', 'hostapd', 'wpa_supplicant', 'iw', 'depmod', 'cpio', 'dpkg-deb'] });

lab.describe('mac80211_hwsim virtual radios in a TCG VM', () => {
  it('completes a real WPA2 handshake and a DHCP lease (harness self-check)', async () => {
    const { code, log } = await hwsim('radio');
    if (code !== 0) console.log(log);
    expect(log).toMatch(/station COMPLETED/);
    expect(log).toMatch(/lease obtained/);
    expect(code).toBe(0);
  });
});
