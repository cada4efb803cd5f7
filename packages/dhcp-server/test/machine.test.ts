import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BROADCAST_FLAG,
  createDhcpMachine,
  type DhcpMachineOptions,
  encodeMessage,
  formatIpv4,
  MessageType,
  Option,
} from '../src/index.js';
import { createDhcpMachineCore } from '../src/machine.js';
import { opt, optIp, optU32, type RequestSpec, request, typeOf } from './helpers.js';

const BASE: DhcpMachineOptions = {
  serverAddress: '192.168.2.1',
  netmask: '255.255.255.0',
  range: ['192.168.2.50', '192.168.2.200'],
  router: '192.168.2.1',
  dns: '192.168.2.1',
  captivePortalUri: 'http://192.168.2.1/',
};
const T0 = 1_700_000_000_000;
const BCAST = 0xffffffff;

function setup(extra: Partial<DhcpMachineOptions> = {}) {
  const m = createDhcpMachine({ ...BASE, ...extra });
  let now = T0;
  return {
    m,
    send: (spec: Parameters<typeof request>[0]) => m.handle(request(spec), now),
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

/** DISCOVER, then SELECTING REQUEST: the address the client is bound to. */
function lease(s: ReturnType<typeof setup>, mac: string, extra: Partial<Parameters<typeof request>[0]> = {}) {
  const offer = s.send({ type: 'DISCOVER', mac, ...extra });
  expect(offer && typeOf(offer.message)).toBe(MessageType.OFFER);
  const yiaddr = formatIpv4(offer!.message.yiaddr);
  const ack = s.send({ type: 'REQUEST', mac, serverId: '192.168.2.1', requested: yiaddr, ...extra });
  expect(ack && typeOf(ack.message)).toBe(MessageType.ACK);
  return yiaddr;
}

describe('RFC 2131 §4.3.1 DISCOVER -> OFFER', () => {
  it('offers a pool address with the table 3 fields and the configured options', () => {
    const s = setup();
    const r = s.send({
      type: 'DISCOVER',
      xid: 0xdeadbeef,
      flags: BROADCAST_FLAG,
      params: [1, 3, 6, 114, 28],
    });
    expect(r).toBeDefined();
    const m = r!.message;
    expect(typeOf(m)).toBe(MessageType.OFFER);
    expect(m.op).toBe(2);
    expect(m.xid).toBe(0xdeadbeef);
    expect(m.flags).toBe(BROADCAST_FLAG);
    expect(m.hops).toBe(0);
    expect(m.secs).toBe(0);
    expect(m.ciaddr).toBe(0);
    expect(formatIpv4(m.yiaddr)).toBe('192.168.2.50');
    expect([...m.chaddr.subarray(0, 6)]).toEqual([2, 0, 0, 0, 0, 1]);
    expect(optIp(m, Option.SERVER_ID)).toBe('192.168.2.1');
    expect(optIp(m, Option.SUBNET_MASK)).toBe('255.255.255.0');
    expect(optIp(m, Option.ROUTER)).toBe('192.168.2.1');
    expect(optIp(m, Option.DNS)).toBe('192.168.2.1');
    expect(optU32(m, Option.LEASE_TIME)).toBe(43200);
    expect(optU32(m, Option.RENEWAL_TIME)).toBe(21600); // RFC 2131 §4.4.5: 0.5 x lease
    expect(optU32(m, Option.REBINDING_TIME)).toBe(37800); // 0.875 x lease
    expect(Buffer.from(opt(m, Option.CAPTIVE_PORTAL)!).toString()).toBe('http://192.168.2.1/');
    expect(optIp(m, Option.BROADCAST_ADDRESS)).toBe('192.168.2.255'); // asked for in 55, known
    expect(r!.address).toBe(BCAST);
    expect(r!.port).toBe(68);
  });

  it('never echoes 50, 55 or 57, and echoes 61 (RFC 6842)', () => {
    const s = setup();
    const clientId = Uint8Array.of(0xff, 1, 2, 3, 4);
    const r = s.send({
      type: 'DISCOVER',
      requested: '192.168.2.77',
      params: [1, 3],
      maxSize: 1500,
      clientId,
    });
    const m = r!.message;
    expect(m.options.has(Option.REQUESTED_ADDRESS)).toBe(false);
    expect(m.options.has(Option.PARAMETER_LIST)).toBe(false);
    expect(m.options.has(Option.MAX_MESSAGE_SIZE)).toBe(false);
    expect([...opt(m, Option.CLIENT_ID)!]).toEqual([...clientId]);
  });

  it('honours a free requested address (option 50) and refuses one outside the pool', () => {
    const s = setup();
    expect(formatIpv4(s.send({ type: 'DISCOVER', requested: '192.168.2.77' })!.message.yiaddr)).toBe(
      '192.168.2.77',
    );
    const other = s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:02', requested: '192.168.2.1' })!;
    expect(formatIpv4(other.message.yiaddr)).not.toBe('192.168.2.1');
    expect(formatIpv4(other.message.yiaddr)).not.toBe('192.168.2.77'); // held by the first offer
  });

  it('gives the same client the same address back, also after RELEASE', () => {
    const s = setup();
    const a = lease(s, '02:00:00:00:00:0a');
    lease(s, '02:00:00:00:00:0b');
    expect(formatIpv4(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:0a' })!.message.yiaddr)).toBe(a);
    s.send({ type: 'RELEASE', mac: '02:00:00:00:00:0a', ciaddr: a, serverId: '192.168.2.1' });
    expect(formatIpv4(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:0a' })!.message.yiaddr)).toBe(a);
  });

  it('a full pool sends no OFFER, counts it, and never hands out a duplicate', () => {
    const s = setup({ range: ['192.168.2.50', '192.168.2.52'] });
    const given = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const r = s.send({ type: 'DISCOVER', mac: `02:00:00:00:01:0${i}` });
      if (r) given.add(formatIpv4(r.message.yiaddr));
      else expect(i).toBeGreaterThanOrEqual(3);
    }
    expect(given).toEqual(new Set(['192.168.2.50', '192.168.2.51', '192.168.2.52']));
    expect(s.m.stats(s.now()).poolExhausted).toBe(2);
    expect(s.m.stats(s.now()).offer).toBe(3);
  });

  it('reclaims expired leases and lapsed offers', () => {
    const s = setup({ range: ['192.168.2.50', '192.168.2.50'], leaseSeconds: 60, offerSeconds: 10 });
    s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:01' });
    expect(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:02' })).toBeUndefined();
    s.advance(10_001);
    const a = lease(s, '02:00:00:00:00:02');
    expect(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:03' })).toBeUndefined();
    s.advance(60_001);
    expect(s.m.leases(s.now())[0]).toMatchObject({ address: a, state: 'expired' });
    expect(formatIpv4(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:03' })!.message.yiaddr)).toBe(a);
  });

  it('skips the server address when it lies inside the range', () => {
    const s = setup({ range: ['192.168.2.1', '192.168.2.2'] });
    expect(formatIpv4(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:01' })!.message.yiaddr)).toBe(
      '192.168.2.2',
    );
    expect(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:02' })).toBeUndefined();
    expect(s.m.stats(s.now()).pool.size).toBe(1);
  });
});

describe('RFC 2131 §4.2 client identity', () => {
  it('uses option 61 when present, else chaddr', () => {
    const s = setup();
    const id = Uint8Array.of(0, 0x11, 0x22);
    const a = s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:01', clientId: id })!.message.yiaddr;
    // same identifier from another NIC: same client
    expect(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:99', clientId: id })!.message.yiaddr).toBe(a);
    // same NIC without the identifier: another client
    expect(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:01' })!.message.yiaddr).not.toBe(a);
  });
});

describe('RFC 2131 §4.3.2 REQUEST', () => {
  it('SELECTING for us with the offered address: ACK; with another address: NAK', () => {
    const s = setup();
    const offered = formatIpv4(s.send({ type: 'DISCOVER' })!.message.yiaddr);
    const nak = s.send({ type: 'REQUEST', serverId: '192.168.2.1', requested: '192.168.2.199' })!;
    expect(typeOf(nak.message)).toBe(MessageType.NAK);
    const ack = s.send({ type: 'REQUEST', serverId: '192.168.2.1', requested: offered })!;
    expect(typeOf(ack.message)).toBe(MessageType.ACK);
    expect(formatIpv4(ack.message.yiaddr)).toBe(offered);
    expect(ack.persist).toBe(true); // a new holder: the store must have it before the ACK
    expect(s.m.leases(s.now())).toEqual([expect.objectContaining({ address: offered, state: 'bound' })]);
  });

  it('SELECTING another server: no reply, and our offer is released silently', () => {
    const s = setup({ range: ['192.168.2.50', '192.168.2.50'] });
    s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:01' });
    expect(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:02' })).toBeUndefined();
    expect(
      s.send({
        type: 'REQUEST',
        mac: '02:00:00:00:00:01',
        serverId: '192.168.2.254',
        requested: '192.168.2.50',
      }),
    ).toBeUndefined();
    expect(s.m.stats(s.now()).otherServer).toBe(1);
    expect(formatIpv4(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:02' })!.message.yiaddr)).toBe(
      '192.168.2.50',
    );
  });

  it('INIT-REBOOT on the wrong network: NAK, broadcast, with only 53, 54 (and 61 echoed)', () => {
    const s = setup();
    const clientId = Uint8Array.of(1, 2, 0, 0, 0, 0, 1);
    const r = s.send({ type: 'REQUEST', requested: '10.9.9.9', clientId, params: [1, 3, 6] })!;
    expect(typeOf(r.message)).toBe(MessageType.NAK);
    expect([...r.message.options.keys()].sort((a, b) => a - b)).toEqual([53, 54, 61]);
    expect(r.message.yiaddr).toBe(0);
    expect(r.message.ciaddr).toBe(0);
    expect(r.message.siaddr).toBe(0);
    expect(r.address).toBe(BCAST);
    expect([...r.message.chaddr.subarray(0, 6)]).toEqual([2, 0, 0, 0, 0, 1]);
  });

  it('INIT-REBOOT from an unknown client on our network: silence (MUST), counted', () => {
    const s = setup();
    expect(s.send({ type: 'REQUEST', requested: '192.168.2.60' })).toBeUndefined();
    expect(s.m.stats(s.now()).unknownClient).toBe(1);
  });

  it('INIT-REBOOT from an unknown client with authoritative: true: NAK, so it DISCOVERs at once', () => {
    const s = setup({ authoritative: true });
    const r = s.send({ type: 'REQUEST', requested: '192.168.2.60' })!;
    expect(typeOf(r.message)).toBe(MessageType.NAK);
    expect(s.m.stats(s.now()).unknownClient).toBe(1);
  });

  it('INIT-REBOOT from a known client: right address ACK, wrong address NAK', () => {
    const s = setup();
    const a = lease(s, '02:00:00:00:00:01');
    expect(typeOf(s.send({ type: 'REQUEST', requested: a })!.message)).toBe(MessageType.ACK);
    expect(typeOf(s.send({ type: 'REQUEST', requested: '192.168.2.150' })!.message)).toBe(MessageType.NAK);
  });

  it('RENEWING: unicast ACK to ciaddr, ciaddr copied, lease extended', () => {
    const s = setup({ leaseSeconds: 100 });
    const a = lease(s, '02:00:00:00:00:01');
    s.advance(60_000);
    const r = s.send({ type: 'REQUEST', ciaddr: a })!;
    expect(typeOf(r.message)).toBe(MessageType.ACK);
    expect(formatIpv4(r.address)).toBe(a);
    expect(formatIpv4(r.message.ciaddr)).toBe(a);
    expect(formatIpv4(r.message.yiaddr)).toBe(a);
    expect(r.persist).toBe(false);
    expect(s.m.leases(s.now())[0]!.expiresAt).toBe(s.now() + 100_000);
  });

  it("REBINDING (broadcast) with another client's address: NAK", () => {
    const s = setup();
    const a = lease(s, '02:00:00:00:00:01');
    const r = s.send({ type: 'REQUEST', mac: '02:00:00:00:00:02', ciaddr: a, flags: BROADCAST_FLAG })!;
    expect(typeOf(r.message)).toBe(MessageType.NAK);
    expect(r.address).toBe(BCAST);
  });
});

describe('RFC 2131 §4.3.3 DECLINE', () => {
  it('quarantines the address for declineSeconds, then returns it to the pool', () => {
    const s = setup({ range: ['192.168.2.50', '192.168.2.51'], declineSeconds: 600 });
    const a = lease(s, '02:00:00:00:00:01');
    s.send({ type: 'DECLINE', requested: a, serverId: '192.168.2.1' });
    expect(s.m.leases(s.now())).toEqual([expect.objectContaining({ address: a, state: 'declined' })]);
    // neither the decliner nor anyone else gets it now
    const next = s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:01' })!;
    expect(formatIpv4(next.message.yiaddr)).not.toBe(a);
    expect(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:02' })).toBeUndefined();
    s.advance(600_001);
    expect(formatIpv4(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:02' })!.message.yiaddr)).toBe(a);
  });

  it('ignores a DECLINE of an address the client never held', () => {
    const s = setup();
    s.send({ type: 'DECLINE', requested: '192.168.2.80', serverId: '192.168.2.1' });
    expect(s.m.leases(s.now())).toEqual([]);
    expect(s.m.stats(s.now()).ignored).toBe(1);
  });
});

describe('RFC 2131 §4.3.4 RELEASE', () => {
  it('frees the address and keeps the client record', () => {
    const s = setup({ range: ['192.168.2.50', '192.168.2.50'] });
    const a = lease(s, '02:00:00:00:00:01');
    expect(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:02' })).toBeUndefined();
    expect(s.send({ type: 'RELEASE', ciaddr: a, serverId: '192.168.2.1' })).toBeUndefined();
    expect(s.m.leases(s.now())).toEqual([expect.objectContaining({ address: a, state: 'released' })]);
    expect(s.m.stats(s.now()).pool).toMatchObject({ free: 1, bound: 0 });
    expect(formatIpv4(s.send({ type: 'DISCOVER', mac: '02:00:00:00:00:02' })!.message.yiaddr)).toBe(a);
  });

  it('ignores a RELEASE naming another server, or from a client that does not hold the address', () => {
    const s = setup();
    const a = lease(s, '02:00:00:00:00:01');
    s.send({ type: 'RELEASE', ciaddr: a, serverId: '192.168.2.254' });
    s.send({ type: 'RELEASE', mac: '02:00:00:00:00:02', ciaddr: a, serverId: '192.168.2.1' });
    expect(s.m.leases(s.now())[0]!.state).toBe('bound');
  });
});

describe('RFC 2131 §4.3.5 INFORM', () => {
  it('ACKs with configuration only: no option 51/58/59, yiaddr 0, unicast to ciaddr', () => {
    const s = setup();
    const r = s.send({ type: 'INFORM', ciaddr: '192.168.2.20' })!;
    expect(typeOf(r.message)).toBe(MessageType.ACK);
    expect(r.message.yiaddr).toBe(0);
    expect(r.message.options.has(Option.LEASE_TIME)).toBe(false);
    expect(r.message.options.has(Option.RENEWAL_TIME)).toBe(false);
    expect(optIp(r.message, Option.DNS)).toBe('192.168.2.1');
    expect(formatIpv4(r.address)).toBe('192.168.2.20');
    expect(s.m.leases(s.now())).toEqual([]);
  });

  it.each([
    ['another network', '198.51.100.7'],
    ['the network address', '192.168.2.0'],
    ['the broadcast address', '192.168.2.255'],
    ['no address', '0.0.0.0'],
  ])('attack: an INFORM whose ciaddr is %s (%s) gets no reply, so it cannot reflect traffic', (_, ciaddr) => {
    const s = setup();
    expect(s.send({ type: 'INFORM', ciaddr })).toBeUndefined();
    expect(s.m.stats(s.now())).toMatchObject({ inform: 1, ignored: 1, ack: 0 });
  });
});

describe('RFC 2131 §4.1 reply addressing', () => {
  it('through a relay: to giaddr on the server port; a NAK sets the broadcast bit', () => {
    const s = setup();
    const offer = s.send({ type: 'DISCOVER', giaddr: '192.168.2.254' })!;
    expect(formatIpv4(offer.address)).toBe('192.168.2.254');
    expect(offer.port).toBe(67);
    expect(formatIpv4(offer.message.giaddr)).toBe('192.168.2.254');
    const nak = s.send({
      type: 'REQUEST',
      giaddr: '192.168.2.254',
      serverId: '192.168.2.1',
      requested: '192.168.2.99',
    })!;
    expect(typeOf(nak.message)).toBe(MessageType.NAK);
    expect(nak.message.flags & BROADCAST_FLAG).toBe(BROADCAST_FLAG);
    expect(formatIpv4(nak.address)).toBe('192.168.2.254');
  });

  it('ignores a relay on another network (its pool is not ours)', () => {
    const s = setup();
    expect(s.send({ type: 'DISCOVER', giaddr: '10.1.2.1' })).toBeUndefined();
    expect(s.m.stats(s.now()).ignored).toBe(1);
  });

  it('without relay, ciaddr or broadcast bit: broadcast, with yiaddr as the direct destination once the ARP cache maps it', () => {
    const s = setup();
    const offer = s.send({ type: 'DISCOVER', flags: 0, mac: '02:00:00:00:00:31' })!;
    expect(offer.address).toBe(BCAST);
    expect(offer.direct).toBe(offer.message.yiaddr);
    expect(formatIpv4(offer.direct)).toMatch(/^192\.168\.2\./);
    const ack = s.send({
      type: 'REQUEST',
      mac: '02:00:00:00:00:31',
      serverId: '192.168.2.1',
      requested: formatIpv4(offer.message.yiaddr),
    })!;
    expect(typeOf(ack.message)).toBe(MessageType.ACK);
    expect(ack.direct).toBe(offer.message.yiaddr);
  });

  it('no direct destination: broadcast flag set, a relay, ciaddr (RENEWING), a NAK, a hardware type other than Ethernet', () => {
    const s = setup();
    expect(s.send({ type: 'DISCOVER', flags: BROADCAST_FLAG, mac: '02:00:00:00:00:41' })!.direct).toBe(0);
    expect(s.send({ type: 'DISCOVER', giaddr: '192.168.2.254', mac: '02:00:00:00:00:42' })!.direct).toBe(0);
    const a = lease(s, '02:00:00:00:00:43');
    const renew = s.send({ type: 'REQUEST', mac: '02:00:00:00:00:43', ciaddr: a })!;
    expect(typeOf(renew.message)).toBe(MessageType.ACK);
    expect(renew.direct).toBe(0);
    const nak = s.send({
      type: 'REQUEST',
      mac: '02:00:00:00:00:44',
      serverId: '192.168.2.1',
      requested: '10.0.0.9',
    })!;
    expect(typeOf(nak.message)).toBe(MessageType.NAK);
    expect(nak.direct).toBe(0);
    const tokenRing = { ...request({ type: 'DISCOVER', mac: '02:00:00:00:00:45' }), htype: 6 };
    expect(s.m.handle(tokenRing, s.now())!.direct).toBe(0);
    const longAddress = { ...request({ type: 'DISCOVER', mac: '02:00:00:00:00:46' }), hlen: 8 };
    expect(s.m.handle(longAddress, s.now())!.direct).toBe(0);
  });
});

describe('RFC 2131 §2 and RFC 2132 §9.10 sizes', () => {
  const big = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [200 + i, 'x'.repeat(60)]));

  it('a reply fits 576 bytes unless option 57 allows more; what does not fit is left out', () => {
    const s = setup({ options: big });
    const params = Object.keys(big).map(Number);
    const small = s.send({ type: 'DISCOVER', params })!;
    const smallBytes = encodeMessage(small.message).length;
    expect(smallBytes).toBeLessThanOrEqual(576 - 28);
    expect(small.message.options.has(200)).toBe(true);
    expect(small.message.options.has(209)).toBe(false);
    const large = s.send({ type: 'DISCOVER', params, maxSize: 1500 })!;
    expect(large.message.options.has(209)).toBe(true);
    expect(encodeMessage(large.message).length).toBeLessThanOrEqual(1500 - 28);
  });

  it('pads a reply to the 300-byte BOOTP minimum (RFC 1542)', () => {
    const s = setup({ captivePortalUri: undefined });
    expect(encodeMessage(s.send({ type: 'DISCOVER' })!.message).length).toBe(300);
  });

  it('does not send a configured option nobody asked for', () => {
    const s = setup({ options: { 42: Uint8Array.of(192, 168, 2, 1) } });
    expect(s.send({ type: 'DISCOVER' })!.message.options.has(42)).toBe(false);
    expect(s.send({ type: 'DISCOVER', params: [42] })!.message.options.has(42)).toBe(true);
  });
});

describe('what the server does not answer', () => {
  it('ignores BOOTREPLYs, BOOTP without option 53 and unknown message types, counting them', () => {
    const s = setup();
    const reply = request({ type: 'DISCOVER' });
    reply.op = 2;
    expect(s.m.handle(reply, T0)).toBeUndefined();
    const bootp = request({ type: 'DISCOVER' });
    bootp.options.delete(Option.MESSAGE_TYPE);
    expect(s.m.handle(bootp, T0)).toBeUndefined();
    const odd = request({ type: 'DISCOVER' });
    odd.options.set(Option.MESSAGE_TYPE, Uint8Array.of(13));
    expect(s.m.handle(odd, T0)).toBeUndefined();
    expect(s.m.stats(T0).ignored).toBe(3);
  });

  it('ignores a client identifier outside 2..255 bytes (RFC 2132 §9.14)', () => {
    const s = setup();
    expect(s.send({ type: 'DISCOVER', clientId: new Uint8Array(300).fill(1) })).toBeUndefined();
    expect(s.send({ type: 'DISCOVER', clientId: Uint8Array.of(1) })).toBeUndefined();
    expect(s.send({ type: 'DISCOVER', clientId: Uint8Array.of(1, 2) })).toBeDefined();
    expect(s.m.stats(T0).ignored).toBe(2);
  });
});

describe('configuration', () => {
  it.each([
    [{ serverAddress: '192.168.2.300' }],
    [{ netmask: '255.0.255.0' }],
    [{ range: ['192.168.3.50', '192.168.3.60'] }],
    [{ range: undefined }],
    [{ range: ['192.168.2.60', '192.168.2.50'] }],
    [{ range: ['192.168.2.0', '192.168.2.10'] }],
    [{ leaseSeconds: 0 }],
    [{ leaseSeconds: 9 }],
    [{ router: 'gateway' }],
    [{ captivePortalUri: 'http://a b/' }],
    [{ options: { 53: 'x' } }],
  ] as const)('refuses %j with DHCP_CONFIG', (bad) => {
    expect(() => createDhcpMachine({ ...BASE, ...(bad as object) })).toThrow(
      expect.objectContaining({ code: 'DHCP_CONFIG' }),
    );
  });

  it('accepts the range as { start, end }', () => {
    const m = createDhcpMachine({ ...BASE, range: { start: '192.168.2.10', end: '192.168.2.11' } });
    expect(m.stats(T0).pool.size).toBe(2);
  });
});

describe('writeReply (the batch transport writes replies with it)', () => {
  const pick = <T>(...values: T[]) => fc.constantFrom(...values);
  const arbSpec: fc.Arbitrary<RequestSpec> = fc.record(
    {
      type: pick('DISCOVER', 'REQUEST', 'DECLINE', 'RELEASE', 'INFORM', 'OFFER', 'ACK', 'NAK'),
      mac: pick('02:00:00:00:00:01', '02:00:00:00:00:02', '02:00:00:00:00:03', '02:00:00:00:00:04'),
      xid: fc.nat({ max: 0xffffffff }),
      flags: pick(0, BROADCAST_FLAG),
      ciaddr: pick('192.168.2.50', '192.168.2.51', '192.168.2.60', '10.0.0.9'),
      giaddr: pick('192.168.2.9', '10.0.0.1'),
      requested: pick('192.168.2.50', '192.168.2.51', '192.168.2.52', '10.0.0.9'),
      serverId: pick('192.168.2.1', '192.168.2.2'),
      // short, long (up to 255) and too long (ignored) client identifiers
      clientId: fc.oneof(
        fc.uint8Array({ minLength: 0, maxLength: 8 }),
        fc.integer({ min: 240, max: 300 }).map((n) => new Uint8Array(n).fill(n & 255)),
      ),
      params: fc.array(pick(1, 3, 6, 15, 28, 42, 51, 53, 58, 114, 119, 200), { maxLength: 12 }),
      maxSize: pick(300, 576, 700, 1500),
      hostname: pick('phone', 'bad name'),
    },
    { requiredKeys: ['type', 'mac', 'xid'] },
  );
  const { router: _router, ...noRouter } = BASE;
  const configs: DhcpMachineOptions[] = [
    BASE,
    { ...BASE, options: { 15: 'example.lan', 42: new Uint8Array(300).fill(7), 119: new Uint8Array(0) } },
    { ...BASE, leaseSeconds: 0xffffffff, captivePortalUri: `http://192.168.2.1/${'p'.repeat(400)}` },
    { ...noRouter, dns: ['192.168.2.1', '192.168.2.2'], authoritative: true, options: { 28: 'x' } },
  ];

  it.each(configs.map((c, i) => [i, c] as const))(
    'writes what encodeMessage makes of handle() for the same request stream, byte for byte (config %i)',
    (_, config) => {
      fc.assert(
        fc.property(fc.array(fc.tuple(arbSpec, fc.nat({ max: 120_000 })), { maxLength: 40 }), (stream) => {
          const a = createDhcpMachine(config);
          const b = createDhcpMachineCore(config);
          const out = Buffer.alloc(6000, 0xee);
          const to = { address: -1, port: -1, direct: -1 };
          let now = T0;
          for (const [spec, step] of stream) {
            now += step;
            const req = request(spec);
            const expected = a.handle(req, now);
            out.fill(0xee);
            const written = b.writeReply(req, now, out, 123, to);
            if (expected === undefined) {
              expect(written).toBe(0);
              continue;
            }
            expect(out.subarray(123, 123 + written)).toEqual(encodeMessage(expected.message));
            expect(out.subarray(0, 123).every((x) => x === 0xee)).toBe(true);
            expect(out.subarray(123 + written).every((x) => x === 0xee)).toBe(true);
            expect(to).toEqual({ address: expected.address, port: expected.port, direct: expected.direct });
          }
          expect(b.stats(now)).toEqual(a.stats(now));
          expect(b.leases(now)).toEqual(a.leases(now));
        }),
        { numRuns: 200 },
      );
    },
  );

  it('refuses a slot too small for the reply with DHCP_ENCODE_BUFFER, writing nothing', () => {
    const b = createDhcpMachineCore(BASE);
    const out = Buffer.alloc(400, 0xee);
    const to = { address: 0, port: 0, direct: 0 };
    expect(() => b.writeReply(request({ type: 'DISCOVER' }), T0, out, 200, to)).toThrow(
      expect.objectContaining({ code: 'DHCP_ENCODE_BUFFER' }),
    );
    expect(out.every((x) => x === 0xee)).toBe(true);
  });
});
