import type dgram from 'node:dgram';
import fs from 'node:fs/promises';
import { bindToDevice, isNativeError, socketFd } from '@waved/native';
import { DhcpError } from './errors.js';

const IFNAME = /^[A-Za-z0-9_.:@-]{1,15}$/;

/** Index of a network interface in this process's namespace (`/sys/class/net/<name>/ifindex`). */
export async function interfaceIndex(name: string): Promise<number> {
  if (!IFNAME.test(name) || name === '.' || name === '..') {
    throw new DhcpError('DHCP_INTERFACE', `invalid interface name ${JSON.stringify(name)}`);
  }
  let text: string;
  try {
    text = await fs.readFile(`/sys/class/net/${name}/ifindex`, 'utf8');
  } catch (error) {
    throw new DhcpError('DHCP_INTERFACE', `no interface named ${name} in this network namespace`, {
      cause: error,
    });
  }
  const index = Number.parseInt(text.trim(), 10);
  if (!Number.isInteger(index) || index < 1) {
    throw new DhcpError('DHCP_INTERFACE', `unreadable ifindex for ${name}`);
  }
  return index;
}

/**
 * Binds a bound UDP socket (a `dgram.Socket` or a descriptor) to one interface, so it receives only that interface's traffic and its
 * broadcasts to 255.255.255.255 leave through it even when the namespace has no default route
 * (without it, send() fails with ENETUNREACH): SO_BINDTOIFINDEX, or SO_BINDTODEVICE on kernels older
 * than 5.1, through the prebuilt addon of @waved/native. Returns the index.
 */
export async function bindToInterface(socket: dgram.Socket | number, name: string): Promise<number> {
  const index = await interfaceIndex(name);
  if (socketFd(socket) < 0)
    throw new DhcpError('DHCP_INTERFACE', 'socket has no file descriptor (bind it first)');
  try {
    bindToDevice(socket, { index, name });
  } catch (error) {
    if (isNativeError(error, 'NATIVE_SYSCALL')) {
      throw new DhcpError(
        'DHCP_INTERFACE',
        `cannot bind the socket to ${name}: ${error.systemCode ?? error.message} (CAP_NET_RAW is needed before Linux 5.7)`,
        { cause: error },
      );
    }
    // No prebuild for this platform, or it does not load: the one-line reason from @waved/native.
    throw new DhcpError(
      'DHCP_INTERFACE',
      `cannot bind the socket to ${name}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return index;
}
