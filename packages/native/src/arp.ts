// The IPv4 neighbour (ARP) cache: what a DHCP server writes so it can unicast to a client that has no
// address yet.
import { fromAddon, NativeError } from './errors.js';
import { loadNative, type NativeBinding } from './load.js';
import { fdOf, interfaceName, type SocketLike } from './sockopt.js';

/** Writes ARP cache entries on one interface; what createArpWriter() returns. */
export type ArpWriter = (address: number, hardware: Uint8Array, offset?: number) => void;

/**
 * A writer of ARP cache entries on `device` through `socket` (any IPv4 socket of the interface's
 * network namespace; `ioctl(SIOCSARP)`, which needs `CAP_NET_ADMIN`). Calling it with an IPv4
 * address (as a host-order number, `0xc0a80232` for 192.168.2.50) and the 6 bytes of an Ethernet
 * address at `offset` (default 0) makes the kernel send IPv4 packets for that address to that
 * hardware address without asking ARP first: how a DHCP server unicasts an OFFER or ACK to a client
 * that cannot answer ARP yet (RFC 2131 §4.1). The entry is an ordinary one, replaced when the
 * neighbour answers and aged out by the kernel. The writer throws NativeError: NATIVE_SYSCALL
 * (`EPERM` without the capability, `ENODEV` for an unknown interface, `EINVAL` for one that is not
 * Ethernet) or NATIVE_ARGUMENT.
 */
export function createArpWriter(
  socket: SocketLike,
  device: string,
  native: NativeBinding = loadNative(),
): ArpWriter {
  const name = interfaceName(device);
  const fd = fdOf(socket);
  return (address, hardware, offset = 0) => {
    if (!Number.isInteger(address) || address < 0 || address > 0xffffffff) {
      throw new NativeError(
        'NATIVE_ARGUMENT',
        `IPv4 address must be a 32-bit unsigned integer, got ${address}`,
      );
    }
    if (!Number.isInteger(offset) || offset < 0 || offset + 6 > hardware.length) {
      throw new NativeError('NATIVE_ARGUMENT', 'the hardware address needs 6 bytes at offset');
    }
    const bytes = Buffer.isBuffer(hardware)
      ? hardware
      : Buffer.from(hardware.buffer, hardware.byteOffset, hardware.byteLength);
    try {
      native.arpSet(fd, name, address | 0, bytes, offset);
    } catch (error) {
      throw fromAddon(error);
    }
  };
}
