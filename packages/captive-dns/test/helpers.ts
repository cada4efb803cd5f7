// Raw UDP/TCP clients and query builders for the socket tests.
import dgram from 'node:dgram';
import net from 'node:net';
import { isCi, SKIP_MARK } from '@waved/test-lab';
import { describe, it } from 'vitest';
import { type CaptiveDnsTransport, nativeUdpTransport } from '../src/index.js';
import { encodeQuery, RECURSION_DESIRED } from './packet.js';

/** A query encoded by dns-packet (the reference codec), with an optional OPT record. */
export function query(
  name: string,
  type = 'A',
  opts: { id?: number; edns?: boolean; flags?: number } = {},
): Buffer {
  return encodeQuery({
    id: opts.id ?? 0x1234,
    flags: opts.flags ?? RECURSION_DESIRED,
    name,
    type,
    edns: opts.edns ?? false,
  });
}

/** Sends datagrams from one socket and collects replies until `quietMs` passes with none. */
export async function udpExchange(
  port: number,
  packets: readonly Uint8Array[],
  quietMs = 300,
): Promise<Buffer[]> {
  const sock = dgram.createSocket('udp4');
  const replies: Buffer[] = [];
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(resolve, quietMs);
    };
    sock.on('message', (m) => {
      replies.push(m);
      arm();
    });
    arm();
  });
  for (const p of packets) {
    await new Promise<void>((resolve) => sock.send(p, port, '127.0.0.1', () => resolve()));
  }
  await done;
  sock.close();
  return replies;
}

/** A TCP client that reads length-prefixed replies. */
export async function tcpClient(port: number): Promise<{
  socket: net.Socket;
  /** Resolves with the next `n` replies (without their length prefix). */
  replies(n: number, timeoutMs?: number): Promise<Buffer[]>;
  closed: Promise<void>;
}> {
  const socket = net.connect({ port, host: '127.0.0.1' });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buf = Buffer.alloc(0);
  const got: Buffer[] = [];
  let wake: (() => void) | null = null;
  socket.on('data', (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
      got.push(buf.subarray(2, 2 + buf.readUInt16BE(0)));
      buf = buf.subarray(2 + buf.readUInt16BE(0));
    }
    wake?.();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    closed,
    async replies(n, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (got.length < n) {
        if (Date.now() > deadline) throw new Error(`only ${got.length} of ${n} TCP replies`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return got.splice(0, n);
    },
  };
}

/** Length-prefixes a message for DNS over TCP. */
export function frame(message: Uint8Array): Buffer {
  const out = Buffer.alloc(2 + message.length);
  out.writeUInt16BE(message.length, 0);
  out.set(message, 2);
  return out;
}

/**
 * Both UDP transports, for suites that must hold on each. The batch one needs the native addon
 * (the prebuild of @waved/native for this platform): without it, CI (CI=true) fails, elsewhere the suite is skipped and
 * marked so that the test-lab reporter prints it.
 */
export const TRANSPORTS = ['dgram', 'batch'] as const satisfies readonly CaptiveDnsTransport[];

export function transportDescribe(
  transport: CaptiveDnsTransport,
  name: string,
  fn: () => void,
  gate: { describe(name: string, fn: () => void): void } = { describe },
): void {
  const native = nativeUdpTransport();
  const title = `${name} [${transport}]`;
  if (transport === 'dgram' || native.available) {
    gate.describe(title, fn);
  } else if (isCi()) {
    describe(title, () => {
      it('has the native UDP transport', () => {
        throw new Error(`${title}: the native addon does not load (${native.reason})`);
      });
    });
  } else {
    describe.skip(`${title} ${SKIP_MARK} native addon does not load]`, fn);
  }
}
