import type dgram from 'node:dgram';
import fs from 'node:fs/promises';
import { DhcpError } from './errors.js';

const SOL_SOCKET = 1;
/** SO_BINDTOIFINDEX (Linux >= 5.1; without CAP_NET_RAW since 5.7) takes the interface index as an int. */
const SO_BINDTOIFINDEX = 62;
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

/** The socket's file descriptor, read without the deprecated `_handle` getter where possible. */
function socketFd(socket: dgram.Socket): number {
  const bag = socket as unknown as Record<symbol, unknown>;
  for (const sym of Object.getOwnPropertySymbols(socket)) {
    const state = bag[sym] as { handle?: { fd?: unknown } } | undefined;
    if (state && typeof state === 'object' && typeof state.handle?.fd === 'number') return state.handle.fd;
  }
  const handle = (socket as unknown as { _handle?: { fd?: unknown } })._handle;
  return typeof handle?.fd === 'number' ? handle.fd : -1;
}

/**
 * Binds a bound UDP socket to one interface with SO_BINDTOIFINDEX, so it receives only that
 * interface's traffic and its broadcasts to 255.255.255.255 leave through it even when the
 * namespace has no default route (without it, send() fails with ENETUNREACH). Returns the index.
 */
export async function bindToInterface(socket: dgram.Socket, name: string): Promise<number> {
  const index = await interfaceIndex(name);
  const fd = socketFd(socket);
  if (fd < 0) throw new DhcpError('DHCP_INTERFACE', 'socket has no file descriptor (bind it first)');
  let sockopt: typeof import('sockopt');
  try {
    const mod = (await import('sockopt')) as typeof import('sockopt') & {
      default?: typeof import('sockopt');
    };
    sockopt = mod.default ?? mod;
  } catch (error) {
    throw new DhcpError('DHCP_INTERFACE', 'the sockopt module is not available on this platform', {
      cause: error,
    });
  }
  const target = { _handle: { fd } };
  try {
    sockopt.setsockopt(target, SOL_SOCKET, SO_BINDTOIFINDEX, index);
  } catch (error) {
    throw new DhcpError(
      'DHCP_INTERFACE',
      `cannot bind the socket to ${name} (needs Linux >= 5.1, and CAP_NET_RAW before 5.7)`,
      {
        cause: error,
      },
    );
  }
  const bound = sockopt.getsockopt(target, SOL_SOCKET, SO_BINDTOIFINDEX);
  if (bound !== index)
    throw new DhcpError('DHCP_INTERFACE', `socket reports ifindex ${bound}, expected ${index}`);
  return index;
}
