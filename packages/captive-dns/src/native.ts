// Loads the optional native UDP transport (native/udp_batch.c), built at install time into
// build/Release. Absent or unloadable (no compiler at install, another platform), it is null and the
// server uses node:dgram.
import { createRequire } from 'node:module';

/** What `open()` of the addon returns: the bound port and the buffers shared with C. */
export interface NativeUdpHandle {
  readonly port: number;
  /** `batch` slots of `slot` bytes: the datagrams read by one recvmmsg. */
  readonly inBytes: Buffer;
  /** `batch` slots of `slot` bytes: the replies, sent by one sendmmsg. */
  readonly outBytes: Buffer;
  /** int32: per slot [length or -1, source IPv4, source port, reply length], then 4 counters. */
  readonly meta: Buffer;
  readonly batch: number;
  readonly slot: number;
}

export interface NativeUdpBinding {
  /** Binds an IPv4 UDP socket; throws an Error whose `code` is the errno name (EADDRINUSE, …). */
  open(address: string, port: number, onBatch: (count: number) => void): NativeUdpHandle;
  /** Stops polling and closes the socket; safe to call twice. */
  close(handle: NativeUdpHandle): void;
}

let loaded: { binding: NativeUdpBinding | null; reason: string } | undefined;

/** The addon, or null with the reason it could not be loaded. Loaded once per process. */
export function loadNativeUdp(): { binding: NativeUdpBinding | null; reason: string } {
  if (loaded === undefined) {
    try {
      // src/ in tests, dist/ once built: the addon is one level up in both cases.
      const binding = createRequire(import.meta.url)(
        '../build/Release/captive_dns_udp.node',
      ) as NativeUdpBinding;
      if (typeof binding.open !== 'function' || typeof binding.close !== 'function') {
        throw new Error('the addon does not export open() and close()');
      }
      loaded = { binding, reason: '' };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      loaded = { binding: null, reason: message.split('\n')[0]! }; // without the require stack
    }
  }
  return loaded;
}
