import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { tempDir } from '@waved/test-lab';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSwu, type CommandRunner, OtaError, verifySwu, writeCpio } from '../src/index.js';
import { writeArtifacts } from './helpers/packages.js';

const md5 = (b: Uint8Array) => crypto.createHash('md5').update(b).digest('hex');

describe('verifySwu (unsigned packages, no peers)', () => {
  const tmp = tempDir('swu-verify-');
  let good: string;
  let art: ReturnType<typeof writeArtifacts>;
  const files = () => [
    { name: 'rootfs.img', path: art.rootfs },
    { name: 'payload.txt', path: art.payload },
  ];

  beforeAll(async () => {
    art = writeArtifacts(tmp.path);
    good = tmp.join('good.swu');
    await buildSwu({ description: art.description, files: files(), output: good });
  });
  afterAll(() => tmp.remove());

  it('checks the MD5 of the whole file, in a worker or inline', async () => {
    const sum = md5(fs.readFileSync(good));
    for (const md5Worker of [true, false]) {
      const r = await verifySwu(good, { md5: sum.toUpperCase(), md5Worker });
      expect(r.md5).toBe(sum);
      expect(r.signed).toBe(false);
      const err = (await verifySwu(good, { md5: '0'.repeat(32), md5Worker }).catch(
        (e: unknown) => e,
      )) as OtaError;
      expect(err.code).toBe('OTA_MD5_MISMATCH');
      expect(err.message).toContain(sum);
    }
  });

  it('reads from a stream as well as from a path, in chunks of any size', async () => {
    const bytes = fs.readFileSync(good);
    for (const size of [13, 4096, 1 << 20]) {
      const chunks = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      const r = await verifySwu(Readable.from(chunks), { md5: md5(bytes) });
      expect(r.images.map((i) => i.filename)).toEqual(['rootfs.img', 'payload.txt']);
      expect(r.md5).toBe(md5(bytes));
    }
  });

  it('blames the MD5 first when a corrupted download also breaks the archive', async () => {
    const bytes = Buffer.from(fs.readFileSync(good));
    bytes[2000] = bytes[2000]! ^ 0x55; // inside rootfs.img: breaks its crc and sha256 too
    const corrupted = tmp.join('corrupted.swu');
    fs.writeFileSync(corrupted, bytes);
    const err = (await verifySwu(corrupted, { md5: md5(fs.readFileSync(good)) }).catch(
      (e: unknown) => e,
    )) as OtaError;
    expect(err.code).toBe('OTA_MD5_MISMATCH');
    expect((err.cause as OtaError).code).toBe('OTA_CPIO_CHECKSUM');
    const without = (await verifySwu(corrupted).catch((e: unknown) => e)) as OtaError;
    expect(without.code).toBe('OTA_CPIO_CHECKSUM');
  });

  it('names a missing artefact', async () => {
    const file = tmp.join('missing.swu');
    const text = (await buildSwu({ description: art.description, files: files(), output: tmp.join('x.swu') }))
      .description;
    await writeCpio(file, [{ name: 'sw-description', data: text }, files()[0]!]);
    const err = (await verifySwu(file).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_SWU_MISSING_ARTIFACT');
    expect(err.message).toMatch(/payload\.txt/);
  });

  it.each([
    ['an empty archive', [], 'OTA_SWU_LAYOUT'],
    [
      'a second sw-description',
      [
        { name: 'sw-description', data: 'software = { };' },
        { name: 'sw-description', data: 'x=1;' },
      ],
      'OTA_SWU_LAYOUT',
    ],
    [
      'a broken description',
      [{ name: 'sw-description', data: 'software = { version = ' }],
      'OTA_LIBCONFIG_SYNTAX',
    ],
    [
      'an artefact without sha256',
      [
        { name: 'sw-description', data: 'software = { images = ( { filename = "a"; } ); };' },
        { name: 'a', data: 'x' },
      ],
      'OTA_SWU_HASH_MISSING',
    ],
  ] as const)('rejects %s', async (_what, entries, code) => {
    const file = tmp.join(`case-${crypto.randomBytes(4).toString('hex')}.swu`);
    await writeCpio(file, entries);
    const err = (await verifySwu(file).catch((e: unknown) => e)) as OtaError;
    expect(err).toBeInstanceOf(OtaError);
    expect(err.code).toBe(code);
  });

  it.each([
    ['an image', 'images'],
    ['a file', 'files'],
  ])(
    'rejects %s whose bytes do not match the sha256 in sw-description, even when the MD5 matches',
    async (_what, section) => {
      const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
      const file = tmp.join(`sha-${section}.swu`);
      // A well-formed archive (valid cpio crc) whose artefact is not the one the description names.
      await writeCpio(file, [
        {
          name: 'sw-description',
          data: `software = { version = "1"; ${section} = ( { filename = "a.img"; sha256 = "${sha256('image bytes')}"; } ); };`,
        },
        { name: 'a.img', data: 'image bytez' },
      ]);
      const err = (await verifySwu(file, { md5: md5(fs.readFileSync(file)) }).catch(
        (e: unknown) => e,
      )) as OtaError;
      expect(err).toBeInstanceOf(OtaError);
      expect(err.code).toBe('OTA_SWU_HASH_MISMATCH');
      expect(err.message).toContain(`sha256 of a.img is ${sha256('image bytez')}`);
      expect(err.message).toContain(`says ${sha256('image bytes')}`);
    },
  );

  it('accepts unhashed artefacts only when asked to', async () => {
    const file = tmp.join('unhashed.swu');
    await writeCpio(file, [
      { name: 'sw-description', data: 'software = { version = "0.1"; images = ( { filename = "a"; } ); };' },
      { name: 'a', data: 'abc' },
    ]);
    const r = await verifySwu(file, { requireHashes: false });
    expect(r.images).toMatchObject([{ filename: 'a', sha256: undefined, size: 3 }]);
    // With a certificate the hashes stay required: a signature covers the images only through them.
    const signed = (await verifySwu(file, { requireHashes: false, certificate: '/etc/swu/cert.pem' }).catch(
      (e: unknown) => e,
    )) as OtaError;
    expect(signed.code).toBe('OTA_SWU_HASH_MISSING');
  });

  it('caps the size of sw-description', async () => {
    const file = tmp.join('big-desc.swu');
    await writeCpio(file, [{ name: 'sw-description', data: `# ${'x'.repeat(5000)}\nsoftware = { };` }]);
    const err = (await verifySwu(file, { maxDescriptionSize: 4096 }).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_SWU_TOO_LARGE');
  });

  it('asks openssl to check the signature through the injected runner', async () => {
    const signed = tmp.join('fake-signed.swu');
    const desc = (await buildSwu({ description: art.description, files: files(), output: tmp.join('y.swu') }))
      .description;
    await writeCpio(signed, [
      { name: 'sw-description', data: desc },
      { name: 'sw-description.sig', data: Buffer.from('not really CMS') },
      ...files(),
    ]);
    const calls: string[][] = [];
    const seen: { content?: string; sig?: string } = {};
    const run =
      (code: number): CommandRunner =>
      async (file, args) => {
        calls.push([file, ...args]);
        seen.content = fs.readFileSync(args[args.indexOf('-content') + 1]!, 'utf8');
        seen.sig = fs.readFileSync(args[args.indexOf('-in') + 1]!, 'utf8');
        return { code, stdout: '', stderr: code ? 'Verification failure\n' : 'Verification successful\n' };
      };
    const ok = await verifySwu(signed, { certificate: '/trusted/cert.pem', run: run(0) });
    expect(ok.signatureVerified).toBe(true);
    expect(calls[0]).toEqual(
      expect.arrayContaining([
        'openssl',
        'cms',
        '-verify',
        '-CAfile',
        '/trusted/cert.pem',
        '-purpose',
        'smimesign',
      ]),
    );
    expect(seen).toEqual({ content: desc, sig: 'not really CMS' });
    const err = (await verifySwu(signed, { certificate: '/trusted/cert.pem', run: run(4) }).catch(
      (e: unknown) => e,
    )) as OtaError;
    expect(err.code).toBe('OTA_SWU_SIGNATURE');
    expect(err.message).toMatch(/Verification failure/);
    // Without a certificate, a signed package verifies but says its signature was not checked.
    const unchecked = await verifySwu(signed);
    expect(unchecked).toMatchObject({ signed: true, signatureVerified: false });
  });

  it('reports a read error as OTA_IO and an abort as OTA_ABORTED', async () => {
    const err = (await verifySwu(path.join(tmp.path, 'nope.swu')).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_IO');
    const ac = new AbortController();
    ac.abort();
    const aborted = (await verifySwu(good, { signal: ac.signal }).catch((e: unknown) => e)) as OtaError;
    expect(aborted.code).toBe('OTA_ABORTED');
  });

  it('rejects mangled packages with an OtaError only, and never accepts a changed artefact', async () => {
    const small = tmp.join('small.swu');
    await writeCpio(small, [
      {
        name: 'sw-description',
        data: `software = { version = "1"; images = ( { filename = "a.img"; sha256 = "${crypto
          .createHash('sha256')
          .update('image bytes')
          .digest('hex')}"; } ); };`,
      },
      { name: 'a.img', data: 'image bytes' },
    ]);
    const original = fs.readFileSync(small);
    const body = original.indexOf('image bytes');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(original.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 4,
        }),
        async (flips) => {
          const bytes = Buffer.from(original);
          for (const [at, v] of flips) bytes[at] = v;
          const result = await verifySwu(Readable.from([bytes])).catch((e: unknown) => e);
          if (result instanceof Error) expect(result).toBeInstanceOf(OtaError);
          else if (!bytes.subarray(body, body + 11).equals(original.subarray(body, body + 11))) {
            expect.fail('a package with a changed artefact was accepted');
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps memory flat on a large archive', async () => {
    const big = tmp.join('big.img');
    const block = crypto.randomBytes(1 << 20);
    const fd = fs.openSync(big, 'w');
    for (let i = 0; i < 64; i++) fs.writeSync(fd, block);
    fs.closeSync(fd);
    const file = tmp.join('big.swu');
    await buildSwu({
      description: { software: { version: '1', images: [{ filename: 'big.img', type: 'raw' }] } },
      files: [{ name: 'big.img', path: big }],
      output: file,
    });
    fs.rmSync(big);
    const h = crypto.createHash('md5');
    for await (const chunk of fs.createReadStream(file)) h.update(chunk as Buffer);
    const sum = h.digest('hex');
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const r = await verifySwu(file, { md5: sum });
    clearInterval(timer);
    expect(r.images[0]?.size).toBe(64 << 20);
    // 64 MiB went through; the reader holds a few 512 KiB buffers and the MD5 worker at most 2 MiB.
    expect(peak - before).toBeLessThan(48 << 20);
  });
});
