// The socket adapter on loopback (no root): hostile datagrams, unicast replies, the store.
import dgram from 'node:dgram';
import fs from 'node:fs';
import { manualClock, tempDir, waitFor } from '@waved/test-lab';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDhcpServer,
  createFileLeaseStore,
  createMemoryLeaseStore,
  type DhcpLease,
  type DhcpServer,
  type DhcpServerOptions,
  decodeMessage,
  encodeMessage,
  MessageType,
} from '../src/index.js';
import { request, typeOf } from './helpers.js';

const open: DhcpServer[] = [];
const sockets: dgram.Socket[] = [];
const dirs: { remove(): void }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const s of sockets.splice(0)) s.close();
  for (const d of dirs.splice(0)) d.remove();
});

/** A server on 127.0.0.1 whose pool is 127.0.0.2-127.0.0.9, on a free port. */
const LOOPBACK: DhcpServerOptions = {
  serverAddress: '127.0.0.1',
  netmask: '255.0.0.0',
  range: ['127.0.0.2', '127.0.0.9'],
  port: 0,
  listenAddress: '127.0.0.1',
};

/** A "client" socket (0.0.0.0, so it also hears the broadcasts the server sends through lo) and a server on 127.0.0.1 whose pool is 127.0.0.2-127.0.0.9. */
async function setup(extra: Partial<DhcpServerOptions> = {}) {
  const client = dgram.createSocket('udp4');
  sockets.push(client);
  await new Promise<void>((r) => client.bind(0, '0.0.0.0', r));
  const clientPort = client.address().port;
  const server = createDhcpServer({
    ...LOOPBACK,
    router: '127.0.0.1',
    dns: '127.0.0.1',
    clientPort,
    ...extra,
  });
  open.push(server);
  const { port } = await server.listen();
  const replies: ReturnType<typeof decodeMessage>['value'][] = [];
  client.on('message', (m) => replies.push(decodeMessage(m).value));
  const send = (b: Uint8Array) => client.send(b, port, '127.0.0.1');
  const next = async (n = 1) => {
    const deadline = Date.now() + 3000;
    while (replies.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    return replies[n - 1];
  };
  return { server, send, next, replies, port };
}

/** Both ways of reading and sending datagrams; without a store, 'auto' picks 'batch'. */
const TRANSPORTS = ['batch', 'dgram'] as const;

describe('createDhcpServer on a UDP socket', () => {
  it('refuses a transport it does not have, and the batch transport with a store (DHCP_CONFIG)', () => {
    expect(() => createDhcpServer({ ...LOOPBACK, transport: 'raw' as 'auto' })).toThrow(
      expect.objectContaining({ code: 'DHCP_CONFIG' }),
    );
    expect(() =>
      createDhcpServer({ ...LOOPBACK, transport: 'batch', store: createMemoryLeaseStore() }),
    ).toThrow(expect.objectContaining({ code: 'DHCP_CONFIG', message: expect.stringContaining('store') }));
  });

  it.each(TRANSPORTS)(
    'answers INFORM with a unicast ACK to ciaddr (RFC 2131 §4.3.5), %s transport',
    async (transport) => {
      const { send, next } = await setup({ transport });
      send(encodeMessage(request({ type: 'INFORM', ciaddr: '127.0.0.2', xid: 99 })));
      const ack = await next();
      expect(ack && typeOf(ack)).toBe(MessageType.ACK);
      expect(ack!.xid).toBe(99);
    },
  );

  it.each(TRANSPORTS)(
    'attack: an INFORM with a ciaddr outside the served subnet is not reflected there, %s transport',
    async (transport) => {
      // The served subnet is 127.0.0.0/24; the victim 127.0.1.7 is outside it (still loopback). The
      // client socket listens on 0.0.0.0, so it would hear an ACK sent to the victim.
      const { server, send, next, replies } = await setup({ netmask: '255.255.255.0', transport });
      send(encodeMessage(request({ type: 'INFORM', ciaddr: '127.0.1.7', xid: 66 })));
      send(encodeMessage(request({ type: 'INFORM', ciaddr: '127.0.0.5', xid: 67 })));
      const ack = await next();
      expect(ack!.xid).toBe(67); // the client on the subnet is answered ...
      await new Promise((r) => setTimeout(r, 100));
      expect(replies.map((r) => r!.xid)).toEqual([67]); // ... and nothing went to the victim
      expect(server.stats()).toMatchObject({ inform: 2, ignored: 1, ack: 1 });
    },
  );

  it.each(TRANSPORTS)(
    'counts hostile datagrams and keeps answering (no exception leaves the handler), %s transport',
    async (transport) => {
      const { server, send, next } = await setup({ transport });
      const bad = [
        Buffer.alloc(0),
        Buffer.alloc(10, 0xff),
        Buffer.alloc(400, 0x63),
        Buffer.alloc(5000, 0x63), // larger than any receive slot
        Buffer.concat([encodeMessage(request({ type: 'DISCOVER' })).subarray(0, 240), Buffer.from([53, 9])]),
      ];
      for (const b of bad) send(b);
      const reply = encodeMessage(request({ type: 'DISCOVER' }));
      reply[0] = 2; // a BOOTREPLY from a rogue server: ignored
      send(reply);
      send(encodeMessage(request({ type: 'INFORM', ciaddr: '127.0.0.2' })));
      expect(await next()).toBeDefined();
      const stats = server.stats();
      expect(stats.received).toBe(7);
      expect(stats.malformed).toBe(5);
      expect(stats.ignored).toBe(1);
      expect(stats.handlerErrors).toBe(0);
      expect(stats.inform).toBe(1);
    },
  );

  it.each(TRANSPORTS)(
    'survives a fuzzed stream of datagrams: every one is counted, no handler error, %s transport',
    async (transport) => {
      const { server, send, replies } = await setup({ transport });
      const seed = encodeMessage(request({ type: 'DISCOVER', params: [1, 3, 6, 114] }));
      const samples = fc.sample(
        fc.oneof(
          fc.uint8Array({ maxLength: 600 }),
          fc
            .array(fc.tuple(fc.nat({ max: seed.length - 1 }), fc.integer({ min: 0, max: 255 })), {
              maxLength: 20,
            })
            .map((edits) => {
              const b = Buffer.from(seed);
              for (const [at, v] of edits) b[at] = v;
              return b;
            }),
        ),
        { numRuns: 300, seed: 42 },
      );
      for (const b of samples) send(b);
      send(encodeMessage(request({ type: 'INFORM', ciaddr: '127.0.0.2', xid: 7 })));
      await waitFor(() => server.stats().received === samples.length + 1, { what: 'all datagrams handled' });
      const st = server.stats();
      expect(st.handlerErrors).toBe(0);
      // every datagram shows up in some counter (a DECLINE that is ignored counts in both)
      expect(
        st.malformed + st.ignored + st.discover + st.request + st.decline + st.release + st.inform,
      ).toBeGreaterThanOrEqual(st.received);
      expect(st.malformed).toBeGreaterThan(0);
      await waitFor(() => replies.some((r) => r.xid === 7), { what: 'the INFORM answered after the fuzz' });
    },
  );

  it('sends an ACK for a new holder only after the store has saved it (group commit)', async () => {
    const store = createMemoryLeaseStore();
    const order: string[] = [];
    const save = store.save.bind(store);
    store.save = async (leases) => {
      await new Promise((r) => setTimeout(r, 50));
      save(leases);
      order.push('saved');
    };
    const { send, next } = await setup({ store });
    // RENEWING for a free pool address we have no record of (a lost table): granted and saved first
    send(encodeMessage(request({ type: 'REQUEST', ciaddr: '127.0.0.2' })));
    const ack = await next();
    order.push('ack');
    expect(ack && typeOf(ack)).toBe(MessageType.ACK);
    expect(order).toEqual(['saved', 'ack']);
    expect(store.saved).toEqual([expect.objectContaining({ address: '127.0.0.2', state: 'bound' })]);
  });

  it('a failing store is counted, does not hold replies back for long, and is not retried in a loop', async () => {
    let calls = 0;
    const store = {
      load: () => [],
      save: async () => {
        calls++;
        throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
      },
    };
    const { server, send, next } = await setup({ store, storeDelayMs: 200 });
    send(encodeMessage(request({ type: 'REQUEST', ciaddr: '127.0.0.2' })));
    expect(typeOf((await next())!)).toBe(MessageType.ACK);
    await new Promise((r) => setTimeout(r, 450));
    expect(server.stats().storeErrors).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(4); // one try, then at most one every storeDelayMs
  });

  it('a restart with a file store hands out no duplicate (0600, atomic file)', async () => {
    const dir = tempDir('dhcp-store-');
    dirs.push(dir);
    const file = dir.join('leases.json');
    const first = await setup({ store: createFileLeaseStore(file) });
    first.send(encodeMessage(request({ type: 'REQUEST', ciaddr: '127.0.0.3', mac: '02:00:00:00:00:0a' })));
    expect(typeOf((await first.next())!)).toBe(MessageType.ACK);
    await first.server.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir.path)).toEqual(['leases.json']); // no temp file left behind

    const second = await setup({ store: createFileLeaseStore(file) });
    expect(second.server.leases()).toEqual([
      expect.objectContaining({ address: '127.0.0.3', hardwareAddress: '02:00:00:00:00:0a', state: 'bound' }),
    ]);
    // another client claiming that address is refused
    second.send(encodeMessage(request({ type: 'REQUEST', ciaddr: '127.0.0.3', mac: '02:00:00:00:00:0b' })));
    expect(typeOf((await second.next())!)).toBe(MessageType.NAK);
    // the holder renews it
    second.send(encodeMessage(request({ type: 'REQUEST', ciaddr: '127.0.0.3', mac: '02:00:00:00:00:0a' })));
    expect(typeOf((await second.next(2))!)).toBe(MessageType.ACK);
  });

  it('holds the ACK of a retransmitted REQUEST until the new holder is saved (a power cut cannot lose a lease a client was told)', async () => {
    // A slow disk: each save takes until the test releases it.
    const saved: DhcpLease[][] = [];
    const pending: (() => void)[] = [];
    const releaseAll = () => {
      for (const r of pending.splice(0)) r();
    };
    const store = {
      load: () => [] as DhcpLease[],
      save: (leases: readonly DhcpLease[]) =>
        new Promise<void>((resolve) => {
          pending.push(() => {
            saved.push([...leases]);
            resolve();
          });
        }),
    };
    try {
      const { send, next, replies } = await setup({ store });
      const mac = '02:00:00:00:00:0d';
      send(encodeMessage(request({ type: 'DISCOVER', mac })));
      const offer = (await next())!;
      expect(typeOf(offer)).toBe(MessageType.OFFER);
      const y = offer.yiaddr;
      const address = [y >>> 24, (y >>> 16) & 255, (y >>> 8) & 255, y & 255].join('.');
      const req = request({ type: 'REQUEST', mac, serverId: '127.0.0.1', requested: address });
      send(encodeMessage(req));
      await waitFor(() => pending.length === 1, { what: 'the save of the new holder' });
      // The client heard nothing yet and sends its REQUEST again, as udhcpc does after its timeout.
      send(encodeMessage(req));
      await new Promise((r) => setTimeout(r, 200));
      expect(replies.map(typeOf)).toEqual([MessageType.OFFER]);
      releaseAll();
      await waitFor(() => replies.length === 3 || pending.length > 0, { what: 'the ACKs or the next save' });
      releaseAll();
      await waitFor(() => replies.length === 3, { what: 'both ACKs after the save' });
      expect(replies.slice(1).map(typeOf)).toEqual([MessageType.ACK, MessageType.ACK]);
      expect(saved[0]).toEqual([expect.objectContaining({ hardwareAddress: mac, state: 'bound' })]);
    } finally {
      releaseAll();
    }
  });

  it("does not hold a renewal of a saved binding while another client's hand-over is being saved", async () => {
    const pending: (() => void)[] = [];
    const releaseAll = () => {
      for (const r of pending.splice(0)) r();
    };
    const store = {
      load: () => [] as DhcpLease[],
      save: () => new Promise<void>((resolve) => pending.push(resolve)),
    };
    try {
      const { send, replies } = await setup({ store });
      // A is bound and saved.
      send(
        encodeMessage(request({ type: 'REQUEST', ciaddr: '127.0.0.3', mac: '02:00:00:00:00:0a', xid: 1 })),
      );
      await waitFor(() => pending.length === 1, { what: "A's save" });
      releaseAll();
      await waitFor(() => replies.some((r) => r.xid === 1), { what: "A's ACK" });
      // B's hand-over is on a slow disk; A renews meanwhile and is answered at once.
      send(
        encodeMessage(request({ type: 'REQUEST', ciaddr: '127.0.0.4', mac: '02:00:00:00:00:0b', xid: 2 })),
      );
      await waitFor(() => pending.length === 1, { what: "B's save" });
      send(
        encodeMessage(request({ type: 'REQUEST', ciaddr: '127.0.0.3', mac: '02:00:00:00:00:0a', xid: 3 })),
      );
      await waitFor(() => replies.some((r) => r.xid === 3), { what: "A's renewal" });
      expect(replies.some((r) => r.xid === 2)).toBe(false);
      releaseAll();
      await waitFor(() => replies.some((r) => r.xid === 2), { what: "B's ACK after its save" });
    } finally {
      releaseAll();
    }
  });

  it('loads the table a power cut left and removes the temp file of the save it cut', async () => {
    const dir = tempDir('dhcp-store-');
    dirs.push(dir);
    const file = dir.join('leases.json');
    const first = await setup({ store: createFileLeaseStore(file) });
    first.send(encodeMessage(request({ type: 'REQUEST', ciaddr: '127.0.0.4', mac: '02:00:00:00:00:0c' })));
    expect(typeOf((await first.next())!)).toBe(MessageType.ACK);
    await first.server.close();
    // the cut came while the next save was writing its temp file
    fs.writeFileSync(dir.join('.leases.json.0123456789ab.tmp'), '{"format":"waved-dhcp-le', { mode: 0o600 });
    const second = await setup({ store: createFileLeaseStore(file) });
    expect(second.server.leases()).toEqual([
      expect.objectContaining({ address: '127.0.0.4', state: 'bound' }),
    ]);
    expect(fs.readdirSync(dir.path)).toEqual(['leases.json']);
  });

  it('refuses a corrupt lease file with DHCP_STORE instead of starting empty', async () => {
    const dir = tempDir('dhcp-store-');
    dirs.push(dir);
    fs.writeFileSync(dir.join('leases.json'), '{"format":"something else"}');
    const server = createDhcpServer({
      ...LOOPBACK,
      store: createFileLeaseStore(dir.join('leases.json')),
    });
    await expect(server.listen()).rejects.toMatchObject({ code: 'DHCP_STORE' });
  });

  it('ignores stored records outside the pool and lapsed quarantines', async () => {
    const now = Date.now();
    const records: DhcpLease[] = [
      { address: '10.0.0.1', clientId: '01aa', hardwareAddress: 'aa', state: 'bound', expiresAt: now + 1e6 },
      { address: '127.0.0.4', clientId: '', hardwareAddress: '', state: 'declined', expiresAt: now - 1 },
      { address: '127.0.0.5', clientId: '01bb', hardwareAddress: 'bb', state: 'bound', expiresAt: now + 1e6 },
    ];
    const { server } = await setup({ store: createMemoryLeaseStore(records) });
    expect(server.leases().map((l) => l.address)).toEqual(['127.0.0.5']);
  });

  it('reads lease times from the clock it is given, and from the deprecated `now`', async () => {
    const start = 1_800_000_000_000;
    const records: DhcpLease[] = [
      {
        address: '127.0.0.5',
        clientId: '01bb',
        hardwareAddress: 'bb',
        state: 'bound',
        expiresAt: start + 60_000,
      },
    ];
    const clock = manualClock(start);
    const { server } = await setup({ clock, store: createMemoryLeaseStore(records) });
    expect(server.leases()).toEqual([expect.objectContaining({ address: '127.0.0.5', state: 'bound' })]);
    clock.advanceSync(60_001);
    expect(server.leases()).toEqual([expect.objectContaining({ address: '127.0.0.5', state: 'expired' })]);

    let now = start;
    const legacy = await setup({ now: () => now, store: createMemoryLeaseStore(records) });
    expect(legacy.server.leases()).toEqual([expect.objectContaining({ state: 'bound' })]);
    now += 60_001;
    expect(legacy.server.leases()).toEqual([expect.objectContaining({ state: 'expired' })]);
  });

  it('reports bind and interface failures with codes', async () => {
    const { port } = await setup();
    const again = createDhcpServer({
      ...LOOPBACK,
      port,
    });
    await expect(again.listen()).rejects.toMatchObject({ code: 'DHCP_BIND' });
    const noIf = createDhcpServer({
      ...LOOPBACK,
      interface: 'nosuchif0',
    });
    await expect(noIf.listen()).rejects.toMatchObject({ code: 'DHCP_INTERFACE' });
    const badName = createDhcpServer({
      ...LOOPBACK,
      interface: '../../etc',
    });
    await expect(badName.listen()).rejects.toMatchObject({ code: 'DHCP_INTERFACE' });
  });

  it('binds to an interface (lo) and still answers', async () => {
    const { server, send, next } = await setup({ interface: 'lo' });
    send(encodeMessage(request({ type: 'INFORM', ciaddr: '127.0.0.2', xid: 5 })));
    expect((await next())!.xid).toBe(5);
    expect(server.stats().handlerErrors).toBe(0);
  });

  it('the batch transport leaves idle-time metrics off while it listens (idleTimeMetrics: true keeps them); close turns them on', async () => {
    const idleWhileWaiting = async () => {
      const before = performance.eventLoopUtilization();
      await new Promise((r) => setTimeout(r, 100));
      return performance.eventLoopUtilization(before).idle;
    };
    const { server, send, next } = await setup({ transport: 'batch' });
    expect(await idleWhileWaiting()).toBe(0);
    send(encodeMessage(request({ type: 'DISCOVER', mac: '02:00:00:00:00:31' })));
    const offer = await next();
    expect(offer && typeOf(offer)).toBe(MessageType.OFFER);
    await server.close();
    expect(await idleWhileWaiting()).toBeGreaterThan(20);
    const keeping = await setup({ transport: 'batch', idleTimeMetrics: true });
    expect(await idleWhileWaiting()).toBeGreaterThan(20);
    keeping.send(encodeMessage(request({ type: 'DISCOVER', mac: '02:00:00:00:00:32' })));
    const kept = await keeping.next();
    expect(kept && typeOf(kept)).toBe(MessageType.OFFER);
  });

  it('listen() twice is a DHCP_STATE error', async () => {
    const { server } = await setup();
    await expect(server.listen()).rejects.toMatchObject({ code: 'DHCP_STATE' });
  });

  it('listen() resolves { address, port, url }; a logger with only some levels is enough', async () => {
    const lines: string[] = [];
    const server = createDhcpServer({
      ...LOOPBACK,
      logger: { info: (message, fields) => lines.push(`${message} ${JSON.stringify(fields ?? {})}`) },
    });
    open.push(server);
    const where = await server.listen();
    expect(where).toEqual({ address: '127.0.0.1', port: where.port, url: `dhcp://127.0.0.1:${where.port}/` });
    expect(where.port).toBeGreaterThan(0);
    expect(lines).toEqual([expect.stringMatching(/^DHCP server listening \{"address":"127.0.0.1"/)]);
    await server.close();
    await server.close();
  });
});
