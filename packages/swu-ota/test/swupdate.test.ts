import fs from 'node:fs';
import path from 'node:path';
import { exec, needs, type Peer, startPeer, tempDir, waitForPath } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CommandRunner,
  createInstaller,
  OtaError,
  parseDescriptor,
  refusalOf,
  runCommand,
  verifySwu,
} from '../src/index.js';
import { makePackageCases, type PackageCase } from './helpers/packages.js';
import { makePki, type TestPki } from './helpers/pki.js';

const lab = needs({ peers: ['swupdate', 'openssl'] });

lab.describe('our verifier and the real swupdate 2022.12 agree', () => {
  const tmp = tempDir('swu-agree-');
  let pki: TestPki;
  let cases: PackageCase[] = [];
  let n = 0;

  beforeAll(async () => {
    pki = await makePki(tmp.path);
    cases = await makePackageCases(tmp.path, pki);
  });
  afterAll(() => tmp.remove());

  /**
   * swupdate 2022.12 sometimes exits 1 after printing "SWUPDATE successful" with no ERROR line
   * (seen about once in six runs on a loaded machine). Such a run is repeated, up to three times;
   * any run with an ERROR line or without the success line is taken as it is.
   */
  async function swupdate(args: string[], env: NodeJS.ProcessEnv = {}) {
    for (let attempt = 1; ; attempt++) {
      const own = tmp.join(`swupdate-tmp-${n++}`);
      fs.mkdirSync(own, { mode: 0o700 });
      const r = await exec('swupdate', args, {
        allowFail: true,
        env: { ...process.env, TMPDIR: own, ...env },
        timeoutMs: 20_000,
      });
      const spurious = r.code !== 0 && /SWUPDATE successful/.test(r.stdout) && !/ERROR/.test(r.stderr);
      if (!spurious || attempt === 3) return r;
    }
  }

  /** `swupdate -c` (check only) with its own TMPDIR, as lab.md §6 requires for parallel runs. */
  const swupdateCheck = (file: string) =>
    swupdate(['-c', '-k', pki.signerCert, '-H', 'board:1.0', '-i', file]);

  const names = [
    'good',
    'bad-image-hash',
    'edited-description',
    'wrong-signer',
    'bad-cpio-crc',
    'description-not-first',
    'unsigned',
    'hash-not-set',
    'other-hardware',
  ];

  // swupdate sleeps through most of its second: the cases run side by side, each with its own TMPDIR.
  it.concurrent.each(names)('%s', async (name) => {
    const c = cases.find((x) => x.name === name)!;
    const peer = await swupdateCheck(c.file);
    const ours = await verifySwu(c.file, { certificate: pki.signerCert, hardwareRevision: '1.0' }).then(
      (report) => ({ ok: true as const, report }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (c.code === null) {
      expect(peer.code, peer.stderr).toBe(0);
      expect(peer.stdout).toMatch(/SWUPDATE successful/);
      expect(ours.ok).toBe(true);
    } else {
      expect(peer.code, `swupdate accepted ${name}`).toBe(1);
      expect(peer.stdout).not.toMatch(/SWUPDATE successful/);
      expect(`${peer.stdout}${peer.stderr}`).toMatch(/ERROR|Image invalid or corrupted/);
      expect(ours.ok, `we accepted ${name}`).toBe(false);
      expect((ours as { error: OtaError }).error).toBeInstanceOf(OtaError);
      expect((ours as { error: OtaError }).error.code).toBe(c.code);
    }
  });

  // Policy cases: anti-rollback and the signature requirement are our policy, not swupdate's
  // defaults. swupdate has the same checks behind flags (-N/--no-downgrading, -R/--no-reinstalling
  // on the signed sw-description version; -k), and with them it reaches the same verdicts.
  const md5Of = async (file: string) => (await exec('md5sum', [file])).stdout.slice(0, 32);
  /** Our installer, over the real swupdate in check mode (-c) with its anti-rollback flags. */
  const ourInstaller = (installed: string, extra: Partial<Parameters<typeof createInstaller>[0]> = {}) => {
    const ran: string[][] = [];
    const run: CommandRunner = async (file, args, opts) => {
      if (file !== 'swupdate') return runCommand(file, args, opts); // openssl, for the signature
      ran.push([file, ...args]);
      return swupdate([...args], opts?.env);
    };
    const installer = createInstaller({
      run,
      certificate: pki.signerCert,
      hardware: 'board:1.0',
      installedVersion: installed,
      extraArgs: ['-c', '-N', installed, '-R', installed],
      readBattery: async () => 'mains',
      consent: async () => true,
      reboot: async () => {},
      ...extra,
    });
    return { installer, ran };
  };
  const good = () => cases.find((x) => x.name === 'good')!.file;
  const descriptorFor = async (file: string, version: string) =>
    parseDescriptor({
      version,
      download_url: 'https://updates.example/software.swu',
      file_md5: await md5Of(file),
      forced: true,
    });

  it.concurrent.each([
    ['a newer package installs', '1.2.2', '1.2.3', null],
    [
      'downgrade: installed 2.0.0, package 1.2.3 (our policy; swupdate -N agrees)',
      '2.0.0',
      '1.2.3',
      'OTA_VERSION_DOWNGRADE',
    ],
    ['same-version replay of 1.2.3 (our policy; swupdate -R agrees)', '1.2.3', '1.2.3', 'OTA_VERSION_SAME'],
    [
      'an old signed package relabelled 9.0.0 in the descriptor (our policy; swupdate -N agrees on the signed version)',
      '2.0.0',
      '9.0.0',
      'OTA_VERSION_DOWNGRADE',
    ],
  ] as const)('%s', async (_name, installed, offered, code) => {
    const { installer, ran } = ourInstaller(installed);
    const ours = await installer.install(good(), await descriptorFor(good(), offered)).then(
      () => null,
      (error: unknown) => error as OtaError,
    );
    const peer = await swupdate([
      '-c',
      '-k',
      pki.signerCert,
      '-H',
      'board:1.0',
      '-N',
      installed,
      '-R',
      installed,
      '-i',
      good(),
    ]);
    if (code === null) {
      expect(ours).toBeNull();
      expect(ran).toHaveLength(1); // swupdate ran once, through our installer
      expect(peer.code, peer.stderr).toBe(0);
    } else {
      expect(ours?.code).toBe(code);
      expect(refusalOf(ours)?.category).toBe('policy');
      expect(ran).toEqual([]); // refused before swupdate was asked
      expect(peer.code).toBe(1);
      expect(`${peer.stdout}${peer.stderr}`).toMatch(/No downgrading allowed|No reinstalling allowed/);
    }
  });

  it('a signed package without a per-image hash is refused even with requireHashes: false (swupdate agrees)', async () => {
    const file = cases.find((x) => x.name === 'hash-not-set')!.file;
    const { installer, ran } = ourInstaller('1.0.0', { requireHashes: false });
    const ours = (await installer
      .install(file, await descriptorFor(file, '1.2.3'))
      .catch((e: unknown) => e)) as OtaError;
    expect(ours.code).toBe('OTA_SWU_HASH_MISSING');
    expect(ran).toEqual([]);
    const peer = await swupdateCheck(file);
    expect(peer.code).toBe(1);
  });

  it('an unsigned package with no certificate configured is refused (our policy; this swupdate build refuses to run without -k)', async () => {
    const file = cases.find((x) => x.name === 'unsigned')!.file;
    const opts = {
      readBattery: async () => 'mains' as const,
      consent: async () => true,
      reboot: async () => {},
    };
    expect(() => createInstaller({ ...opts, installedVersion: '1.0.0' })).toThrowError(
      expect.objectContaining({ code: 'OTA_OPTIONS' }),
    );
    const peer = await swupdate(['-c', '-H', 'board:1.0', '-i', file]);
    expect(peer.code).toBe(1);
    expect(`${peer.stdout}${peer.stderr}`).toMatch(/built for signed images, provide a public key file/);
  });

  it('reports what the good package holds', async () => {
    const c = cases.find((x) => x.name === 'good')!;
    const r = await verifySwu(c.file, { certificate: pki.signerCert });
    expect(r.entries.map((e) => e.name)).toEqual([
      'sw-description',
      'sw-description.sig',
      'rootfs.img',
      'payload.txt',
    ]);
    expect(r.images.map((i) => [i.filename, i.size])).toEqual([
      ['rootfs.img', 200_003],
      ['payload.txt', 29],
    ]);
    expect(r).toMatchObject({ version: '1.2.3', signed: true, signatureVerified: true, format: 'crc' });
    // The archive ends with the trailer; GNU-style padding to 512 bytes follows it.
    expect(r.size % 4).toBe(0);
    expect(fs.statSync(c.file).size).toBe(Math.ceil(r.size / 512) * 512);
  });

  it('installs a package with the real `swupdate -i` through createInstaller, then reboots', async () => {
    const c = cases.find((x) => x.name === 'good')!;
    const own = tmp.join('install-tmp');
    fs.mkdirSync(own, { mode: 0o700 });
    const md5 = (await exec('md5sum', [c.file])).stdout.slice(0, 32);
    const descriptor = parseDescriptor({
      version: '1.2.3',
      download_url: 'https://updates.example/software.swu',
      file_md5: md5,
      forced: true,
    });
    const steps: string[] = [];
    let rebooted = false;
    const installer = createInstaller({
      // the real swupdate, through the helper above that only repeats its spurious exit status
      run: (file, args, opts) =>
        file === 'swupdate' ? swupdate([...args], opts?.env) : runCommand(file, args, opts),
      certificate: pki.signerCert,
      hardware: 'board:1.0',
      installedVersion: '1.2.2',
      readBattery: async () => 80,
      consent: async () => {
        throw new Error('a forced update must not ask');
      },
      reboot: async () => {
        rebooted = true;
      },
      env: { TMPDIR: own },
    });
    const r = await installer.install(c.file, descriptor, { onStep: (s) => steps.push(s) });
    expect(steps).toEqual(['verified', 'battery-ok', 'installed', 'rebooting']);
    expect(rebooted).toBe(true);
    expect(r.output).toMatch(/SWUPDATE successful/);
    // swupdate really wrote the image into the file that stands for the partition, and the file.
    expect(
      fs.readFileSync(tmp.join('fake-rootfs-partition.img')).equals(fs.readFileSync(tmp.join('rootfs.img'))),
    ).toBe(true);
    expect(fs.readFileSync(path.join(tmp.path, 'payload.out'), 'utf8')).toBe(
      'payload for the test package\n',
    );
  });

  describe('through the IPC socket of a running swupdate daemon', () => {
    let daemon: Peer | undefined;
    let sockDir: string;
    beforeAll(async () => {
      sockDir = tmp.join('daemon-tmp');
      fs.mkdirSync(sockDir, { mode: 0o700 });
      daemon = startPeer('swupdate', ['-v', '-k', pki.signerCert, '-H', 'board:1.0'], {
        env: { ...process.env, TMPDIR: sockDir },
      });
      await waitForPath(path.join(sockDir, 'sockinstctrl'));
    });
    afterAll(async () => {
      await daemon?.stop();
    });

    it('installs with swupdate-client (method: client)', async () => {
      const c = cases.find((x) => x.name === 'good')!;
      const device = tmp.join('fake-rootfs-partition.img');
      fs.writeFileSync(device, '');
      const md5 = (await exec('md5sum', [c.file])).stdout.slice(0, 32);
      let rebooted = false;
      const installer = createInstaller({
        method: 'client',
        extraArgs: ['-v'],
        certificate: pki.signerCert,
        installedVersion: '1.0',
        readBattery: async () => 'mains',
        consent: async () => true,
        reboot: async () => {
          rebooted = true;
        },
        env: { ...process.env, TMPDIR: sockDir },
      });
      const descriptor = parseDescriptor({
        version: '1.2.3',
        download_url: 'https://updates.example/software.swu',
        file_md5: md5,
      });
      const r = await installer.install(c.file, descriptor);
      expect(r.output).toMatch(/SWUpdate was successful/);
      expect(rebooted).toBe(true);
      expect(fs.readFileSync(device).equals(fs.readFileSync(tmp.join('rootfs.img')))).toBe(true);
      expect(daemon?.output()).toMatch(/SWUPDATE successful/);
    });
  });
});
