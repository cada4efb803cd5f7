import { OtaError } from './errors.js';

// Version order for anti-rollback. A version is
//
//   [prefix] numbers [-pre-release] [+build]
//
// - prefix: letters, optionally joined by `_`/`-` and ended by one (`v`, `V`, `PSP_`, `fw-`, `m`).
//   It is a label (the vendor's `PSP_0.3.19`, a model's `m7`) and takes no part in the order.
// - numbers: decimal parts separated by `.` or `_` (`1.2.3`, `1.0.3_20240105`), compared
//   numerically part by part, of any length; a missing part counts as 0, so 1.2 = 1.2.0.
// - pre-release (SemVer 2.0.0 §9, §11): `1.2.3-rc.1` < `1.2.3`; identifiers compared one by one,
//   numeric ones numerically and below alphanumeric ones, alphanumeric ones in ASCII order, and a
//   longer list above its own prefix.
// - build metadata (SemVer §10): ignored, so `1.2.3+a` = `1.2.3+b`.
// Anything else (no digits, spaces inside, other suffixes) is not a version: comparing it throws
// OTA_VERSION_INVALID, and the installer refuses such a package unless a downgrade is allowed.

export interface ParsedVersion {
  /** The label before the numbers (`PSP_`, `v`, `m`), not compared. */
  prefix: string;
  /** The numeric parts without leading zeros, as decimal strings (any length). */
  numbers: string[];
  /** Pre-release identifiers (`rc`, `1`); empty for a release. */
  prerelease: string[];
  /** Build metadata, ignored by the order. */
  build: string | undefined;
}

/** Longest version text accepted. */
export const MAX_VERSION_LENGTH = 128;

const IDENT = '[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*';
const VERSION = new RegExp(
  `^(?<prefix>[A-Za-z]+(?:[_-][A-Za-z]+)*[_-]?)?(?<numbers>\\d+(?:[._]\\d+)*)(?:-(?<pre>${IDENT}))?(?:\\+(?<build>${IDENT}))?$`,
);

const stripZeros = (digits: string) => digits.replace(/^0+(?=\d)/, '');

/** Splits a version into its parts. Throws `OTA_VERSION_INVALID` for text that is not a version. */
export function parseVersion(text: string): ParsedVersion {
  const t = typeof text === 'string' ? text.trim() : '';
  const m = t.length <= MAX_VERSION_LENGTH ? VERSION.exec(t) : null;
  if (!m?.groups) {
    const shown = typeof text === 'string' ? JSON.stringify(text.slice(0, 40)) : typeof text;
    throw new OtaError(
      'OTA_VERSION_INVALID',
      `${shown} is not a version (expected [prefix]1.2.3[-pre][+build], at most ${MAX_VERSION_LENGTH} characters)`,
    );
  }
  const g = m.groups;
  return {
    prefix: g.prefix ?? '',
    numbers: g.numbers!.split(/[._]/).map(stripZeros),
    prerelease: g.pre === undefined ? [] : g.pre.split('.'),
    build: g.build,
  };
}

/** Compares two non-negative decimal strings without leading zeros. */
function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePrerelease(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    let c: number;
    if (xn && yn) c = compareDigits(stripZeros(x), stripZeros(y));
    else if (xn !== yn) c = xn ? -1 : 1;
    else c = x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * -1 when `a` is older than `b`, 0 when they are the same version, 1 when `a` is newer (see the
 * rules above). Throws `OTA_VERSION_INVALID` when either is not a version.
 */
export function compareVersions(a: string, b: string): -1 | 0 | 1 {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (let i = 0; i < Math.max(x.numbers.length, y.numbers.length); i++) {
    const c = compareDigits(x.numbers[i] ?? '0', y.numbers[i] ?? '0');
    if (c !== 0) return c < 0 ? -1 : 1;
  }
  const c = comparePrerelease(x.prerelease, y.prerelease);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}
