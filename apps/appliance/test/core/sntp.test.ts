import dgram from 'node:dgram';
import fs from 'node:fs';
import { freePort, killPid, needs, readPidFile, startPeer, tempDir, waitFor } from '@waved/test-lab';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunnerClock } from '../../src/adapters/system/clock.js';
import { createUdpSocket } from '../../src/adapters/system/udp.js';
import { ApplianceError } from '../../src/core/errors.js';
import { createSntpClient } from '../../src/domain/sntp/client.js';
import {
  decode,
  encode,
  NTP_HEADER_BYTES,
  type NtpPacket,
  ntpToUnixMs,
  unixMsToNtp,
} from '../../src/domain/sntp/packet.js';

/** A UDP responder that answers each request with a reply built by `craft` (or several, or none). */
async function responder(
  craft: (request: NtpPacket) => (NtpPacket | Buffer)[],
  address = '127.0.0.1',
  port = 0,
) {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    const request = decode(msg).value;
    for (const reply of craft(request)) {
      const out = Buffer.isBuffer(reply) ? reply : encode(reply);
      socket.send(out, rinfo.port, rinfo.address);
    }
  });
  await new Promise<void>((r) => socket.bind(port, address, r));
  return { port: socket.address().port, close: () => socket.close() };
}

function goodReply(request: NtpPacket, patch: Partial<NtpPacket> = {}): NtpPacket {
  const t = unixMsToNtp(Date.now() + 5_000);
  return {
    li: 0,
    vn: 4,
    mode: 4,
    stratum: 2,
    poll: 4,
    precision: -20,
    rootDelay: 1 / 64,
    rootDispersion: 1 / 128,
    referenceId: Buffer.from([127, 0, 0, 1]),
    referenceTimestamp: t,
    originateTimestamp: request.transmitTimestamp,
    receiveTimestamp: t,
    transmitTimestamp: t,
    ...patch,
  };
}

async function expectCode(p: Promise<unknown>, code: string) {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApplianceError);
  expect((error as ApplianceError).code).toBe(code);
}

describe('NTP packet codec', () => {
  it('round-trips a header, also at an offset in a larger buffer', () => {
    const p = goodReply(decode(Buffer.alloc(48)).value, { originateTimestamp: 0x1234_5678_9abc_def0n });
    expect(decode(encode(p)).value).toEqual(p);
    const buf = Buffer.alloc(60, 0xee);
    encode(p, buf, 7);
    expect(decode(buf, 7)).toEqual({ value: p, bytes: NTP_HEADER_BYTES });
  });

  it('refuses anything shorter than 48 bytes', () => {
    for (const n of [0, 1, 47]) expect(() => decode(Buffer.alloc(n))).toThrow(/too short/);
    expect(() => decode(Buffer.alloc(48), 1)).toThrow(/too short/);
  });

  it('never throws anything but its own error on random input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), fc.nat(130), (bytes, offset) => {
        try {
          const { value } = decode(bytes, offset);
          expect(value.mode).toBeLessThan(8);
        } catch (error) {
          expect((error as ApplianceError).code).toBe('SNTP_BAD_PACKET');
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads timestamps on both sides of the 2036 era boundary (RFC 4330 §3)', () => {
    expect(ntpToUnixMs(BigInt(2_208_988_800) << 32n)).toBe(0);
    // 2036-02-07T06:28:16Z is NTP second 2^32 = era 1 second 0
    expect(new Date(ntpToUnixMs(0n)).toISOString()).toBe('2036-02-07T06:28:16.000Z');
    const later = Date.parse('2040-06-01T12:00:00Z');
    expect(ntpToUnixMs(unixMsToNtp(later))).toBe(later);
    const now = Date.parse('2026-11-21T07:00:00.250Z');
    expect(ntpToUnixMs(unixMsToNtp(now))).toBeCloseTo(now, 3);
  });
});

describe('SNTP client against crafted replies', () => {
  const servers: { close(): void }[] = [];
  afterAll(() => {
    for (const s of servers) s.close();
  });
  const serve = async (craft: Parameters<typeof responder>[0]) => {
    const r = await responder(craft);
    servers.push(r);
    return `127.0.0.1:${r.port}`;
  };
  const client = (server: string, extra: Partial<Parameters<typeof createSntpClient>[0]> = {}) =>
    createSntpClient({
      servers: [server],
      timeoutMs: 400,
      setClock: async () => {},
      createSocket: createUdpSocket,
      ...extra,
    });

  it('accepts a valid reply and computes the offset', async () => {
    const s = await serve((rq) => [goodReply(rq)]);
    const r = await client(s).query(s);
    expect(r.offsetMs).toBeGreaterThan(4_500);
    expect(r.offsetMs).toBeLessThan(5_500);
    expect(r.stratum).toBe(2);
  });

  it.each([
    ['DENY', 'SNTP_KISS_OF_DEATH'],
    ['RATE', 'SNTP_KISS_OF_DEATH'],
  ])("Kiss-o'-Death %s is refused", async (code, error) => {
    const s = await serve((rq) => [goodReply(rq, { stratum: 0, referenceId: Buffer.from(code) })]);
    await expectCode(client(s).query(s), error);
  });

  it('a DENY server is not asked again by sync()', async () => {
    let asked = 0;
    const s = await serve((rq) => {
      asked++;
      return [goodReply(rq, { stratum: 0, referenceId: Buffer.from('DENY') })];
    });
    const c = client(s);
    await expectCode(c.sync(), 'SNTP_NO_SERVER');
    await expectCode(c.sync(), 'SNTP_NO_SERVER');
    expect(asked).toBe(1);
  });

  it('LI=3 (unsynchronised) is refused', async () => {
    const s = await serve((rq) => [goodReply(rq, { li: 3 })]);
    await expectCode(client(s).query(s), 'SNTP_UNSYNCHRONISED');
  });

  it('stratum 0 without a kiss code is refused as unsynchronised', async () => {
    const s = await serve((rq) => [goodReply(rq, { stratum: 0, referenceId: Buffer.alloc(4) })]);
    await expectCode(client(s).query(s), 'SNTP_UNSYNCHRONISED');
  });

  it('stratum 16 is refused', async () => {
    const s = await serve((rq) => [goodReply(rq, { stratum: 16 })]);
    await expectCode(client(s).query(s), 'SNTP_UNSYNCHRONISED');
  });

  it.each([
    ['mode 3', { mode: 3 }],
    ['zero transmit timestamp', { transmitTimestamp: 0n }],
    ['zero receive timestamp', { receiveTimestamp: 0n }],
    ['version 2', { vn: 2 }],
  ])('%s is refused', async (_name, patch) => {
    const s = await serve((rq) => [goodReply(rq, patch as Partial<NtpPacket>)]);
    await expectCode(client(s).query(s), 'SNTP_BAD_PACKET');
  });

  it('a time before the floor is refused', async () => {
    const s = await serve((rq) => {
      const t = unixMsToNtp(Date.parse('2000-01-01T00:00:00Z'));
      return [goodReply(rq, { receiveTimestamp: t, transmitTimestamp: t })];
    });
    await expectCode(client(s).query(s), 'SNTP_BEFORE_FLOOR');
  });

  it('a reply that does not echo our random transmit timestamp is ignored; the real one is used', async () => {
    const s = await serve((rq) => [
      goodReply(rq, {
        originateTimestamp: rq.transmitTimestamp ^ 1n,
        transmitTimestamp: unixMsToNtp(Date.now() + 99e6),
      }),
      Buffer.alloc(20),
      goodReply(rq),
    ]);
    const r = await client(s).query(s);
    expect(r.offsetMs).toBeLessThan(6_000);
  });

  it('only forged replies: times out', async () => {
    const s = await serve((rq) => [goodReply(rq, { originateTimestamp: 0n })]);
    await expectCode(client(s).query(s), 'SNTP_TIMEOUT');
  });

  it('the request carries a random transmit timestamp, not the clock', async () => {
    const seen: bigint[] = [];
    const s = await serve((rq) => {
      seen.push(rq.transmitTimestamp);
      expect(rq.mode).toBe(3);
      expect(rq.vn).toBe(4);
      return [goodReply(rq)];
    });
    await client(s).query(s);
    await client(s).query(s);
    expect(seen[0]).not.toBe(seen[1]);
    expect(Math.abs(ntpToUnixMs(seen[0]!) - Date.now())).toBeGreaterThan(60_000);
  });

  it('sync() falls through a bad server to a good one and sets the clock once', async () => {
    const bad = await serve((rq) => [goodReply(rq, { li: 3 })]);
    const good = await serve((rq) => [goodReply(rq)]);
    const set: Date[] = [];
    const c = createSntpClient({
      servers: [bad, good],
      timeoutMs: 400,
      setClock: async (d) => void set.push(d),
      createSocket: createUdpSocket,
    });
    const r = await c.sync();
    expect(r.server).toBe(good);
    expect(set).toHaveLength(1);
    expect(Math.abs(set[0]!.getTime() - (Date.now() + 5_000))).toBeLessThan(500);
  });

  it('sets the clock through the runner with date -u -s @seconds', async () => {
    const s = await serve((rq) => [goodReply(rq)]);
    const calls: string[][] = [];
    const c = createSntpClient({
      servers: [s],
      timeoutMs: 400,
      createSocket: createUdpSocket,
      setClock: createRunnerClock(async (file, args) => {
        calls.push([file, ...args]);
        return { stdout: '', stderr: '', code: 0, timedOut: false, signal: null };
      }),
    });
    await c.sync();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.slice(0, 3)).toEqual(['date', '-u', '-s']);
    expect(Number(calls[0]![3]!.slice(1)) * 1000).toBeCloseTo(Date.now() + 5_000, -3);
  });
});

describe('a step of more than 24 h needs two agreeing sources', () => {
  const servers: { close(): void }[] = [];
  afterAll(() => {
    for (const s of servers) s.close();
  });
  const YEARS = 10 * 365 * 24 * 3_600_000;
  /** A server whose clock is `aheadMs` ahead of ours. */
  const serveAhead = async (aheadMs: number) => {
    const r = await responder((rq) => {
      const t = unixMsToNtp(Date.now() + aheadMs);
      return [goodReply(rq, { receiveTimestamp: t, transmitTimestamp: t, referenceTimestamp: t })];
    });
    servers.push(r);
    return `127.0.0.1:${r.port}`;
  };
  const clientFor = (list: string[], extra: Partial<Parameters<typeof createSntpClient>[0]> = {}) => {
    const set: Date[] = [];
    const c = createSntpClient({
      servers: list,
      timeoutMs: 400,
      createSocket: createUdpSocket,
      setClock: async (d) => void set.push(d),
      ...extra,
    });
    return { c, set };
  };

  it('a single hostile server cannot push the clock years ahead (attack)', async () => {
    const hostile = await serveAhead(YEARS);
    const { c, set } = clientFor([hostile]);
    await expectCode(c.sync(), 'SNTP_UNCONFIRMED');
    expect(set).toHaveLength(0);
  });

  it('a hostile server is outvoted by an honest one: the small step wins', async () => {
    const hostile = await serveAhead(YEARS);
    const honest = await serveAhead(2_000);
    const { c, set } = clientFor([hostile, honest]);
    expect((await c.sync()).server).toBe(honest);
    expect(Math.abs(set[0]!.getTime() - (Date.now() + 2_000))).toBeLessThan(1_000);
  });

  it('two servers that agree on a large step set it (a device without RTC after boot)', async () => {
    const a = await serveAhead(3 * 24 * 3_600_000);
    const b = await serveAhead(3 * 24 * 3_600_000 + 5_000);
    const { c, set } = clientFor([a, b]);
    await c.sync();
    expect(set).toHaveLength(1);
    expect(set[0]!.getTime() - Date.now()).toBeGreaterThan(2.9 * 24 * 3_600_000);
  });

  it("the cloud's HTTPS Date confirms a large step; a Date that disagrees does not", async () => {
    const ahead = 40 * 24 * 3_600_000;
    const s = await serveAhead(ahead);
    const agreeing = clientFor([s], { secondSource: async () => new Date(Date.now() + ahead + 3_000) });
    await agreeing.c.sync();
    expect(agreeing.set).toHaveLength(1);
    const disagreeing = clientFor([s], { secondSource: async () => new Date() });
    await expectCode(disagreeing.c.sync(), 'SNTP_UNCONFIRMED');
    expect(disagreeing.set).toHaveLength(0);
  });

  it('each address of a name is its own source: two agreeing addresses confirm a large step', async () => {
    const craft = (rq: NtpPacket) => {
      const t = unixMsToNtp(Date.now() + YEARS);
      return [goodReply(rq, { receiveTimestamp: t, transmitTimestamp: t, referenceTimestamp: t })];
    };
    const one = await responder(craft, '127.0.0.1');
    const two = await responder(craft, '127.0.0.2', one.port);
    servers.push(one, two);
    const single = clientFor(['pool.example'], { resolveHost: async () => ['127.0.0.1'], port: one.port });
    await expectCode(single.c.sync(), 'SNTP_UNCONFIRMED');
    const pool = clientFor(['pool.example'], {
      resolveHost: async () => ['127.0.0.1', '127.0.0.2'],
      port: one.port,
    });
    await pool.c.sync();
    expect(pool.set).toHaveLength(1);
  });
});

const lab = needs({ root: true, peers: ['chronyd'] });
lab.describe('SNTP client against chronyd on loopback (lab.md §8)', () => {
  const dir = tempDir('waved-chrony-');
  const pids: number[] = [];
  let port = 0;
  let unsyncPort = 0;

  /** chronyd -x never touches the system clock; without `local stratum` it has no time to give. */
  async function chrony(name: string, local: boolean): Promise<number> {
    const p = await freePort();
    const conf = dir.join(`${name}.conf`);
    fs.writeFileSync(
      conf,
      [
        `port ${p}`,
        'bindaddress 127.0.0.1',
        'allow 127.0.0.1',
        ...(local ? ['local stratum 8'] : []),
        'cmdport 0',
        `pidfile ${dir.join(`${name}.pid`)}`,
        `driftfile ${dir.join(`${name}.drift`)}`,
        '',
      ].join('\n'),
    );
    const peer = startPeer('chronyd', [
      '-x',
      '-f',
      conf,
      '-u',
      'root',
      '-L',
      '0',
      '-l',
      dir.join(`${name}.log`),
    ]);
    await peer.exited;
    pids.push(await readPidFile(dir.join(`${name}.pid`)));
    return p;
  }

  beforeAll(async () => {
    port = await chrony('synced', true);
    unsyncPort = await chrony('unsynced', false);
  });
  afterAll(async () => {
    for (const pid of pids) await killPid(pid);
    dir.remove();
  });

  it('gets a valid time from a local stratum 8 server (small offset)', async () => {
    const set: Date[] = [];
    const c = createSntpClient({
      servers: [`127.0.0.1:${port}`],
      timeoutMs: 1000,
      setClock: async (d) => void set.push(d),
      createSocket: createUdpSocket,
    });
    const r = await waitFor(() => c.sync().catch(() => null), {
      timeoutMs: 10_000,
      intervalMs: 200,
      what: 'chronyd reply',
    });
    expect(r.stratum).toBe(8);
    expect(Math.abs(r.offsetMs)).toBeLessThan(100);
    expect(r.delayMs).toBeLessThan(100);
    expect(set).toHaveLength(1);
  });

  it('an unsynchronised chronyd (LI=3) is refused and the synchronised one is used', async () => {
    const c = createSntpClient({
      servers: [`127.0.0.1:${unsyncPort}`],
      timeoutMs: 1000,
      setClock: async () => {},
      createSocket: createUdpSocket,
    });
    await expectCode(c.query(`127.0.0.1:${unsyncPort}`), 'SNTP_UNSYNCHRONISED');
    const both = createSntpClient({
      servers: [`127.0.0.1:${unsyncPort}`, `127.0.0.1:${port}`],
      timeoutMs: 1000,
      setClock: async () => {},
      createSocket: createUdpSocket,
    });
    expect((await both.sync()).server).toBe(`127.0.0.1:${port}`);
  });

  it('a server that does not answer is a timeout, and the next one is used', async () => {
    const silent = await freePort();
    const c = createSntpClient({
      servers: [`127.0.0.1:${silent}`, `127.0.0.1:${port}`],
      timeoutMs: 300,
      setClock: async () => {},
      createSocket: createUdpSocket,
    });
    const r = await c.sync();
    expect(r.server).toBe(`127.0.0.1:${port}`);
  });
});
