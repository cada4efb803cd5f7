// Finds and loads the prebuild shipped in this package for the running platform. Nothing is ever
// compiled: a platform without a prebuild gets NATIVE_UNSUPPORTED, a missing or unloadable file
// NATIVE_LOAD, each with one line that says what to do.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { NativeError } from './errors.js';

/** Version of the function table the prebuilds export (WAVED_NATIVE_ABI in native/waved_native.h). */
const NATIVE_ABI = 3;

/** The raw functions of the addon (see native/waved_native.c). Internal: use the typed wrappers. */
export interface NativeBinding {
  readonly abi: number;
  setsockopt(fd: number, level: number, name: number, value: number | Buffer): void;
  getsockopt(fd: number, level: number, name: number, size: number): Buffer;
  unixSocket(): number;
  unixBind(fd: number, path: Buffer): void;
  unixConnect(fd: number, path: Buffer): void;
  unixSend(fd: number, data: Buffer, path: Buffer | null): number;
  unixRecv(fd: number, buffer: Buffer): [length: number, from: Buffer] | null;
  closeFd(fd: number): void;
  watch(fd: number, onReadable: (status: number) => void): object;
  unwatch(handle: object): void;
  udpBatchOpen(address: string, port: number, onBatch: (count: number) => void, flags?: number): object;
  udpBatchClose(handle: object): void;
  arpSet(fd: number, device: Buffer, address: number, hardware: Buffer, offset: number): void;
}

/** `linux-x64`, `linux-arm64` or `linux-arm`: the prebuild folder for this process, or null. */
export function prebuildTarget(
  platform: string = process.platform,
  arch: string = process.arch,
  armVersion: unknown = (process.config.variables as { arm_version?: unknown }).arm_version,
): string | null {
  if (platform !== 'linux') return null;
  if (arch === 'x64' || arch === 'arm64') return `linux-${arch}`;
  if (arch === 'arm' && Number(armVersion) >= 7) return 'linux-arm';
  return null;
}

/** Absolute path of the prebuild for `target` inside this package. */
export function prebuildPath(target: string): string {
  // src/ in tests, dist/ once built: prebuilds/ is one level up in both cases.
  return fileURLToPath(new URL(`../prebuilds/${target}/waved_native.node`, import.meta.url));
}

/** Loads one addon file and checks that it is ours and of the expected function table. */
export function loadFrom(file: string): NativeBinding {
  if (!fs.existsSync(file)) {
    throw new NativeError(
      'NATIVE_LOAD',
      `@waved/native: the prebuild ${file} is missing from the installed package; reinstall @waved/native`,
    );
  }
  let binding: NativeBinding;
  try {
    binding = createRequire(import.meta.url)(file) as NativeBinding;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new NativeError(
      'NATIVE_LOAD',
      `@waved/native: the prebuild ${file} does not load (${reason}); it needs glibc >= 2.17 and Node.js with N-API 8`,
      { cause: error },
    );
  }
  if (binding?.abi !== NATIVE_ABI || typeof binding.setsockopt !== 'function') {
    throw new NativeError(
      'NATIVE_LOAD',
      `@waved/native: ${file} is not this version's addon (function table ${String(binding?.abi)}, expected ${NATIVE_ABI}); reinstall @waved/native`,
    );
  }
  return binding;
}

let cached: { binding: NativeBinding } | { error: NativeError } | undefined;

/** The addon for this platform, loaded once per process; throws NativeError when there is none. */
export function loadNative(): NativeBinding {
  if (cached === undefined) {
    try {
      const target = prebuildTarget();
      if (target === null) {
        const arm = process.arch === 'arm' ? ' (ARMv7 or newer)' : '';
        throw new NativeError(
          'NATIVE_UNSUPPORTED',
          `@waved/native: no prebuild for ${process.platform}-${process.arch}; prebuilds exist for linux x64, arm64 and arm${arm} with glibc`,
        );
      }
      cached = { binding: loadFrom(prebuildPath(target)) };
    } catch (error) {
      cached = { error: error as NativeError };
    }
  }
  if ('error' in cached) throw cached.error;
  return cached.binding;
}

/** Whether the addon loads in this process, and if not, the one-line reason. Never throws. */
export function nativeStatus(): { available: boolean; reason: string } {
  try {
    loadNative();
    return { available: true, reason: '' };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
