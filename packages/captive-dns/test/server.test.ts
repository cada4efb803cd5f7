// The UDP and TCP listeners with raw sockets: framing, pipelining, idle timeout, connection cap,
// rate limit, dropped responses and start-up errors. Loopback only, port 0.
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import { manualClock, waitFor } from '@waved/test-lab';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CaptiveDns,
  type CaptiveDnsOptions,
  createCaptiveDns,
  nativeUdpTransport,
} from '../src/index.js';
import { frame, query, TRANSPORTS, tcpClient, transportDescribe, udpExchange } from './helpers.js';
import { decodeReply } from './packet.js';

const running: CaptiveDns[] = [];
async function startWith(extra: Partial<CaptiveDnsOptions> = {}) {
  const server = createCaptiveDns({ answer: '192.168.2.1', port: 0, ...extra });
  running.push(server);
  const bound = await server.listen();
  return { server, ...bound };
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

const answerOf = (reply: Buffer) => {
  const r = decodeReply(reply);
  return [r.id, r.answers.map((a) => a.data)];
};

for (const transport of TRANSPORTS) {
  transportDescribe(transport, 'UDP', () => {
    const start = (extra: Partial<CaptiveDnsOptions> = {}) => startWith({ transport, ...extra });

    it('uses the transport it was asked for', async () => {
      const { server } = await start();
      expect(server.transport).toBe(transport);
    });

    it('listen() resolves with the port it bound when asked for port 0, and its dns: URL', async () => {
      const { port, address, url } = await start();
      expect(address).toBe('127.0.0.1');
      expect(port).toBeGreaterThan(0);
      expect(url).toBe(`dns://127.0.0.1:${port}/`);
      const [reply] = await udpExchange(port, [query('a.b', 'A', { id: 9 })]);
      expect(answerOf(reply!)).toEqual([9, ['192.168.2.1']]);
    });

    it('drops packets with QR=1 (no reply, counted), and answers the next query', async () => {
      const { server, port } = await start();
      const response = Buffer.from(query('a.b', 'A', { id: 1 }));
      response[2]! |= 0x80;
      const replies = await udpExchange(port, [response, Buffer.alloc(5), query('a.b', 'A', { id: 2 })]);
      expect(replies.map((r) => r.readUInt16BE(0))).toEqual([2]);
      expect(server.stats()).toMatchObject({ responsesDropped: 1, malformed: 1, udpQueries: 3, replies: 1 });
    });

    it('rate-limits one source and counts what it dropped', async () => {
      const { server, port } = await start({ rateLimit: { queriesPerSecond: 1, burst: 5 } });
      const replies = await udpExchange(
        port,
        Array.from({ length: 20 }, (_, i) => query('a.b', 'A', { id: i })),
      );
      expect(replies).toHaveLength(5);
      expect(server.stats()).toMatchObject({ rateLimited: 15, sourcesTracked: 1 });
    });

    it('measures the rate limit on the clock it is given: time that passes elsewhere refills nothing', async () => {
      const clock = manualClock();
      const { server, port } = await start({ clock, rateLimit: { queriesPerSecond: 1, burst: 2 } });
      const first = await udpExchange(
        port,
        [1, 2, 3].map((id) => query('a.b', 'A', { id })),
      );
      expect(first.map((r) => r.readUInt16BE(0)).sort()).toEqual([1, 2]);
      expect(await udpExchange(port, [query('a.b', 'A', { id: 4 })])).toEqual([]);
      clock.advanceSync(1000);
      const after = await udpExchange(port, [query('a.b', 'A', { id: 5 }), query('a.b', 'A', { id: 6 })]);
      expect(after.map((r) => r.readUInt16BE(0))).toEqual([5]);
      expect(server.stats()).toMatchObject({ rateLimited: 3, replies: 3 });
    });

    it('a throw while handling a datagram drops that one only: counted, logged, the next is answered', async () => {
      let reads = 0;
      const errors: unknown[] = [];
      const { server, port } = await start({
        // The deprecated `now` still works. The clock is read when the limiter is built, then once per
        // query: the first query's read throws.
        now: () => {
          if (++reads === 2) throw new Error('clock failure');
          return performance.now();
        },
        logger: { error: (_m: string, d?: Record<string, unknown>) => errors.push(d) },
      });
      const replies = await udpExchange(port, [query('a.b', 'A', { id: 1 }), query('a.b', 'A', { id: 2 })]);
      expect(replies.map((r) => r.readUInt16BE(0))).toEqual([2]);
      expect(server.stats()).toMatchObject({ handlerErrors: 1, udpQueries: 2, replies: 1 });
      expect(errors).toEqual([{ where: 'udp', error: 'clock failure', total: 1 }]);
    });

    it('answers a burst of 120 queries from three sources, each to its own source port', async () => {
      const { server, port } = await start({ rateLimit: false });
      const batches = await Promise.all(
        [0, 1, 2].map((k) =>
          udpExchange(
            port,
            Array.from({ length: 40 }, (_, i) => query(`burst${k}.test`, 'A', { id: k * 1000 + i })),
          ),
        ),
      );
      for (const [k, replies] of batches.entries()) {
        expect(replies.map((r) => r.readUInt16BE(0)).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 40 }, (_, i) => k * 1000 + i),
        );
      }
      expect(server.stats()).toMatchObject({
        udpQueries: 120,
        replies: 120,
        socketErrors: 0,
        handlerErrors: 0,
      });
    });
  });
}

const startDefault = (extra: Partial<CaptiveDnsOptions> = {}) => startWith(extra);

describe('UDP over IPv6', () => {
  it('serves IPv6 loopback too (with node:dgram: the batch transport is IPv4 only)', async () => {
    const { server, port, url } = await startDefault({ address: '::1' });
    expect(server.transport).toBe('dgram');
    expect(url).toBe(`dns://[::1]:${port}/`);
    const sock = dgram.createSocket('udp6');
    const reply = await new Promise<Buffer>((resolve) => {
      sock.once('message', resolve);
      sock.send(query('v6.test'), port, '::1');
    });
    sock.close();
    expect(answerOf(reply)[1]).toEqual(['192.168.2.1']);
  });
});

describe('TCP', () => {
  const start = startDefault;
  it('answers pipelined queries sent in one write, in order', async () => {
    const { port } = await start();
    const c = await tcpClient(port);
    c.socket.write(Buffer.concat([1, 2, 3].map((id) => frame(query('p.test', 'A', { id })))));
    const replies = await c.replies(3);
    expect(replies.map(answerOf)).toEqual([1, 2, 3].map((id) => [id, ['192.168.2.1']]));
    c.socket.destroy();
  });

  it('reassembles a query that arrives one byte at a time', async () => {
    const { port } = await start();
    const c = await tcpClient(port);
    const bytes = frame(query('slow.test', 'AAAA', { id: 5 }));
    for (const b of bytes) {
      c.socket.write(Buffer.from([b]));
      await new Promise((r) => setTimeout(r, 2));
    }
    const [reply] = await c.replies(1);
    const r = decodeReply(reply!);
    expect([r.id, r.rcode, r.answers.length, r.authorities.length]).toEqual([5, 'NOERROR', 0, 1]);
    c.socket.destroy();
  });

  it('closes a connection that stays idle, and counts it', async () => {
    const { server, port } = await start({ tcp: { idleTimeoutMs: 150 } });
    const c = await tcpClient(port);
    c.socket.write(Buffer.from([0, 40, 1])); // a frame that never completes
    const t0 = Date.now();
    await c.closed;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
    expect(server.stats().tcpIdleClosed).toBe(1);
  });

  it('closes a connection that trickles bytes of a frame that never completes (slowloris)', async () => {
    const { server, port } = await start({ tcp: { idleTimeoutMs: 200 } });
    const c = await tcpClient(port);
    c.socket.write(Buffer.from([0xff, 0xff]));
    const drip = setInterval(() => c.socket.write(Buffer.from([0])), 40);
    const t0 = Date.now();
    await c.closed;
    clearInterval(drip);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(server.stats().tcpIdleClosed).toBe(1);
  });

  it('keeps a connection that sends whole queries more often than the idle timeout', async () => {
    const { server, port } = await start({ tcp: { idleTimeoutMs: 250 } });
    const c = await tcpClient(port);
    for (let id = 0; id < 5; id++) {
      c.socket.write(frame(query('busy.test', 'A', { id })));
      expect(answerOf((await c.replies(1))[0]!)[0]).toBe(id);
      await new Promise((r) => setTimeout(r, 120));
    }
    expect(server.stats().tcpIdleClosed).toBe(0);
    c.socket.destroy();
  });

  it('runs the idle timeout on the clock it is given', async () => {
    const clock = manualClock();
    const { server, port } = await start({ clock, tcp: { idleTimeoutMs: 60_000 } });
    const c = await tcpClient(port);
    c.socket.write(Buffer.from([0, 40, 1])); // a frame that never completes
    await waitFor(() => server.stats().tcpOpen === 1);
    clock.advanceSync(59_999);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.stats()).toMatchObject({ tcpOpen: 1, tcpIdleClosed: 0 });
    clock.advanceSync(1);
    await c.closed;
    expect(server.stats().tcpIdleClosed).toBe(1);
    await waitFor(() => server.stats().tcpOpen === 0);
  });

  it('refuses connections beyond the cap while serving the ones it holds', async () => {
    const { server, port } = await start({ tcp: { maxConnections: 2 } });
    const a = await tcpClient(port);
    const b = await tcpClient(port);
    const c = await tcpClient(port); // accepted by the kernel, closed by the server
    await c.closed;
    a.socket.write(frame(query('still.here', 'A', { id: 11 })));
    expect(answerOf((await a.replies(1))[0]!)).toEqual([11, ['192.168.2.1']]);
    expect(server.stats()).toMatchObject({ tcpRejected: 1, tcpOpen: 2 });
    a.socket.destroy();
    b.socket.destroy();
  });

  it('attack: 64 slow connections from one source hold at most 8 slots; another source is still answered', async () => {
    const { server, port } = await start(); // defaults: 64 connections, 8 per source, idle 10 s
    const connectFrom = (localAddress: string) =>
      new Promise<net.Socket>((resolve, reject) => {
        const socket = net.connect({ port, host: '127.0.0.1', localAddress });
        socket.once('connect', () => resolve(socket));
        socket.once('error', reject);
      });
    // The attacker opens every slot from 127.0.0.2 and trickles a frame that never completes.
    const held: net.Socket[] = [];
    for (let i = 0; i < 64; i++) {
      const socket = await connectFrom('127.0.0.2');
      socket.on('error', () => {});
      socket.write(Buffer.from([0, 200, 1]));
      held.push(socket);
    }
    await waitFor(() => {
      const { tcpAccepted, tcpSourceRejected, tcpRejected } = server.stats();
      return tcpAccepted + tcpSourceRejected + tcpRejected === 64;
    });
    // A phone at 127.0.0.3 still gets its answer over TCP.
    const phone = await connectFrom('127.0.0.3');
    const reply = new Promise<Buffer>((resolve, reject) => {
      let buf = Buffer.alloc(0);
      phone.on('data', (d: Buffer) => {
        buf = Buffer.concat([buf, d]);
        if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) resolve(buf.subarray(2));
      });
      phone.once('close', () => reject(new Error('the server closed the connection without answering')));
    });
    phone.write(frame(query('phone.test', 'A', { id: 64 })));
    expect(answerOf(await reply)).toEqual([64, ['192.168.2.1']]);
    expect(server.stats()).toMatchObject({ tcpAccepted: 9, tcpSourceRejected: 56, tcpOpen: 9 });
    phone.destroy();
    for (const socket of held) socket.destroy();
  });

  it('hangs up on a frame that is not even a header', async () => {
    const { server, port } = await start();
    const c = await tcpClient(port);
    c.socket.write(frame(Buffer.from([1, 2, 3])));
    await c.closed;
    expect(server.stats().malformed).toBe(1);
  });
});

for (const transport of TRANSPORTS) {
  transportDescribe(transport, 'lifecycle', () => {
    const start = (extra: Partial<CaptiveDnsOptions> = {}) => startWith({ transport, ...extra });

    it('a port already in use is CAPTIVE_DNS_LISTEN; listen twice is CAPTIVE_DNS_STATE', async () => {
      const { server, port } = await start();
      await expect(server.listen()).rejects.toMatchObject({ code: 'CAPTIVE_DNS_STATE' });
      const second = createCaptiveDns({ answer: '192.168.2.1', port, transport });
      running.push(second);
      await expect(second.listen()).rejects.toMatchObject({
        code: 'CAPTIVE_DNS_LISTEN',
        message: expect.stringContaining('EADDRINUSE'),
        cause: expect.objectContaining({ code: 'EADDRINUSE' }),
      });
      // Once the port is free, the same server can try again.
      await server.close();
      expect(await second.listen()).toEqual({ address: '127.0.0.1', port, url: `dns://127.0.0.1:${port}/` });
      const [reply] = await udpExchange(port, [query('retry.test', 'A', { id: 3 })]);
      expect(answerOf(reply!)).toEqual([3, ['192.168.2.1']]);
    });

    it('logs where it listens, and nothing per query', async () => {
      const lines: [string, string, Record<string, unknown> | undefined][] = [];
      const logger = {
        info: (m: string, d?: Record<string, unknown>) => lines.push(['info', m, d]),
        warn: (m: string, d?: Record<string, unknown>) => lines.push(['warn', m, d]),
        error: (m: string, d?: Record<string, unknown>) => lines.push(['error', m, d]),
      };
      const { port } = await start({ logger });
      await udpExchange(port, [query('quiet.test'), Buffer.alloc(3)]);
      expect(lines).toEqual([
        ['info', 'captive-dns: listening', { address: '127.0.0.1', port, tcp: true, transport }],
      ]);
    });

    it('close() stops answering and can be called twice', async () => {
      const { server, port } = await start();
      await server.close();
      await server.close();
      expect(await udpExchange(port, [query('gone.test')], 200)).toEqual([]);
    });

    it('an unconfigured address is CAPTIVE_DNS_LISTEN with the reason', async () => {
      const s = createCaptiveDns({ answer: '192.168.2.1', address: '192.0.2.77', port: 0, transport });
      await expect(s.listen()).rejects.toMatchObject({
        code: 'CAPTIVE_DNS_LISTEN',
        message: expect.stringContaining('EADDRNOTAVAIL'),
      });
    });
  });
}

describe('the transport option', () => {
  it("'auto' is the native batch transport on IPv4 when the addon is built, node:dgram on IPv6", () => {
    const { available } = nativeUdpTransport();
    expect(createCaptiveDns({ answer: '192.168.2.1', port: 0 }).transport).toBe(
      available ? 'batch' : 'dgram',
    );
    expect(createCaptiveDns({ answer: '192.168.2.1', port: 0, address: '::1' }).transport).toBe('dgram');
    expect(createCaptiveDns({ answer: '192.168.2.1', port: 0, transport: 'dgram' }).transport).toBe('dgram');
  });

  it.each([
    ['an unknown transport', { transport: 'uring' }],
    ["'batch' on an IPv6 address", { transport: 'batch', address: '::1' }],
  ])('refuses %s with CAPTIVE_DNS_OPTIONS', (_, extra) => {
    expect(() => createCaptiveDns({ answer: '192.168.2.1', ...(extra as object) })).toThrow(
      expect.objectContaining({ code: 'CAPTIVE_DNS_OPTIONS' }),
    );
  });
});

transportDescribe('batch', 'the native transport', () => {
  const start = (extra: Partial<CaptiveDnsOptions> = {}) => startWith({ transport: 'batch', ...extra });
  const openFds = () => fs.readdirSync('/proc/self/fd').length;

  it('runs several servers in one process, each with its own socket, buffers and counters', async () => {
    const a = await start();
    const b = await start();
    const c = await startWith({ transport: 'dgram' });
    const [ra, rb, rc] = await Promise.all([
      udpExchange(a.port, [query('a.test', 'A', { id: 1 }), query('a.test', 'A', { id: 2 })]),
      udpExchange(b.port, [query('b.test', 'A', { id: 3 })]),
      udpExchange(c.port, [query('c.test', 'A', { id: 4 })]),
    ]);
    expect([ra, rb, rc].map((rs) => rs.map((r) => r.readUInt16BE(0)).sort())).toEqual([[1, 2], [3], [4]]);
    expect([a, b, c].map((x) => x.server.stats().udpQueries)).toEqual([2, 1, 1]);
    // Closing one leaves the other answering.
    await a.server.close();
    expect(await udpExchange(a.port, [query('a.test')], 150)).toEqual([]);
    const [reply] = await udpExchange(b.port, [query('b.test', 'A', { id: 5 })]);
    expect(answerOf(reply!)).toEqual([5, ['192.168.2.1']]);
  });

  it('close() releases the socket: 20 servers opened and closed leave no descriptor behind', async () => {
    // Warm up what the first server allocates once per process (the addon, libuv's internals).
    await (await start()).server.close();
    const before = openFds();
    for (let i = 0; i < 20; i++) {
      const { server, port } = await start({ tcp: false });
      await server.close();
      // The port is free again: a plain socket can bind it.
      const probe = dgram.createSocket('udp4');
      await new Promise<void>((resolve, reject) => {
        probe.once('error', reject);
        probe.bind(port, '127.0.0.1', () => resolve());
      });
      await new Promise<void>((resolve) => probe.close(() => resolve()));
    }
    expect(openFds()).toBe(before);
  });

  it('a datagram larger than a slot (MSG_TRUNC) is counted as malformed, and the next query answered', async () => {
    const { server, port } = await start();
    const big = Buffer.concat([query('big.test', 'A', { id: 7 }), Buffer.alloc(5000)]);
    const replies = await udpExchange(port, [big, query('after.big', 'A', { id: 8 })]);
    expect(replies.map(answerOf)).toEqual([[8, ['192.168.2.1']]]);
    expect(server.stats()).toMatchObject({ udpQueries: 2, malformed: 1, replies: 1, handlerErrors: 0 });
  });

  it('keys the rate limit on the source address, as node:dgram does', async () => {
    const { server, port } = await start({ rateLimit: { queriesPerSecond: 1, burst: 2 } });
    await udpExchange(port, [query('x.test'), query('x.test'), query('x.test')]);
    await udpExchange(port, [query('y.test')]); // another port, the same address: same bucket
    expect(server.stats()).toMatchObject({ rateLimited: 2, sourcesTracked: 1 });
  });
});
