import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  buildSwu,
  type Clock,
  type CpioSource,
  type LibconfigGroup,
  type OtaErrorCode,
  writeCpio,
} from '../../src/index.js';
import type { TestPki } from './pki.js';

/** The MD5 of a package, as a descriptor carries it. */
export const md5 = (b: Uint8Array) => crypto.createHash('md5').update(b).digest('hex');

/** A clock whose back-off delays pass at once (the next turn of the event loop). */
export const noSleep: Clock = {
  now: () => Date.now(),
  setTimeout: (fn) => setImmediate(fn),
  clearTimeout: (h) => clearImmediate(h as NodeJS.Immediate),
};

export interface PackageCase {
  name: string;
  file: string;
  /** null: both verifiers must accept it. */
  code: OtaErrorCode | null;
}

/** Artefacts and the description of a small two-artefact package, as in lab.md §6. */
export function writeArtifacts(dir: string): {
  rootfs: string;
  payload: string;
  description: LibconfigGroup;
} {
  const rootfs = path.join(dir, 'rootfs.img');
  const payload = path.join(dir, 'payload.txt');
  fs.writeFileSync(rootfs, crypto.randomBytes(200_003));
  fs.writeFileSync(payload, 'payload for the test package\n');
  fs.writeFileSync(path.join(dir, 'fake-rootfs-partition.img'), Buffer.alloc(0));
  return {
    rootfs,
    payload,
    description: {
      software: {
        version: '1.2.3',
        description: 'waved swu-ota test image',
        'hardware-compatibility': ['1.0'],
        images: [
          { filename: 'rootfs.img', type: 'raw', device: path.join(dir, 'fake-rootfs-partition.img') },
        ],
        files: [{ filename: 'payload.txt', path: path.join(dir, 'payload.out') }],
      },
    },
  };
}

/** A good signed package and the tampered variants the issue lists, each with our expected verdict. */
export async function makePackageCases(dir: string, pki: TestPki): Promise<PackageCase[]> {
  const a = writeArtifacts(dir);
  const files: CpioSource[] = [
    { name: 'rootfs.img', path: a.rootfs },
    { name: 'payload.txt', path: a.payload },
  ];
  const signer = { certificate: pki.signerCert, key: pki.signerKey };
  const out = (n: string) => path.join(dir, `${n}.swu`);
  const cases: PackageCase[] = [];

  const good = await buildSwu({ description: a.description, files, output: out('good'), signer });
  cases.push({ name: 'good', file: out('good'), code: null });

  const sig = (await import('../../src/index.js')).signCms;
  const goodSig = await sig(Buffer.from(good.description), signer);

  // A wrong sha256 for the image, in a correctly signed description.
  const wrongHash = good.description.replace(
    good.sha256['rootfs.img']!,
    crypto.createHash('sha256').update('x').digest('hex'),
  );
  await buildSwu({ description: wrongHash, files, output: out('bad-image-hash'), signer });
  cases.push({ name: 'bad-image-hash', file: out('bad-image-hash'), code: 'OTA_SWU_HASH_MISMATCH' });

  // sw-description edited after signing (same length, so only the signature can tell).
  const edited = good.description.replace('version = "1.2.3"', 'version = "9.2.3"');
  await writeCpio(out('edited-description'), [
    { name: 'sw-description', data: edited },
    { name: 'sw-description.sig', data: goodSig },
    ...files,
  ]);
  cases.push({ name: 'edited-description', file: out('edited-description'), code: 'OTA_SWU_SIGNATURE' });

  // Signed by a key the device does not trust.
  await buildSwu({
    description: a.description,
    files,
    output: out('wrong-signer'),
    signer: { certificate: pki.otherCert, key: pki.otherKey },
  });
  cases.push({ name: 'wrong-signer', file: out('wrong-signer'), code: 'OTA_SWU_SIGNATURE' });

  // One data byte sum off in the cpio crc header of the image.
  await writeCpio(
    out('bad-cpio-crc'),
    [
      { name: 'sw-description', data: good.description },
      { name: 'sw-description.sig', data: goodSig },
      ...files,
    ],
    { checksumFor: (name, sum) => (name === 'rootfs.img' ? (sum + 1) >>> 0 : sum) },
  );
  cases.push({ name: 'bad-cpio-crc', file: out('bad-cpio-crc'), code: 'OTA_CPIO_CHECKSUM' });

  // sw-description not the first entry.
  await writeCpio(out('description-not-first'), [
    files[0]!,
    { name: 'sw-description', data: good.description },
    { name: 'sw-description.sig', data: goodSig },
    files[1]!,
  ]);
  cases.push({ name: 'description-not-first', file: out('description-not-first'), code: 'OTA_SWU_LAYOUT' });

  // No signature at all while the device requires one.
  await buildSwu({ description: good.description, files, output: out('unsigned') });
  cases.push({ name: 'unsigned', file: out('unsigned'), code: 'OTA_SWU_UNSIGNED' });

  // A signed description whose artefact has no hash.
  const noHash = good.description.replace(new RegExp(`\\s*sha256 = "${good.sha256['payload.txt']}";`), '');
  if (noHash === good.description) throw new Error('test setup: the payload hash was not removed');
  await buildSwu({ description: noHash, files, output: out('hash-not-set'), signer });
  cases.push({ name: 'hash-not-set', file: out('hash-not-set'), code: 'OTA_SWU_HASH_MISSING' });

  // For another board revision.
  await buildSwu({
    description: {
      software: { ...(a.description.software as LibconfigGroup), 'hardware-compatibility': ['2.0'] },
    },
    files,
    output: out('other-hardware'),
    signer,
  });
  cases.push({ name: 'other-hardware', file: out('other-hardware'), code: 'OTA_SWU_HARDWARE' });

  return cases;
}
