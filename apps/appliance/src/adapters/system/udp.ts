import dgram from 'node:dgram';
import dns from 'node:dns/promises';
import type { CreateUdpSocket, ResolveHost, UdpSocket } from '../../core/ports/udp.js';

/** A node:dgram IPv4 socket for the SNTP client. */
export const createUdpSocket: CreateUdpSocket = () => dgram.createSocket('udp4') as unknown as UdpSocket;

/** IPv4 addresses of a host name through the system resolver; an IPv4 literal is returned as it is. */
export const resolveHost: ResolveHost = async (host) => {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return [host];
  const found = await dns.lookup(host, { family: 4, all: true });
  return [...new Set(found.map((a) => a.address))];
};
