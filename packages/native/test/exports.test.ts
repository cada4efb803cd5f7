import { expect, it } from 'vitest';
import { isNativeError, NativeError, type NativeErrorCode } from '../src/index.js';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "NativeError",
      "SOL_SOCKET",
      "SO_BINDTODEVICE",
      "SO_BINDTOIFINDEX",
      "bindToDevice",
      "closeUdpBatch",
      "createArpWriter",
      "createUnixDatagramSocket",
      "getSocketOption",
      "getSocketOptionInt",
      "isNativeError",
      "nativeStatus",
      "openUdpBatch",
      "setSocketOption",
      "socketFd",
    ]
  `);
});

it.each([
  ['NATIVE_UNSUPPORTED'],
  ['NATIVE_LOAD'],
  ['NATIVE_ARGUMENT'],
  ['NATIVE_SYSCALL'],
  ['NATIVE_CLOSED'],
] as const satisfies readonly (readonly [NativeErrorCode])[])(
  'NativeError carries code %s and its cause',
  (code) => {
    const cause = new Error('inner');
    const e = new NativeError(code, 'msg', { cause, systemCode: 'ENOENT', syscall: 'bind' });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('NativeError');
    expect(e.code).toBe(code);
    expect(e.cause).toBe(cause);
    expect(e.systemCode).toBe('ENOENT');
    expect(e.syscall).toBe('bind');
    expect(isNativeError(e)).toBe(true);
    expect(isNativeError(e, code)).toBe(true);
    expect(isNativeError(new Error('x'))).toBe(false);
  },
);
