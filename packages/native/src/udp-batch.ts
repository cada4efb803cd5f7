// The batch UDP transport: one recvmmsg per wake-up, one call into JavaScript per batch, one sendmmsg.
import { fromAddon } from './errors.js';
import { loadNative, type NativeBinding } from './load.js';

/** What openUdpBatch() returns: the bound port and the buffers shared with C. */
export interface UdpBatchHandle {
  readonly port: number;
  /**
   * The socket's descriptor, for socket options (`setSocketOption(handle.fd, …)`, `bindToDevice`);
   * not valid after `closeUdpBatch`.
   */
  readonly fd: number;
  /** `batch` slots of `slot` bytes: the datagrams read by one recvmmsg. */
  readonly inBytes: Buffer;
  /** `batch` slots of `slot` bytes: the replies, sent by one sendmmsg. */
  readonly outBytes: Buffer;
  /**
   * int32 little-endian: per slot [query length or -1 when cut, source IPv4 (host order), source port,
   * reply length written by the callback (0: no reply)], then the counters [send errors, receive
   * errors, exceptions out of the callback, errno of the last error]. A reply goes to the address and
   * port in its slot: the source, unless the callback wrote another destination there.
   */
  readonly meta: Buffer;
  /** Slots per batch (64). */
  readonly batch: number;
  /** Bytes per slot (4096). */
  readonly slot: number;
}

export interface UdpBatchOptions {
  /** SO_REUSEADDR before bind (several sockets on one port, each bound to its own interface). */
  reuseAddr?: boolean;
  /** SO_BROADCAST: replies may go to 255.255.255.255 or a subnet broadcast address. */
  broadcast?: boolean;
  /**
   * `false`: libuv's idle-time metrics are off for this thread's event loop while the transport is
   * open, and back on when the last transport opened this way closes. Node turns them on, and libuv then starts every wait for events
   * with an extra `epoll_pwait` that returns nothing: two calls into the kernel per wake-up instead of
   * one. Meanwhile `performance.eventLoopUtilization()` counts no idle time (it reads fully busy).
   * Default `true` (left as Node set them).
   */
  idleTimeMetrics?: boolean;
}

/**
 * Binds an IPv4 UDP socket to `address:port` (0: any free port) and calls `onBatch(count)` for each
 * batch of received datagrams, on the JavaScript thread. Before it returns, the callback writes the
 * replies into `outBytes` and their lengths into `meta`; they are sent together. An exception out of
 * the callback drops that batch and is counted, never thrown. Throws NativeError (NATIVE_SYSCALL with
 * `systemCode` EADDRINUSE, EACCES, ...) when the socket cannot be bound.
 */
export function openUdpBatch(
  address: string,
  port: number,
  onBatch: (count: number) => void,
  options: UdpBatchOptions = {},
  native: NativeBinding = loadNative(),
): UdpBatchHandle {
  const flags =
    (options.reuseAddr ? 1 : 0) | (options.broadcast ? 2 : 0) | (options.idleTimeMetrics === false ? 4 : 0);
  try {
    return native.udpBatchOpen(address, port, onBatch, flags) as UdpBatchHandle;
  } catch (error) {
    throw fromAddon(error);
  }
}

/** Stops receiving and closes the socket; safe to call twice. */
export function closeUdpBatch(handle: UdpBatchHandle, native: NativeBinding = loadNative()): void {
  native.udpBatchClose(handle);
}
