import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { needs } from '@waved/test-lab';
import { expect, it } from 'vitest';

const runScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../hwsim/run');
const SECRETS = ['correct-horse-42', 'battery-staple-7', 'wrong-passphrase-9', 'e2e-factory-secret-5d1c'];

function hwsim(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; log: string; wallS: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('bash', [runScript, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
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
  const size = /^bundle size: .*$/m.exec(log)?.[0] ?? '';
  const vm = /PASS: boot and scenario .*$/m.exec(log)?.[0] ?? '';
  return [
    `hwsim ${arch} ${scenario}: ${wallS.toFixed(0)} s wall (build, boot and scenario); ${size}; ${vm}`,
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

const REDUCED_STEPS = [
  '1 blank root',
  '2 screen page',
  '3 phone joins',
  '5 right passphrase',
  '6 cloud',
  '10 clean stop',
  '11 logs hold no passphrase',
];

/** The reduced scenario's verdict: every step, the profile's radio timings in force, no secret. */
function expectReduced(log: string) {
  expectSteps(log, REDUCED_STEPS);
  // The VM's device profile gives the radio TCG's time (wifi.association_timeout_ms, step_limit_ms,
  // setup_timeout_ms); the device prints the timings it runs with.
  expect(log).toMatch(
    /wifi timings: join within 90000 ms after a save, a radio step within 60000 ms, the setup network closes after 900000 ms/,
  );
  expect(log).toMatch(/FIGURES boot_to_ready_s=[\d.]+ start_to_ready_s=[\d.]+ submit_to_connected_s=[\d.]+/);
  // The whole guest console (device log, peer log tails) never shows a home passphrase or secret.
  for (const secret of SECRETS) expect(log).not.toContain(secret);
}

const x64 = needs({
  peers: ['qemu-system-x86_64', 'hostapd', 'wpa_supplicant', 'iw', 'depmod', 'cpio', 'dpkg-deb', 'readelf'],
});

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
    expectReduced(result.log);
    expect(result.code).toBe(0);
  });
});

// arm64: qemu-system-aarch64 -M virt under TCG, the arm64 bundle and Debian arm64 packages (fetched
// with apt into e2e/hwsim/cache on the first run). Only the reduced scenario: it has the handshake,
// and the radio self-check would add a second boot to every CI run.
const arm64 = needs({
  peers: ['qemu-system-aarch64', 'apt-get', 'apt-cache', 'depmod', 'cpio', 'dpkg-deb', 'readelf'],
});
// Bounds from measured runs (docs/e2e.md, "Timings"): the VM took 100-146 s wall at load 5-22 and
// 525 s at load 15-38; fetching and building everything on a clean cache took 67 s. The VM gets
// 1200 s, the preparation 600 s.
const ARM64_VM_BOUND_S = 1200;
const ARM64_PREPARE_BOUND_S = 600;

arm64.describe('mac80211_hwsim virtual radios in a TCG VM (arm64, qemu-system-aarch64 -M virt)', () => {
  it('runs the arm64 device bundle: blank root to READY, screen page, phone, portal, WPA2 join, cloud, clean stop', {
    timeout: (ARM64_VM_BOUND_S + ARM64_PREPARE_BOUND_S) * 1000,
  }, async () => {
    const result = await hwsim(['--arch', 'arm64', 'provisioning-reduced'], {
      WAVED_HWSIM_TIMEOUT: String(ARM64_VM_BOUND_S),
    });
    if (result.code !== 0) console.log(result.log);
    console.log(report('arm64', 'provisioning-reduced', result));
    expect(result.log).toMatch(/init \(aarch64, 2 CPUs\)/);
    expect(result.log).toMatch(/install\.sh: waved [\d.]+ \(arm64\) installed/);
    expectReduced(result.log);
    expect(result.code).toBe(0);
  });
});
