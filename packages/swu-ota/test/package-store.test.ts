import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { needs, tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  buildSwu,
  type CommandRunner,
  createInstaller,
  createPackageStore,
  OtaError,
  type PackageStoreOptions,
  parseDescriptor,
  type UpdateDescriptor,
  writeCpio,
} from '../src/index.js';
import { md5, noSleep, writeArtifacts } from './helpers/packages.js';
import { makePki, type TestPki } from './helpers/pki.js';
import { type PackageServer, startPackageServer } from './helpers/server.js';

const lab = needs({ peers: ['openssl'] });

lab.describe('createPackageStore: the spec path with a memory of refusals and kept packages', () => {
  const tmp = tempDir('swu-store-');
  let pki: TestPki;
  let server: PackageServer;
  let good: Buffer;
  let unhashed: Buffer;
  let base: string;
  let n = 0;

  beforeAll(async () => {
    pki = await makePki(tmp.path);
    const art = writeArtifacts(tmp.path);
    await buildSwu({
      description: art.description,
      files: [
        { name: 'rootfs.img', path: art.rootfs },
        { name: 'payload.txt', path: art.payload },
      ],
      output: tmp.join('good.swu'),
    });
    good = fs.readFileSync(tmp.join('good.swu'));
    await writeCpio(tmp.join('unhashed.swu'), [
      {
        name: 'sw-description',
        data: 'software = { version = "2.0.0"; images = ( { filename = "a"; } ); };',
      },
      { name: 'a', data: crypto.randomBytes(50_000) },
    ]);
    unhashed = fs.readFileSync(tmp.join('unhashed.swu'));
    server = await startPackageServer(pki.serverCert, pki.serverKey, { body: good, etag: '"g"' });
  });
  afterAll(async () => {
    await server.close();
    tmp.remove();
  });
  beforeEach(() => {
    base = tmp.join(`data-${n++}`);
    server.current = { body: good, etag: '"g"' };
    server.requests = [];
  });

  const store = (extra: Partial<PackageStoreOptions> = {}) =>
    createPackageStore({
      systemDir: 'system_a',
      baseDir: base,
      progressFile: false,
      doneFile: false,
      ca: fs.readFileSync(pki.caCert),
      clock: noSleep,
      ...extra,
    });
  const descriptor = (body: Buffer, extra: Record<string, unknown> = {}): UpdateDescriptor =>
    parseDescriptor({
      version: '2.0.0',
      download_url: `${server.url}?sig=${crypto.randomBytes(4).toString('hex')}`,
      file_md5: md5(body),
      ...extra,
    });
  function installer(consent: boolean, battery = 80) {
    const ran: string[] = [];
    const run: CommandRunner = async (file) => {
      ran.push(file);
      return { code: 0, stdout: 'SWUPDATE successful', stderr: '' };
    };
    const i = createInstaller({
      run,
      allowUnsigned: true,
      installedVersion: '1.0.0',
      readBattery: async () => battery,
      consent: async () => consent,
      reboot: async () => {},
    });
    return { i, ran };
  }

  it('downloads to <base>/<system_dir>/software.swu', async () => {
    const s = store();
    expect(s.path).toBe(path.join(base, 'system_a', 'software.swu'));
    const r = await s.fetch(descriptor(good));
    expect(r).toMatchObject({ path: s.path, cached: false, requests: 1 });
    expect(md5(fs.readFileSync(s.path))).toBe(md5(good));
  });

  it('a declined package is kept and installed later from disk without a new download', async () => {
    const s = store();
    const d = descriptor(good);
    const first = await s.fetch(d);
    const declined = installer(false);
    const err = (await declined.i.install(first.path, d).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_CONSENT_DECLINED');
    expect(await s.refuse(d, err)).toBeUndefined(); // not a refusal: kept
    const blocked = installer(true, 5);
    const low = (await blocked.i.install(first.path, d).catch((e: unknown) => e)) as OtaError;
    expect(low.code).toBe('OTA_BATTERY_LOW');
    expect(await s.refuse(d, low)).toBeUndefined();

    // Later (a new check, a new signed URL, even a new store): found on disk, no request.
    const later = descriptor(good);
    expect(later.download_url).not.toBe(d.download_url);
    const again = store();
    expect(await again.find(later)).toEqual({ path: again.path, size: good.length, md5: md5(good) });
    const r = await again.fetch(later);
    expect(r).toMatchObject({ cached: true, requests: 0 });
    expect(server.requests).toHaveLength(1);
    const ok = installer(true);
    await ok.i.install(r.path, later);
    expect(ok.ran).toEqual(['swupdate']);
  });

  it('a refused package is not downloaded again until its descriptor changes', async () => {
    server.current = { body: unhashed, etag: '"u"' };
    const s = store();
    const d = descriptor(unhashed);
    const r = await s.fetch(d);
    const { i, ran } = installer(true);
    const err = (await i.install(r.path, d).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_SWU_HASH_MISSING');
    expect(ran).toEqual([]);
    const record = await s.refuse(d, err);
    expect(record).toMatchObject({
      md5: md5(unhashed),
      version: '2.0.0',
      code: 'OTA_SWU_HASH_MISSING',
      category: 'hash',
    });
    expect(fs.existsSync(s.path)).toBe(false); // a refused package does not hold the storage

    // The next Wi-Fi connect: same package, another signed URL, a new process.
    const again = store();
    expect(await again.refusal(descriptor(unhashed))).toEqual(record);
    const refused = (await again.fetch(descriptor(unhashed)).catch((e: unknown) => e)) as OtaError;
    expect(refused.code).toBe('OTA_PACKAGE_REFUSED');
    expect(refused.message).toMatch(/OTA_SWU_HASH_MISSING/);
    expect(server.requests).toHaveLength(1);
    expect(fs.statSync(path.join(base, 'system_a', 'refused.json')).mode & 0o777).toBe(0o600);

    // The descriptor changes (a new version of the same bytes, or the cloud allows a downgrade):
    // it is tried again. Only the release notes or the URL changing is not a change.
    const notes = descriptor(unhashed, { descriptions: { en: { html_note: 'new text' } } });
    await expect(again.fetch(notes)).rejects.toMatchObject({ code: 'OTA_PACKAGE_REFUSED' });
    await again.fetch(descriptor(unhashed, { version: '2.0.1' }));
    expect(server.requests).toHaveLength(2);
    // After a policy change on the device (hashes no longer required), forget() lets it through.
    await again.forget(md5(unhashed));
    expect(await again.refusal(d)).toBeUndefined();
  });

  it('a download whose MD5 is wrong is remembered by the store itself', async () => {
    const s = store();
    const lie = descriptor(good, { file_md5: 'f'.repeat(32) });
    await expect(s.fetch(lie)).rejects.toMatchObject({ code: 'OTA_MD5_MISMATCH' });
    await expect(s.fetch(lie)).rejects.toMatchObject({ code: 'OTA_PACKAGE_REFUSED' });
    expect(server.requests).toHaveLength(1);
    expect(await s.refusal(lie)).toMatchObject({ category: 'md5' });
  });

  it('removes the temp file a power cut left in a refusal write before it first reads the list', async () => {
    const dir = path.join(base, 'system_a');
    fs.mkdirSync(dir, { recursive: true });
    const temp = path.join(dir, '.refused.json.0123456789ab.tmp');
    fs.writeFileSync(temp, '{"v":1,"refusals":[');
    const d = parseDescriptor({ version: '3.1', download_url: server.url, file_md5: md5(Buffer.from('t')) });
    expect(await store().refusal(d)).toBeUndefined();
    expect(fs.existsSync(temp)).toBe(false);
  });

  it('keeps at most maxRefusals, oldest forgotten first, and survives a corrupt file', async () => {
    const warnings: string[] = [];
    const s = store({ maxRefusals: 2, logger: { warn: (m) => warnings.push(m) } });
    const ds = ['a', 'b', 'c'].map((x) =>
      parseDescriptor({ version: '3.0', download_url: server.url, file_md5: md5(Buffer.from(x)) }),
    );
    for (const d of ds) await s.refuse(d, new OtaError('OTA_SWU_SIGNATURE', 'bad signature'));
    expect(await s.refusal(ds[0]!)).toBeUndefined();
    expect(await s.refusal(ds[2]!)).toMatchObject({ category: 'signature' });
    fs.writeFileSync(path.join(base, 'system_a', 'refused.json'), '{"v":1,"refusals":[{"md5":1}], garbage');
    expect(await s.refusal(ds[2]!)).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/not a refusal list/);
  });
});
