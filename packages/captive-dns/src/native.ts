// The batch UDP transport comes from @waved/native (prebuilt for linux x64, arm64 and armv7; nothing
// is compiled at install). Where it does not load (another platform, a musl libc), this is null with
// the one-line reason, and the server uses node:dgram.
import { closeUdpBatch, isNativeError, nativeStatus, openUdpBatch, type UdpBatchHandle } from '@waved/native';

/** What `open()` returns: the bound port and the buffers shared with C. */
export type NativeUdpHandle = UdpBatchHandle;

export interface NativeUdpBinding {
  /** Binds an IPv4 UDP socket; throws the system error (`code` EADDRINUSE, …), as node:dgram does. */
  open(address: string, port: number, onBatch: (count: number) => void): NativeUdpHandle;
  /** Stops polling and closes the socket; safe to call twice. */
  close(handle: NativeUdpHandle): void;
}

let loaded: { binding: NativeUdpBinding | null; reason: string } | undefined;

/** The batch transport, or null with the reason it could not be loaded. Loaded once per process. */
export function loadNativeUdp(): { binding: NativeUdpBinding | null; reason: string } {
  if (loaded === undefined) {
    const status = nativeStatus();
    loaded = status.available
      ? { binding: { open, close: closeUdpBatch }, reason: '' }
      : { binding: null, reason: status.reason };
  }
  return loaded;
}

function open(address: string, port: number, onBatch: (count: number) => void): NativeUdpHandle {
  try {
    return openUdpBatch(address, port, onBatch);
  } catch (error) {
    // The system error itself (code EADDRINUSE, syscall bind), as the dgram transport reports it.
    throw isNativeError(error, 'NATIVE_SYSCALL') && error.cause instanceof Error ? error.cause : error;
  }
}
