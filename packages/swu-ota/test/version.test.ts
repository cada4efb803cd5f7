import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { compareVersions, MAX_VERSION_LENGTH, OtaError, parseVersion } from '../src/index.js';

describe('compareVersions: the order anti-rollback uses', () => {
  it.each([
    ['1.2.3', '1.2.4', -1],
    ['1.2.10', '1.2.9', 1],
    ['1.10.0', '1.9.99', 1],
    ['2', '1.99.99', 1],
    ['1.2', '1.2.0', 0],
    ['1.2.0.0', '1.2', 0],
    ['1.02.3', '1.2.3', 0],
    ['PSP_0.3.19', 'PSP_0.3.20', -1],
    ['PSP_0.3.19', '0.3.19', 0],
    ['v1.4.0', 'PSP_1.4.0', 0],
    ['V2.0', 'fw-1.9', 1],
    ['m7', 'm8', -1],
    ['m10', 'm9', 1],
    ['1.0.3_20240105', '1.0.3_20231231', 1],
    ['1.0.3_20240105', '1.0.4', -1],
    ['1.0.3_20240105', '1.0.3', 1],
    ['1.2.3-rc.1', '1.2.3', -1],
    ['1.2.3-rc.2', '1.2.3-rc.10', -1],
    ['1.2.3-alpha', '1.2.3-1', 1],
    ['1.2.3-alpha', '1.2.3-alpha.1', -1],
    ['1.2.3-beta', '1.2.3-alpha.9', 1],
    ['1.2.3+build.7', '1.2.3+build.8', 0],
    ['1.2.3-rc.1+b', '1.2.3-rc.1', 0],
    ['99999999999999999999999.0', '99999999999999999999998.9', 1],
    [' 1.2.3 ', '1.2.3', 0],
  ] as const)('%s vs %s → %i', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
    expect(compareVersions(b, a)).toBe(-expected || 0);
  });

  it.each([
    [''],
    ['latest'],
    ['v'],
    ['1.2.3 beta'],
    ['1..2'],
    ['1.2.'],
    ['.1'],
    ['1.2.3-'],
    ['1.2.3+'],
    ['1.2.3~rc1'],
    ['1.2.3\n'.repeat(2)],
    ['1.\u202e2'],
    [`1.${'0'.repeat(MAX_VERSION_LENGTH)}`],
  ])('%j is not a version: OTA_VERSION_INVALID', (text) => {
    expect(() => compareVersions(text, '1.0')).toThrowError(
      expect.objectContaining({ code: 'OTA_VERSION_INVALID' }),
    );
    expect(() => compareVersions('1.0', text)).toThrowError(OtaError);
  });

  it('splits the parts', () => {
    expect(parseVersion('PSP_01.2.3-rc.1+build.5')).toEqual({
      prefix: 'PSP_',
      numbers: ['1', '2', '3'],
      prerelease: ['rc', '1'],
      build: 'build.5',
    });
  });
});

// Versions the way devices and vendors write them (short enough to stay under the 128-character cap).
const numbers = fc.array(fc.oneof(fc.nat({ max: 20 }), fc.nat(), fc.bigInt({ min: 0n, max: 10n ** 12n })), {
  minLength: 1,
  maxLength: 5,
});
const identifier = fc.oneof(fc.nat({ max: 30 }).map(String), fc.stringMatching(/^[0-9A-Za-z-]{1,6}$/));
const version = fc
  .record({
    prefix: fc.constantFrom('', 'v', 'V', 'PSP_', 'm', 'fw-'),
    numbers,
    sep: fc.constantFrom('.', '_'),
    pre: fc.option(fc.array(identifier, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    build: fc.option(fc.array(identifier, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  })
  .map(
    ({ prefix, numbers, sep, pre, build }) =>
      `${prefix}${numbers.join(sep)}${pre ? `-${pre.join('.')}` : ''}${build ? `+${build.join('.')}` : ''}`,
  );
const semverString = fc
  .record({
    core: fc.tuple(fc.nat({ max: 50 }), fc.nat({ max: 50 }), fc.nat({ max: 50 })),
    pre: fc.option(
      fc.array(fc.oneof(fc.nat({ max: 30 }).map(String), fc.stringMatching(/^[A-Za-z-][0-9A-Za-z-]{0,5}$/)), {
        minLength: 1,
        maxLength: 3,
      }),
      { nil: undefined },
    ),
  })
  .map(({ core, pre }) => `${core.join('.')}${pre ? `-${pre.join('.')}` : ''}`);

describe('compareVersions properties (fast-check)', () => {
  it('is a total order: reflexive, antisymmetric, transitive', () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        expect(compareVersions(a, a)).toBe(0);
        expect(compareVersions(a, b)).toBe(-compareVersions(b, a) || 0);
        const ab = compareVersions(a, b);
        const bc = compareVersions(b, c);
        if (ab <= 0 && bc <= 0) expect(compareVersions(a, c)).toBeLessThanOrEqual(0);
        if (ab >= 0 && bc >= 0) expect(compareVersions(a, c)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });

  // node-semver, the npm registry's own implementation, is the independent oracle for SemVer strings.
  it('agrees with node-semver on every SemVer 2.0.0 version', () => {
    fc.assert(
      fc.property(semverString, semverString, (a, b) => {
        fc.pre(semver.valid(a) !== null && semver.valid(b) !== null);
        expect(compareVersions(a, b)).toBe(semver.compare(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('ignores the prefix label, trailing zero parts, leading zeros and build metadata', () => {
    fc.assert(
      fc.property(
        numbers,
        fc.constantFrom('v', 'PSP_', 'm', 'fw-'),
        fc.nat({ max: 3 }),
        (n, prefix, zeros) => {
          const plain = n.join('.');
          expect(compareVersions(`${prefix}${plain}`, plain)).toBe(0);
          expect(compareVersions(`${plain}${'.0'.repeat(zeros)}`, plain)).toBe(0);
          expect(compareVersions(n.map((x) => `00${x}`).join('.'), plain)).toBe(0);
          expect(compareVersions(`${plain}+build.1`, plain)).toBe(0);
        },
      ),
    );
  });

  it('raising any numeric part makes a newer version; a pre-release is older than its release', () => {
    fc.assert(
      fc.property(numbers, fc.nat(), fc.array(identifier, { minLength: 1, maxLength: 3 }), (n, at, pre) => {
        const i = at % n.length;
        const raised = n.map((x, k) => (k === i ? BigInt(x) + 1n : x));
        expect(compareVersions(raised.join('.'), n.join('.'))).toBe(1);
        expect(compareVersions(`${n.join('.')}-${pre.join('.')}`, n.join('.'))).toBe(-1);
      }),
    );
  });

  it('never throws anything but OTA_VERSION_INVALID, on any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), version, fc.string({ unit: 'grapheme' })), version, (a, b) => {
        try {
          compareVersions(a, b);
        } catch (error) {
          expect(error).toMatchObject({ code: 'OTA_VERSION_INVALID' });
        }
      }),
      { numRuns: 3000 },
    );
  });
});
