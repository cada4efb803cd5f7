// setsockopt/getsockopt on the descriptor of a Node socket, and interface binding.
import { fromAddon, NativeError } from './errors.js';
import { loadNative, type NativeBinding } from './load.js';

/** Linux socket option constants used by this package (the same on x64, arm64 and arm). */
export const SOL_SOCKET = 1;
/** Interface name as a NUL-terminated string; CAP_NET_RAW before Linux 5.7. */
export const SO_BINDTODEVICE = 25;
/** Interface index as an int; Linux >= 5.1, CAP_NET_RAW before 5.7. */
export const SO_BINDTOIFINDEX = 62;

/** Something with a descriptor: a bound `dgram.Socket`, a connected `net.Socket`, or the number. */
export type SocketLike = number | object;

/**
 * The file descriptor of a Node socket (a bound `dgram.Socket`, an open `net.Socket` or `net.Server`),
 * or the number itself; -1 when it has none (not bound yet, closed, or not a socket).
 */
export function socketFd(socket: SocketLike): number {
  if (typeof socket === 'number') return Number.isInteger(socket) && socket >= 0 ? socket : -1;
  // dgram keeps its handle in a symbol-keyed state object; net sockets expose `_handle`.
  const bag = socket as Record<symbol, unknown>;
  for (const sym of Object.getOwnPropertySymbols(socket)) {
    const state = bag[sym] as { handle?: { fd?: unknown } } | undefined;
    if (state && typeof state === 'object' && typeof state.handle?.fd === 'number') {
      return state.handle.fd >= 0 ? state.handle.fd : -1;
    }
  }
  const handle = (socket as { _handle?: { fd?: unknown } })._handle;
  return typeof handle?.fd === 'number' && handle.fd >= 0 ? handle.fd : -1;
}

/** The socket's descriptor; NATIVE_ARGUMENT when it has none. */
export function fdOf(socket: SocketLike): number {
  const fd = socketFd(socket);
  if (fd < 0) {
    throw new NativeError('NATIVE_ARGUMENT', 'the socket has no file descriptor (bind or connect it first)');
  }
  return fd;
}

/** An interface name as bytes (1..15, no NUL: IFNAMSIZ); NATIVE_ARGUMENT otherwise. */
export function interfaceName(text: string): Buffer {
  const name = Buffer.from(text, 'utf8');
  if (name.length < 1 || name.length > 15 || name.includes(0)) {
    throw new NativeError('NATIVE_ARGUMENT', `invalid interface name ${JSON.stringify(text)}`);
  }
  return name;
}

/** setsockopt(2): `value` is an int, or the option's bytes. Throws NativeError (NATIVE_SYSCALL). */
export function setSocketOption(
  socket: SocketLike,
  level: number,
  name: number,
  value: number | Uint8Array,
  native: NativeBinding = loadNative(),
): void {
  const fd = fdOf(socket);
  try {
    native.setsockopt(fd, level, name, typeof value === 'number' ? value : Buffer.from(value));
  } catch (error) {
    throw fromAddon(error);
  }
}

/** getsockopt(2): the option's bytes (at most `size`, default 4). Throws NativeError. */
export function getSocketOption(
  socket: SocketLike,
  level: number,
  name: number,
  size = 4,
  native: NativeBinding = loadNative(),
): Buffer {
  const fd = fdOf(socket);
  try {
    return native.getsockopt(fd, level, name, size);
  } catch (error) {
    throw fromAddon(error);
  }
}

/** getsockopt(2) of an int option. */
export function getSocketOptionInt(
  socket: SocketLike,
  level: number,
  name: number,
  native: NativeBinding = loadNative(),
): number {
  const bytes = getSocketOption(socket, level, name, 4, native);
  return bytes.length >= 4 ? bytes.readInt32LE(0) : 0;
}

export interface BindToDeviceOptions {
  /** The interface index (`/sys/class/net/<name>/ifindex`). */
  index: number;
  /** The interface name, used by the SO_BINDTODEVICE fallback. */
  name: string;
}

/**
 * Binds a socket to one network interface: SO_BINDTOIFINDEX with the index, or, on kernels older
 * than 5.1 (ENOPROTOOPT), SO_BINDTODEVICE with the name. Reads the option back and returns which one
 * was used. Throws NativeError (NATIVE_SYSCALL with EPERM when CAP_NET_RAW is needed, before 5.7).
 */
export function bindToDevice(
  socket: SocketLike,
  device: BindToDeviceOptions,
  native: NativeBinding = loadNative(),
): 'SO_BINDTOIFINDEX' | 'SO_BINDTODEVICE' {
  if (!Number.isInteger(device.index) || device.index < 1) {
    throw new NativeError(
      'NATIVE_ARGUMENT',
      `interface index must be a positive integer, got ${device.index}`,
    );
  }
  const name = interfaceName(device.name);
  try {
    setSocketOption(socket, SOL_SOCKET, SO_BINDTOIFINDEX, device.index, native);
    const bound = getSocketOptionInt(socket, SOL_SOCKET, SO_BINDTOIFINDEX, native);
    if (bound !== device.index) {
      throw new NativeError(
        'NATIVE_SYSCALL',
        `the socket reports ifindex ${bound}, expected ${device.index}`,
      );
    }
    return 'SO_BINDTOIFINDEX';
  } catch (error) {
    if (!(error instanceof NativeError) || error.systemCode !== 'ENOPROTOOPT') throw error;
  }
  // Linux < 5.1: the name, NUL-terminated (IFNAMSIZ = 16).
  const value = Buffer.alloc(name.length + 1);
  name.copy(value);
  setSocketOption(socket, SOL_SOCKET, SO_BINDTODEVICE, value, native);
  const bound = getSocketOption(socket, SOL_SOCKET, SO_BINDTODEVICE, 16, native);
  const boundName = bound.subarray(0, bound.includes(0) ? bound.indexOf(0) : bound.length).toString('utf8');
  if (boundName !== device.name) {
    throw new NativeError(
      'NATIVE_SYSCALL',
      `the socket reports device ${boundName}, expected ${device.name}`,
    );
  }
  return 'SO_BINDTODEVICE';
}
