import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { needs } from '@waved/test-lab';
import { expect, it } from 'vitest';

const runScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../hwsim/run');
const SECRETS = ['correct-horse-42', 'battery-staple-7', 'wrong-passphrase-9', 'e2e-factory-secret-5d1c'];

function hwsim(args: string[]): Promise<{ code: number; log: string; wallS: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('bash', [runScript, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d: Buffer) => {
      log += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      log += d.toString();
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, log, wallS: (Date.now() - started) / 1000 }));
  });
}

/** The scenario's summary, figures and the host's step table, for the test output. */
function report(arch: string, scenario: string, { log, wallS }: { log: string; wallS: number }): string {
  const summary = log.slice(log.indexOf('SUMMARY')).split('\n');
  const figures = log.split('\n').find((l) => /FIGURES /.test(l)) ?? '';
  const table = log.split('\n').filter((l) => l.startsWith(`[hwsim ${arch}] step`));
  return [
    `hwsim ${arch} ${scenario}: ${wallS.toFixed(0)} s wall (build, boot and scenario)`,
    ...summary.slice(
      1,
      summary.findIndex((l) => /FIGURES /.test(l)),
    ),
    figures.replace(/^w\+[\d.]+ /, ''),
    ...table,
  ].join('\n');
}

function expectSteps(log: string, names: string[]) {
  const summary = log.slice(log.indexOf('SUMMARY'));
  for (const name of names) expect(summary, name).toContain(name);
}

const x64 = needs({
  peers: ['qemu-system-x86_64', 'hostapd', 'wpa_supplicant', 'iw', 'depmod', 'cpio', 'dpkg-deb', 'readelf'],
});

// arm64 (`npm run e2e:arm64`, or `bash e2e/hwsim/run --arch arm64 provisioning-reduced`) is not part
// of npm test: under TCG on a 2-core machine it does not yet pass reliably in a CI run's time
// (docs/e2e.md, "Timings").
x64.describe('mac80211_hwsim virtual radios in a TCG VM (x64)', () => {
  it('completes a real WPA2 handshake and a DHCP lease (harness self-check)', async () => {
    const result = await hwsim(['radio']);
    if (result.code !== 0) console.log(result.log);
    expect(result.log).toMatch(/station COMPLETED/);
    expect(result.log).toMatch(/lease obtained/);
    expect(result.code).toBe(0);
  });

  // The full scenario (steps 1-11: wrong key, failover, kill -9, setup timeout) does not pass on the
  // bundle yet (docs/e2e.md, "Known problems"): npm test runs the reduced one, which does, and the
  // full one is `bash e2e/hwsim/run provisioning`. The bound: the initramfs and bundle build, then
  // e2e/hwsim/run's own QEMU limit (1800 s).
  it('runs the device bundle: blank root to READY, screen page, phone, portal, WPA2 join, cloud, clean stop', {
    timeout: 2_100_000,
  }, async () => {
    const result = await hwsim(['provisioning-reduced']);
    if (result.code !== 0) console.log(result.log);
    console.log(report('x64', 'provisioning-reduced', result));
    expectSteps(result.log, [
      '1 blank root',
      '2 screen page',
      '3 phone joins',
      '5 right passphrase',
      '6 cloud',
      '10 clean stop',
      '11 logs hold no passphrase',
    ]);
    // The whole guest console (device log, peer log tails) never shows a home passphrase or secret.
    for (const secret of SECRETS) expect(result.log).not.toContain(secret);
    expect(result.code).toBe(0);
  });
});
