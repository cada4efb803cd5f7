// setsockopt/getsockopt on Node's own sockets, and binding a socket to an interface.
import dgram from 'node:dgram';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bindToDevice,
  getSocketOption,
  getSocketOptionInt,
  SO_BINDTODEVICE,
  SO_BINDTOIFINDEX,
  SOL_SOCKET,
  setSocketOption,
  socketFd,
} from '../src/index.js';
import { loadNative, type NativeBinding } from '../src/load.js';

const SO_RCVBUF = 8;
const sockets: dgram.Socket[] = [];
const udp = async () => {
  const s = dgram.createSocket('udp4');
  sockets.push(s);
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
  return s;
};
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

it('socketFd finds the descriptor of a dgram and a net socket, -1 before bind', async () => {
  const unbound = dgram.createSocket('udp4');
  expect(socketFd(unbound)).toBe(-1);
  unbound.close();
  expect(socketFd(await udp())).toBeGreaterThan(2);
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  expect(socketFd(server)).toBeGreaterThan(2);
  server.close();
  expect(socketFd(7)).toBe(7);
  expect(socketFd(-3)).toBe(-1);
});

it('an int option round-trips: SO_RCVBUF set to 64 KiB reads back doubled (the kernel counts overhead)', async () => {
  const s = await udp();
  setSocketOption(s, SOL_SOCKET, SO_RCVBUF, 65_536);
  expect(getSocketOptionInt(s, SOL_SOCKET, SO_RCVBUF)).toBe(131_072);
  expect(s.getRecvBufferSize()).toBe(131_072); // what Node itself reads
});

it('a failing call names the errno: EBADF, ENOPROTOOPT', async () => {
  expect(() => setSocketOption(999_999, SOL_SOCKET, SO_RCVBUF, 1)).toThrow(
    expect.objectContaining({ code: 'NATIVE_SYSCALL', systemCode: 'EBADF', syscall: 'setsockopt' }),
  );
  const s = await udp();
  expect(() => getSocketOption(s, SOL_SOCKET, 9999)).toThrow(
    expect.objectContaining({ code: 'NATIVE_SYSCALL', systemCode: 'ENOPROTOOPT' }),
  );
  expect(() => setSocketOption(dgram.createSocket('udp4'), SOL_SOCKET, SO_RCVBUF, 1)).toThrow(
    expect.objectContaining({ code: 'NATIVE_ARGUMENT' }),
  );
});

describe('bindToDevice', () => {
  it('binds with SO_BINDTOIFINDEX and reads it back', async () => {
    const s = await udp();
    expect(bindToDevice(s, { index: 1, name: 'lo' })).toBe('SO_BINDTOIFINDEX');
    expect(getSocketOptionInt(s, SOL_SOCKET, SO_BINDTOIFINDEX)).toBe(1);
  });

  it('on a kernel without SO_BINDTOIFINDEX (< 5.1, ENOPROTOOPT) falls back to SO_BINDTODEVICE by name', async () => {
    // The kernel here knows option 62, so an older one is played by refusing it; every other call
    // goes to the real addon and the real kernel.
    const real = loadNative();
    const oldKernel: NativeBinding = {
      ...real,
      setsockopt(fd, level, name, value) {
        if (level === SOL_SOCKET && name === SO_BINDTOIFINDEX) {
          throw Object.assign(new Error('setsockopt ENOPROTOOPT'), {
            code: 'ENOPROTOOPT',
            syscall: 'setsockopt',
          });
        }
        real.setsockopt(fd, level, name, value);
      },
    };
    const s = await udp();
    expect(bindToDevice(s, { index: 1, name: 'lo' }, oldKernel)).toBe('SO_BINDTODEVICE');
    const bound = getSocketOption(s, SOL_SOCKET, SO_BINDTODEVICE, 16);
    expect(bound.subarray(0, bound.indexOf(0)).toString()).toBe('lo');
    expect(getSocketOptionInt(s, SOL_SOCKET, SO_BINDTOIFINDEX)).toBe(1); // the kernel agrees
  });

  it('a bad index or name is refused before any system call', async () => {
    const s = await udp();
    expect(() => bindToDevice(s, { index: 0, name: 'lo' })).toThrow(
      expect.objectContaining({ code: 'NATIVE_ARGUMENT' }),
    );
    expect(() => bindToDevice(s, { index: 1, name: 'a-name-longer-than-15' })).toThrow(
      expect.objectContaining({ code: 'NATIVE_ARGUMENT' }),
    );
  });
});
