// Which prebuild a process picks, and the one-line errors when it is missing, broken or foreign.
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { isNativeError, nativeStatus } from '../src/index.js';
import { loadFrom, loadNative, prebuildPath, prebuildTarget } from '../src/load.js';

const dir = tempDir('native-load');
afterAll(() => dir.remove());

it.each([
  ['linux', 'x64', undefined, 'linux-x64'],
  ['linux', 'arm64', undefined, 'linux-arm64'],
  ['linux', 'arm', '7', 'linux-arm'],
  ['linux', 'arm', 8, 'linux-arm'],
  ['linux', 'arm', '6', null], // armv6 (Raspberry Pi Zero): the armv7 build would die on SIGILL
  ['linux', 'ia32', undefined, null],
  ['darwin', 'arm64', undefined, null],
  ['win32', 'x64', undefined, null],
])('%s-%s (arm_version %s) uses the prebuild %s', (platform, arch, armVersion, expected) => {
  expect(prebuildTarget(platform, arch, armVersion)).toBe(expected);
});

it('loads the prebuild for this machine', () => {
  expect(nativeStatus()).toEqual({ available: true, reason: '' });
  expect(loadNative().abi).toBe(3);
});

describe('a prebuild that cannot be used gives one line that says what to do', () => {
  it('missing from the package', () => {
    const file = dir.join('absent/waved_native.node');
    const error = catchError(() => loadFrom(file));
    expect(isNativeError(error, 'NATIVE_LOAD')).toBe(true);
    expect(error.message).toBe(
      `@waved/native: the prebuild ${file} is missing from the installed package; reinstall @waved/native`,
    );
  });

  it('not a shared object (a truncated download, a file for another system)', () => {
    const file = dir.join('broken.node');
    fs.writeFileSync(file, Buffer.from('\xcf\xfa\xed\xfe not an ELF file', 'latin1'));
    const error = catchError(() => loadFrom(file));
    expect(isNativeError(error, 'NATIVE_LOAD')).toBe(true);
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(/does not load \(.*\); it needs glibc >= 2\.17 and Node\.js with N-API 8$/);
  });

  it('the prebuild of another CPU', () => {
    const error = catchError(() =>
      loadFrom(prebuildPath(process.arch === 'arm64' ? 'linux-x64' : 'linux-arm64')),
    );
    expect(isNativeError(error, 'NATIVE_LOAD')).toBe(true);
    expect(error.message).not.toContain('\n');
  });
});

/** ELF class and machine of each committed prebuild: a prebuild for the wrong system never ships. */
it.each([
  ['linux-x64', 2, 62],
  ['linux-arm64', 2, 183],
  ['linux-arm', 1, 40],
])('prebuilds/%s is an ELF shared object for its CPU (class %d, machine %d)', (target, elfClass, machine) => {
  const bytes = fs.readFileSync(prebuildPath(target));
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
  expect(bytes[4]).toBe(elfClass);
  expect(bytes[5]).toBe(1); // little endian
  expect(bytes.readUInt16LE(16)).toBe(3); // ET_DYN
  expect(bytes.readUInt16LE(18)).toBe(machine);
  if (target === 'linux-arm') expect(bytes.readUInt32LE(36) & 0x400).toBe(0x400); // EF_ARM_ABI_FLOAT_HARD
  expect(path.basename(path.dirname(prebuildPath(target)))).toBe(target);
});

function catchError(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}
