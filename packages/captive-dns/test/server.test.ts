// The UDP and TCP listeners with raw sockets: framing, pipelining, idle timeout, connection cap,
// rate limit, dropped responses and start-up errors. Loopback only, port 0.
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { type CaptiveDns, type CaptiveDnsOptions, createCaptiveDns } from '../src/index.js';
import { frame, query, tcpClient, udpExchange } from './helpers.js';
import { decodeReply } from './packet.js';

const running: CaptiveDns[] = [];
async function start(extra: Partial<CaptiveDnsOptions> = {}) {
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

describe('UDP', () => {
  it('listen() resolves with the port it bound when asked for port 0', async () => {
    const { port, address } = await start();
    expect(address).toBe('127.0.0.1');
    expect(port).toBeGreaterThan(0);
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

  it('serves IPv6 loopback too', async () => {
    const { port } = await start({ address: '::1' });
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

  it('hangs up on a frame that is not even a header', async () => {
    const { server, port } = await start();
    const c = await tcpClient(port);
    c.socket.write(frame(Buffer.from([1, 2, 3])));
    await c.closed;
    expect(server.stats().malformed).toBe(1);
  });
});

describe('lifecycle', () => {
  it('a port already in use is CAPTIVE_DNS_LISTEN; listen twice is CAPTIVE_DNS_STATE', async () => {
    const { server, port } = await start();
    await expect(server.listen()).rejects.toMatchObject({ code: 'CAPTIVE_DNS_STATE' });
    const second = createCaptiveDns({ answer: '192.168.2.1', port });
    running.push(second);
    await expect(second.listen()).rejects.toMatchObject({ code: 'CAPTIVE_DNS_LISTEN' });
    // Once the port is free, the same server can try again.
    await server.close();
    expect(await second.listen()).toEqual({ address: '127.0.0.1', port });
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
    expect(lines).toEqual([['info', 'captive-dns: listening', { address: '127.0.0.1', port, tcp: true }]]);
  });

  it('close() stops answering and can be called twice', async () => {
    const { server, port } = await start();
    await server.close();
    await server.close();
    expect(await udpExchange(port, [query('gone.test')], 200)).toEqual([]);
  });

  it('an unconfigured address is CAPTIVE_DNS_LISTEN with the reason', async () => {
    const s = createCaptiveDns({ answer: '192.168.2.1', address: '192.0.2.77', port: 0 });
    await expect(s.listen()).rejects.toMatchObject({
      code: 'CAPTIVE_DNS_LISTEN',
      message: expect.stringContaining('EADDRNOTAVAIL'),
    });
  });
});
