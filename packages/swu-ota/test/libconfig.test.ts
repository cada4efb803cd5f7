import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatLibconfig,
  type LibconfigGroup,
  type LibconfigValue,
  OtaError,
  parseLibconfig,
  parseSwDescription,
} from '../src/index.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/sw-description');
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name), 'utf8');

describe('parseLibconfig on sw-description examples', () => {
  it('reads the full single-board example', () => {
    const { software } = parseLibconfig(fixture('full-example.libconfig')) as { software: LibconfigGroup };
    expect(software.version).toBe('0.4.2');
    expect(software['hardware-compatibility']).toEqual(['1.0', '1.2', '1.3']);
    expect(software.partitions).toEqual([
      { name: 'rootfs', device: 'mtd4', size: 104896512 },
      { name: 'data', device: 'mtd5', size: 50448384 },
    ]);
    expect((software.images as LibconfigGroup[]).map((i) => i.filename)).toEqual([
      'rootfs.ubifs',
      'recovery.ext3.gz.u-boot',
      'sdcard.ext3.gz',
      'splash.bmp',
      'uImage.bin',
      'bootloader-env',
    ]);
    expect(software.files).toEqual([
      { filename: 'README', path: '/README', device: '/dev/mmcblk0p1', filesystem: 'vfat' },
    ]);
    expect((software.bootenv as LibconfigGroup[])[1]?.value).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a U-Boot variable, not a JS template
      'setenv bootargs ${bootargs} omapfb.vram=1:2M,2:2M,3:2M omapdss.def_disp=lcd',
    );
  });

  it('finds every artefact of the full example, none hashed', () => {
    const d = parseSwDescription(fixture('full-example.libconfig'));
    expect(d.version).toBe('0.4.2');
    expect(d.description).toBe('Update for the waved test board');
    expect(d.artifacts.map((a) => `${a.list}:${a.filename}`)).toEqual([
      'images:rootfs.ubifs',
      'images:recovery.ext3.gz.u-boot',
      'images:sdcard.ext3.gz',
      'images:splash.bmp',
      'images:uImage.bin',
      'images:bootloader-env',
      'files:README',
      'scripts:erase_at_end',
      'scripts:display_info',
    ]);
    expect(d.artifacts.every((a) => a.sha256 === undefined)).toBe(true);
    expect(d.artifacts[6]?.target).toBe('/README');
  });

  it('reads software collections', () => {
    const d = parseSwDescription(fixture('collections.libconfig'));
    expect(d.artifacts.map((a) => [a.location, a.target])).toEqual([
      ['software.stable.main.images[0]', '/dev/mmcblk0p2'],
      ['software.stable.alt.images[0]', '/dev/mmcblk0p1'],
    ]);
    expect(d.artifacts[0]?.sha256).toBe('1'.repeat(64));
  });

  it('reads board-specific sections with ref links and optional terminators', () => {
    const root = parseLibconfig(fixture('board-specific.libconfig'));
    const sw = root.software as LibconfigGroup;
    const a = sw['board-a'] as LibconfigGroup;
    expect(((a.stable as LibconfigGroup)['copy-1'] as LibconfigGroup).ref).toBe('#./../../../common');
    expect((sw['board-b'] as LibconfigGroup)['hardware-compatibility']).toEqual(['revB', 'revC']);
    const d = parseSwDescription(fixture('board-specific.libconfig'));
    expect(d.artifacts.map((x) => x.filename)).toEqual([
      'app.tar.gz',
      'core-image-board-a.ext3',
      'core-image-board-a.ext3',
      'core-image-board-b.ext3',
    ]);
  });

  it('reads hashes, numbers of every kind, booleans, concatenated and multi-line strings', () => {
    const sw = parseLibconfig(fixture('hashed.libconfig')).software as LibconfigGroup;
    expect(sw.description).toBe('signed package with hashes');
    expect(sw.reboot).toBe(true);
    expect(sw.bootloader_transaction_marker).toBe(false);
    const [enc, uboot] = sw.images as LibconfigGroup[];
    expect(enc?.properties).toEqual({ retries: ['3'], mode: 'fast' });
    expect(uboot).toMatchObject({ offset: 0x40000, size: 0x100000000, weight: -2, ratio: 0.75 });
    expect(sw['embedded-script']).toBe(
      'function set_version(image)\n\timage.version = "3.1.4"\n\treturn true, image\nend',
    );
    const d = parseSwDescription(fixture('hashed.libconfig'));
    expect(d.artifacts.map((a) => [a.filename, a.sha256, a.installedDirectly])).toEqual([
      ['rootfs.ext4.enc', '8d2fa5b52e6e2d4a2d30c3c2c05b6b12d0a6b1af3b85cb4e7a4ef1e07f9a6a11', true],
      ['uboot.img', undefined, false], // all zeros means "not set", as in SWUpdate
      ['post.sh', '9b2b1f2dab6f9bd1e6f1d3c3a7c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5', false],
    ]);
  });
});

describe('parseLibconfig details', () => {
  it.each([
    ['a = 1; b: 2, c = 3', { a: 1, b: 2, c: 3 }],
    ['a = 0x1F; b = -7L; c = 9223372036854775807L', { a: 31, b: -7, c: 9223372036854775807n }],
    ['a = 1.5e3; b = .5; c = -2.; d = 1e-2', { a: 1500, b: 0.5, c: -2, d: 0.01 }],
    ['a = "x\\ty\\n\\"q\\"\\\\\\x41"', { a: 'x\ty\n"q"\\A' }],
    [
      'a = [ ]; b = ( ); c = ( 1, "s", { d = true; }, [ 1, 2 ] )',
      { a: [], b: [], c: [1, 's', { d: true }, [1, 2]] },
    ],
    ['# hash\n// slashes\n/* block\n */ a = FaLsE;', { a: false }],
    ['*star_name-1 = 1;', { '*star_name-1': 1 }],
  ])('parses %j', (text, expected) => {
    expect(parseLibconfig(text)).toEqual(expected);
  });

  it.each([
    ['a = ', /expected a value/],
    ['a = "open', /unterminated string/],
    ['a = 1; a = 2;', /duplicate setting a/],
    ['a = [1, "x"];', /array \[\] holds scalars of one type/],
    ['a = [ { b = 1; } ];', /array/],
    ['@include "other.cfg"', /@include/],
    ['a = { b = 1;', /expected '}'/],
    ['1a = 2;', /expected a setting name/],
    ['a = "\\q";', /unknown escape/],
    ['a = 99999999999999999999999;', /64-bit range/],
    ['a = 1 /* never closed', /unterminated comment/],
    ['a = nope;', /not a value/],
  ])('rejects %j with a located OTA_LIBCONFIG_SYNTAX', (text, message) => {
    try {
      parseLibconfig(text);
      expect.fail('parsed');
    } catch (error) {
      expect(error).toBeInstanceOf(OtaError);
      expect((error as OtaError).code).toBe('OTA_LIBCONFIG_SYNTAX');
      expect((error as OtaError).message).toMatch(message);
      expect((error as OtaError).message).toMatch(/line \d+, column \d+/);
    }
  });

  it('limits nesting', () => {
    expect(() => parseLibconfig(`a = ${'('.repeat(100)}${')'.repeat(100)};`)).toThrowError(/nesting deeper/);
  });

  const name = fc.stringMatching(/^[A-Za-z][-A-Za-z0-9_]{0,8}$/);
  const scalar = fc.oneof(
    fc.string(),
    fc.boolean(),
    fc.integer(),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
    fc
      .bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
      .filter((b) => b > BigInt(Number.MAX_SAFE_INTEGER) || b < BigInt(Number.MIN_SAFE_INTEGER)),
  );
  const { group } = fc.letrec<{ value: LibconfigValue; group: LibconfigGroup }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      scalar,
      fc.array(fc.string(), { maxLength: 3 }),
      fc.array(tie('value'), { maxLength: 3 }),
      tie('group'),
    ),
    group: fc.dictionary(name, tie('value'), { maxKeys: 4 }) as fc.Arbitrary<LibconfigGroup>,
  }));

  it('reads back what formatLibconfig writes (property)', () => {
    fc.assert(
      fc.property(group, (g) => {
        expect(parseLibconfig(formatLibconfig(g))).toEqual(g);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws anything but an OtaError on arbitrary text', () => {
    const alphabet = fc.constantFrom(...'abc=:;,{}[]()"\\#/*\n 0x1.eL-+@'.split(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: alphabet, maxLength: 80 })), (text) => {
        try {
          parseLibconfig(text);
        } catch (error) {
          expect(error).toBeInstanceOf(OtaError);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseSwDescription errors', () => {
  it.each([
    ['version = "1";', /no `software` group/],
    ['software = { images = ( { filename = "a"; sha256 = "abc"; } ); };', /sha256 must be 64 hex/],
    ['software = { images = { filename = "a"; }; };', /images must be a list/],
    ['software = { files = ( "a" ); };', /must be a group/],
    ['software = { images = ( { filename = "../etc/passwd"; } ); };', /plain file name/],
    ['software = { hardware-compatibility = "1.0"; };', /array of strings/],
    ['software = { version = 1; };', /version must be a string/],
  ])('%j → OTA_SWU_DESCRIPTION', (text, message) => {
    expect(() => parseSwDescription(text)).toThrowError(
      expect.objectContaining({ code: 'OTA_SWU_DESCRIPTION', message: expect.stringMatching(message) }),
    );
  });
});
