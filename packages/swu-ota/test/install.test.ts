import crypto from 'node:crypto';
import fs from 'node:fs';
import { tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildSwu,
  type CommandRunner,
  createInstaller,
  type InstallerOptions,
  type InstallStep,
  type OtaError,
  parseDescriptor,
  refusalOf,
  writeCpio,
} from '../src/index.js';
import { writeArtifacts } from './helpers/packages.js';

describe('createInstaller with an injected runner', () => {
  const tmp = tempDir('swu-install-');
  let pkg: string;
  let md5: string;
  beforeAll(async () => {
    const art = writeArtifacts(tmp.path);
    pkg = tmp.join('software.swu');
    await buildSwu({
      description: art.description,
      files: [
        { name: 'rootfs.img', path: art.rootfs },
        { name: 'payload.txt', path: art.payload },
      ],
      output: pkg,
    });
    md5 = crypto.createHash('md5').update(fs.readFileSync(pkg)).digest('hex');
  });
  afterAll(() => tmp.remove());

  const descriptor = (forced: boolean, file_md5 = md5, extra: Record<string, unknown> = {}) =>
    parseDescriptor({
      version: '2.0.0',
      download_url: 'https://ota.example/software.swu',
      file_md5,
      forced,
      ...extra,
    });

  function setup(over: Partial<InstallerOptions> = {}, exitCode = 0) {
    const log: string[] = [];
    const run: CommandRunner = async (file, args) => {
      log.push(`run ${file} ${args.join(' ')}`);
      return exitCode === 0
        ? { code: 0, stdout: '[INFO ] : SWUPDATE successful !\n', stderr: '' }
        : { code: exitCode, stdout: '', stderr: '[ERROR] : HASH mismatch : aa <--> bb\n' };
    };
    const installer = createInstaller({
      run,
      // These packages are unsigned: the signature path runs against the real swupdate in swupdate.test.ts.
      allowUnsigned: true,
      installedVersion: '1.0.0',
      logger: { warn: (m) => log.push(`warn ${m}`) },
      readBattery: async () => {
        log.push('battery');
        return 55;
      },
      consent: async (d) => {
        log.push(`consent ${d.version}`);
        return true;
      },
      reboot: async () => {
        log.push('reboot');
      },
      ...over,
    });
    return { installer, log };
  }

  it('asks consent for a normal update, then checks the battery, installs and reboots', async () => {
    const { installer, log } = setup();
    const steps: InstallStep[] = [];
    await installer.install(pkg, descriptor(false), { onStep: (s) => steps.push(s) });
    expect(log.filter((l) => !l.startsWith('warn'))).toEqual([
      'consent 2.0.0',
      'battery',
      `run swupdate -i ${pkg}`,
      'reboot',
    ]);
    expect(steps).toEqual(['verified', 'consented', 'battery-ok', 'installed', 'rebooting']);
  });

  it('does not ask consent for a forced update', async () => {
    const { installer, log } = setup();
    await installer.install(pkg, descriptor(true));
    expect(log.filter((l) => !l.startsWith('warn'))).toEqual(['battery', `run swupdate -i ${pkg}`, 'reboot']);
  });

  it('stops when the user declines', async () => {
    const { installer, log } = setup({ consent: async () => false });
    const err = (await installer.install(pkg, descriptor(false)).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_CONSENT_DECLINED');
    expect(refusalOf(err)).toBeUndefined(); // not a refusal: the package may install later
    expect(fs.existsSync(pkg)).toBe(true);
    expect(log.filter((l) => !l.startsWith('warn'))).toEqual([]);
  });

  it.each([
    [29, 'OTA_BATTERY_LOW'],
    [30, null],
    ['mains' as const, null],
    [Number.NaN, 'OTA_BATTERY_LOW'],
  ])('battery %s → %s (threshold 30 %%)', async (level, code) => {
    const { installer, log } = setup({ readBattery: async () => level, minBattery: 30 });
    const result = await installer.install(pkg, descriptor(true)).catch((e: unknown) => e);
    if (code === null) expect(log).toContain('reboot');
    else {
      expect((result as OtaError).code).toBe(code);
      expect(log.some((l) => l.startsWith('run'))).toBe(false);
    }
  });

  it('passes the certificate and hardware to swupdate, or feeds a running daemon with swupdate-client', async () => {
    const calls: string[][] = [];
    const run: CommandRunner = async (file, args) => {
      calls.push([file, ...args]);
      return { code: 0, stdout: '', stderr: '' };
    };
    const base = {
      readBattery: async () => 100,
      consent: async () => true,
      reboot: async () => {},
      run,
      installedVersion: '1.0.0',
    };
    // verifySwu asks openssl for the signature only when the package is signed; this one is not,
    // so a configured certificate makes the verification fail first:
    const signedOnly = createInstaller({ ...base, certificate: '/etc/swu/cert.pem' });
    const err = (await signedOnly.install(pkg, descriptor(true)).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_SWU_UNSIGNED');
    await createInstaller({
      ...base,
      allowUnsigned: true,
      hardware: 'board:1.0',
      extraArgs: ['-e', 'stable,main'],
    }).install(pkg, descriptor(true));
    expect(calls.at(-1)).toEqual(['swupdate', '-H', 'board:1.0', '-e', 'stable,main', '-i', pkg]);
    await createInstaller({ ...base, allowUnsigned: true, method: 'client' }).install(pkg, descriptor(true));
    expect(calls.at(-1)).toEqual(['swupdate-client', pkg]);
    expect(() => createInstaller({ ...base, allowUnsigned: true, hardware: '1.0' })).toThrowError(
      expect.objectContaining({ code: 'OTA_OPTIONS' }),
    );
  });

  it('reports a failed install with swupdate’s error line and does not reboot', async () => {
    const { installer, log } = setup({}, 1);
    const err = (await installer.install(pkg, descriptor(true)).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_INSTALL_FAILED');
    expect(err.message).toMatch(/HASH mismatch/);
    expect(log).not.toContain('reboot');
  });

  it('reports a failed reboot separately', async () => {
    const { installer } = setup({
      reboot: async () => {
        throw new Error('reboot: permission denied');
      },
    });
    const err = (await installer.install(pkg, descriptor(true)).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_REBOOT_FAILED');
  });

  it('installs nothing and removes the package when the MD5 differs', async () => {
    const copy = tmp.join('copy.swu');
    fs.copyFileSync(pkg, copy);
    const { installer, log } = setup();
    const err = (await installer
      .install(copy, descriptor(true, 'a'.repeat(32)))
      .catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_MD5_MISMATCH');
    expect(refusalOf(err)).toEqual({ code: 'OTA_MD5_MISMATCH', category: 'md5' });
    expect(fs.existsSync(copy)).toBe(false);
    expect(log.filter((l) => !l.startsWith('warn'))).toEqual([]);
  });

  it('attack: no certificate and no allowUnsigned: no installer at all (our policy)', () => {
    const opts = { readBattery: async () => 100, consent: async () => true, reboot: async () => {} };
    expect(() => createInstaller({ ...opts, installedVersion: '1.0.0' })).toThrowError(
      expect.objectContaining({
        code: 'OTA_OPTIONS',
        message: expect.stringMatching(/certificate|allowUnsigned/),
      }),
    );
    expect(() => createInstaller({ ...opts, installedVersion: '1.0.0', allowUnsigned: false })).toThrowError(
      expect.objectContaining({ code: 'OTA_OPTIONS' }),
    );
  });

  it('allowUnsigned logs a warning at every install', async () => {
    const { installer, log } = setup();
    await installer.install(pkg, descriptor(true));
    await installer.install(pkg, descriptor(true, md5, { version: '2.0.1' }));
    const warnings = log.filter((l) => l.startsWith('warn'));
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/installing 2\.0\.1 without a signature check \(allowUnsigned\)/);
  });

  it.each([
    ['an older version', '3.0.0', 'OTA_VERSION_DOWNGRADE'],
    ['the installed version again (a replay)', '2.0.0', 'OTA_VERSION_SAME'],
    ['the installed version spelt another way', 'v2.0', 'OTA_VERSION_SAME'],
    ['an installed version that is not one', 'latest', 'OTA_VERSION_INVALID'],
  ])('attack: %s is refused before the package is read (our policy)', async (_what, installed, code) => {
    const { installer, log } = setup({ installedVersion: installed });
    const err = (await installer.install(pkg, descriptor(true)).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe(code);
    expect(refusalOf(err)).toEqual({ code, category: 'policy' });
    expect(log.some((l) => l.startsWith('run'))).toBe(false);
    expect(fs.existsSync(pkg)).toBe(true);
  });

  it('installs a downgrade when the descriptor or the caller allows it, and takes the version per install', async () => {
    const older = { installedVersion: '3.0.0' };
    const byDescriptor = setup(older);
    await byDescriptor.installer.install(pkg, descriptor(true, md5, { allow_downgrade: true }));
    expect(byDescriptor.log).toContain('reboot');
    const byCaller = setup({ ...older, allowDowngrade: true });
    await byCaller.installer.install(pkg, descriptor(true));
    expect(byCaller.log).toContain('reboot');
    // One installer for both channels: the version given with the install wins.
    const perCall = setup({ installedVersion: async () => '1.0.0' });
    const err = (await perCall.installer
      .install(pkg, descriptor(true), { installedVersion: '2.5' })
      .catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_VERSION_DOWNGRADE');
    await perCall.installer.install(pkg, descriptor(true));
    expect(perCall.log).toContain('reboot');
    // Without any installed version the installer cannot refuse older packages: it says so.
    const unknown = setup({ installedVersion: undefined });
    const e2 = (await unknown.installer.install(pkg, descriptor(true)).catch((e: unknown) => e)) as OtaError;
    expect(e2.code).toBe('OTA_OPTIONS');
  });

  it('hash policy: a vendor package with the right MD5 and no per-image sha256 installs only with requireHashes: false', async () => {
    const vendor = tmp.join('vendor.swu');
    await writeCpio(vendor, [
      {
        name: 'sw-description',
        data: 'software = { version = "2.0.0"; images = ( { filename = "rootfs.img"; type = "raw"; device = "/dev/null"; } ); };',
      },
      { name: 'rootfs.img', data: 'vendor image' },
    ]);
    const vendorMd5 = crypto.createHash('md5').update(fs.readFileSync(vendor)).digest('hex');
    const strict = setup();
    const err = (await strict.installer
      .install(vendor, descriptor(true, vendorMd5))
      .catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_SWU_HASH_MISSING');
    expect(refusalOf(err)).toEqual({ code: 'OTA_SWU_HASH_MISSING', category: 'hash' });
    expect(strict.log.some((l) => l.startsWith('run'))).toBe(false);
    const lenient = setup({ requireHashes: false });
    await lenient.installer.install(vendor, descriptor(true, vendorMd5));
    expect(lenient.log).toContain('reboot');
  });
});
