/** The part of a UDP socket (node:dgram) the SNTP client uses. */
export interface UdpSocket {
  send(msg: Uint8Array, port: number, address: string, cb: (error: Error | null) => void): void;
  on(event: 'message', fn: (msg: Buffer, rinfo: { address: string; port: number }) => void): void;
  on(event: 'error', fn: (error: Error) => void): void;
  close(): void;
}

export type CreateUdpSocket = () => UdpSocket;

/** Resolves a host name to its IPv4 addresses (an IPv4 literal resolves to itself). */
export type ResolveHost = (host: string) => Promise<string[]>;
