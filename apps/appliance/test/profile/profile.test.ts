import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePlan, type FeatureProbe, planFeatures } from '../../src/domain/profile/features.js';
import { parseProfile } from '../../src/domain/profile/parse.js';
import { simProfile } from '../../src/sim/index.js';
import { buildCli, root, runCli as run } from '../helpers/build.js';

const example = fs.readFileSync(path.join(root, 'systemd/device.example.toml'), 'utf8');

describe('device profile', () => {
  it('the example of docs/device.md is a valid profile', () => {
    const { profile, errors } = parseProfile(example);
    expect(errors).toEqual([]);
    expect(profile.identity.serial).toBe('PSP0001');
    expect(profile.cloud.hosts.production?.us?.telemetry).toBe('https://analytics.us.example.com');
    expect(profile.ota.system_dir).toBe('board-a');
    expect(profile.bluetooth.baud).toBe(115_200);
    // what the example leaves out keeps the spec's defaults
    expect(profile.paths.pid_file).toBe('/tmp/pspapp.pid');
    expect(profile.wifi.hostapd_config).toBe('/tmp/waved-hostapd.conf');
  });

  it('reports one error per bad or unknown key, and keeps the defaults there', () => {
    const { profile, errors } = parseProfile(`
colour = "blue"
[wifi]
portal_port = "80"
gateway = "192.168.2.300"
interface = "wlan0"
[ota]
allow_unsigned = "yes"
system_dir = "../etc"
min_battery = 101
[bluetooth]
port = "ttyS1"
speed = 9600
[cloud]
environment = "staging"
[cloud.production.eu]
cloud = "https://cloud.eu.example.com"
summary = "ftp://summary.eu.example.com"
[cloud.production.mars]
cloud = "https://x.example.com"
`);
    expect(errors.map((e) => e.key)).toEqual([
      'colour',
      'wifi.portal_port',
      'wifi.gateway',
      'ota.allow_unsigned',
      'ota.system_dir',
      'ota.min_battery',
      'bluetooth.port',
      'bluetooth.speed',
      'cloud.environment',
      'cloud.production.eu.summary',
      'cloud.production.eu.telemetry',
      'cloud.production.mars',
    ]);
    expect(errors.find((e) => e.key === 'wifi.portal_port')?.message).toBe(
      'must be a whole number from 1 to 65535, got "80"',
    );
    expect(errors.find((e) => e.key === 'bluetooth.speed')?.message).toBe('unknown key');
    expect(errors.find((e) => e.key === 'cloud.production.eu.telemetry')?.message).toBe('is missing');
    expect(profile.wifi.portal_port).toBe(80);
    expect(profile.wifi.interface).toBe('wlan0');
  });

  it('security.webhook_http: https only on a device unless the profile allows more; loopback in the simulator', () => {
    expect(parseProfile('').profile.security.webhook_http).toBe('never');
    expect(parseProfile('[security]\nwebhook_http = "loopback"\n').profile.security.webhook_http).toBe(
      'loopback',
    );
    const { profile, errors } = parseProfile('[security]\nwebhook_http = "yes"\n');
    expect(errors).toEqual([
      { key: 'security.webhook_http', message: 'must be "never", "loopback" or "always", got "yes"' },
    ]);
    expect(profile.security.webhook_http).toBe('never');
    expect(simProfile({ dataDir: '/tmp/x', screenPort: 0 }).security.webhook_http).toBe('loopback');
  });

  it('a file that is not TOML is one error with its position', () => {
    const { errors } = parseProfile('[wifi\ninterface = "wlan0"\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.key).toMatch(/^line 1, column \d+$/);
  });

  const probe = (
    missing: { programs?: string[]; files?: string[]; keyStore?: boolean } = {},
  ): FeatureProbe => ({
    program: async (name) => !(missing.programs ?? []).includes(name),
    readable: async (p) => !(missing.files ?? []).includes(p),
    keyStore: async () => ({ serial: missing.keyStore ?? false, factorySecret: missing.keyStore ?? false }),
  });

  it('turns on what the profile and the machine allow', async () => {
    const plan = await planFeatures(parseProfile(example).profile, probe({ programs: ['arecord'] }));
    const on = plan.features.filter((f) => f.on).map((f) => f.name);
    expect(on).toEqual(['wifi', 'wifi-country', 'cloud', 'ota', 'bluetooth', 'screen-page', 'screen-tty']);
    expect(plan.blocking).toEqual([]);
    expect(describePlan(plan)).toContain('off  recording: no meeting recording; set install arecord');
  });

  it('a missing secret turns the cloud off and names what to set; a missing Wi-Fi program blocks', async () => {
    const profile = parseProfile(example).profile;
    const plan = await planFeatures(
      profile,
      probe({ programs: ['hostapd'], files: ['/etc/waved/factory-secret'] }),
    );
    const cloud = plan.features.find((f) => f.name === 'cloud')!;
    expect(cloud.on).toBe(false);
    expect(cloud.missing).toEqual(['identity.factory_secret_file: /etc/waved/factory-secret cannot be read']);
    expect(plan.isOn('ota')).toBe(false);
    expect(plan.blocking).toEqual(['Wi-Fi: install hostapd']);
  });

  it('an unsigned OTA needs allow_unsigned; the factory secret may come from the key store', async () => {
    const { profile } = parseProfile(example.replace('certificate = "/etc/waved/swupdate-signer.pem"\n', ''));
    profile.identity.factory_secret_file = '';
    const plan = await planFeatures(profile, probe({ keyStore: true }));
    expect(plan.isOn('cloud')).toBe(true);
    expect(plan.features.find((f) => f.name === 'ota')?.missing).toEqual([
      'ota.certificate (or ota.allow_unsigned = true)',
    ]);
  });
});

describe('waved check (built CLI)', () => {
  const dir = tempDir('waved-check-');
  beforeAll(() => buildCli(), 120_000);
  afterAll(() => dir.remove());

  it('a good profile: prints what runs and what is off, exits 0', async () => {
    const secret = dir.join('factory-secret');
    fs.writeFileSync(secret, 'factory\n', { mode: 0o600 });
    const file = dir.join('device.toml');
    fs.writeFileSync(file, example.replace('/etc/waved/factory-secret', secret));
    // a directory of the Wi-Fi programs, so the result does not depend on this machine
    const binDir = dir.join('bin');
    fs.mkdirSync(binDir);
    for (const p of ['ip', 'wpa_supplicant', 'wpa_cli', 'hostapd', 'udhcpc', 'date', 'iw']) {
      fs.writeFileSync(path.join(binDir, p), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    }
    const r = await run(['check', '--profile', file], { PATH: binDir });
    expect(r.code).toBe(0);
    expect(r.out).toContain(`profile ${file}: valid`);
    expect(r.out).toContain('on   wifi: station and setup network on wlan0');
    expect(r.out).toContain('on   cloud: cloud session, telemetry and uploads');
    expect(r.out).toContain('off  ota: no firmware or model updates; set install swupdate');
    expect(r.out).toContain('off  recording: no meeting recording; set install arecord');
    expect(r.out).toContain('off  bluetooth: no Bluetooth; set bluetooth.port: /dev/ttyS1 cannot be read');
  });

  it('waved check says which packages install: signed only, or unsigned with or without image hashes (ota.require_image_sha256)', async () => {
    const secret = dir.join('factory-secret-ota');
    fs.writeFileSync(secret, 'factory\n', { mode: 0o600 });
    const binDir = dir.join('bin-ota');
    fs.mkdirSync(binDir, { recursive: true });
    for (const p of ['ip', 'wpa_supplicant', 'wpa_cli', 'hostapd', 'udhcpc', 'date', 'iw', 'swupdate']) {
      fs.writeFileSync(path.join(binDir, p), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    }
    const certificate = dir.join('signer.pem');
    fs.writeFileSync(certificate, '-----BEGIN CERTIFICATE-----\n');
    const check = async (name: string, ota: string) => {
      const file = dir.join(name);
      fs.writeFileSync(
        file,
        example
          .replace('/etc/waved/factory-secret', secret)
          .replace('certificate = "/etc/waved/swupdate-signer.pem"', ota)
          .replace('allow_unsigned = false\n', '')
          .replace('require_image_sha256 = true\n', '')
          .replace('source = "/sys/class/power_supply/battery"', 'source = "mains"'),
      );
      const r = await run(['check', '--profile', file], { PATH: binDir });
      expect(r.code, r.out + r.err).toBe(0);
      return r.out.split('\n').find((l) => l.includes(' ota: ')) ?? '';
    };
    expect(await check('signed.toml', `certificate = "${certificate}"`)).toBe(
      'on   ota: firmware and model updates into /mnt/udisk/misc/data/board-a; signed packages only, every image with its sha256',
    );
    // with a certificate the hashes stay required, whatever the key says
    expect(
      await check('signed-nohash.toml', `certificate = "${certificate}"\nrequire_image_sha256 = false`),
    ).toContain('signed packages only, every image with its sha256');
    expect(await check('unsigned.toml', 'allow_unsigned = true')).toContain(
      'unsigned packages allowed, every image with its sha256',
    );
    expect(
      await check('unsigned-nohash.toml', 'allow_unsigned = true\nrequire_image_sha256 = false'),
    ).toContain('unsigned packages allowed, images without a sha256 too (ota.require_image_sha256 = false)');
  });

  it('the Wi-Fi timings: the defaults, then the profile, then the flags', async () => {
    const file = dir.join('timings.toml');
    fs.writeFileSync(file, '[wifi]\nassociation_timeout_ms = 90000\nstep_limit_ms = 60000\n');
    fs.writeFileSync(dir.join('empty.toml'), '');
    const defaults = await run(['check', '--profile', dir.join('empty.toml')]);
    expect(defaults.out).toContain(
      'wifi timings: join within 30000 ms after a save, a radio step within 15000 ms, the setup network closes after 300000 ms',
    );
    const profiled = await run(['check', '--profile', file]);
    expect(profiled.out).toContain(
      'wifi timings: join within 90000 ms after a save, a radio step within 60000 ms, the setup network closes after 300000 ms',
    );
    const flagged = await run([
      'check',
      '--profile',
      file,
      '--association-timeout',
      '45000',
      '--setup-timeout',
      '20000',
    ]);
    expect(flagged.out).toContain(
      'wifi timings: join within 45000 ms after a save, a radio step within 60000 ms, the setup network closes after 20000 ms',
    );
    const bad = await run(['check', '--profile', file, '--step-limit', '500']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--step-limit must be a whole number from 1000 to 600000, got "500"');
  });

  it('a broken profile: every error by key, exit 1', async () => {
    const file = dir.join('broken.toml');
    fs.writeFileSync(file, '[wifi]\nportal_port = 0\nfrequency = 5\n');
    const r = await run(['check', '--profile', file]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('INVALID');
    expect(r.out).toContain('wifi.portal_port: must be a whole number from 1 to 65535, got 0');
    expect(r.out).toContain('wifi.frequency: unknown key');
  });

  it('a missing Wi-Fi program: exit 1 with what to install', async () => {
    const empty = dir.join('empty-bin');
    fs.mkdirSync(empty, { recursive: true });
    const file = dir.join('device.toml');
    const r = await run(['check', '--profile', file], { PATH: empty });
    expect(r.code).toBe(1);
    expect(r.out).toContain('MISSING Wi-Fi: install wpa_supplicant');
  });
});
