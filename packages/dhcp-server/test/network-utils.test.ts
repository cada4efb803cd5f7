// The defects of @network-utils/dhcp 1.0.10, each shown against the library itself, next to what this
// package does instead. The library stays a devDependency: an independent decoder/encoder to check
// ours against (the interop tests at the end), not code on the server's path.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createDhcpMachine,
  DhcpError,
  decodeMessage,
  encodeMessage,
  formatIpv4,
  MessageType,
  Option,
} from '../src/index.js';
import captured from './fixtures/captured.json' with { type: 'json' };
import { optIp, optU32, request, typeOf } from './helpers.js';

const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: the library ships loose types
const lib: any = require('@network-utils/dhcp');

const CONFIG = {
  serverAddress: '192.168.2.1',
  netmask: '255.255.255.0',
  range: ['192.168.2.50', '192.168.2.200'] as [string, string],
  router: '192.168.2.1',
  dns: '192.168.2.1',
  captivePortalUri: 'http://192.168.2.1/',
};

function libServer() {
  return new lib.Server({ serverId: '192.168.2.1', netmask: '255.255.255.0', gateways: ['192.168.2.1'] });
}

/** A REQUEST built with the library's own Packet class. */
function libRequest(fields: Record<string, unknown>) {
  const p = new lib.Packet();
  Object.assign(p, { op: 1, xid: 42, chaddr: '02:00:00:00:00:01', flags: 0x8000, ...fields });
  p.options.push(new lib.DHCPMessageTypeOption(lib.DHCPMessageType.request));
  return p;
}

describe('@network-utils/dhcp defects, and what we do instead', () => {
  it('createAck copies giaddr into ciaddr; our ACK to a relayed RENEW keeps the client ciaddr', () => {
    const server = libServer();
    const ack = server.createAck(libRequest({ ciaddr: '192.168.2.77', giaddr: '192.168.2.254' }));
    server.socket.close();
    expect(ack.ciaddr).toBe('192.168.2.254'); // the defect: should be 192.168.2.77

    const m = createDhcpMachine(CONFIG);
    const t = 1_700_000_000_000;
    const offer = m.handle(request({ type: 'DISCOVER' }), t)!;
    const yi = formatIpv4(offer.message.yiaddr);
    m.handle(request({ type: 'REQUEST', serverId: '192.168.2.1', requested: yi }), t);
    const ours = m.handle(request({ type: 'REQUEST', ciaddr: yi, giaddr: '192.168.2.254' }), t)!;
    expect(typeOf(ours.message)).toBe(MessageType.ACK);
    expect(formatIpv4(ours.message.ciaddr)).toBe(yi);
  });

  it('createNak drops chaddr and flags; ours copies both (RFC 2131 table 3)', () => {
    const server = libServer();
    const nak = server.createNak(libRequest({ chaddr: '02:00:00:00:00:01', flags: 0x8000 }));
    server.socket.close();
    expect(nak.chaddr).not.toBe('02:00:00:00:00:01');
    expect(nak.flags).toBe(0);

    const ours = createDhcpMachine(CONFIG).handle(
      request({ type: 'REQUEST', requested: '10.0.0.9', flags: 0x8000 }),
      1_700_000_000_000,
    )!;
    expect(typeOf(ours.message)).toBe(MessageType.NAK);
    expect([...ours.message.chaddr.subarray(0, 6)]).toEqual([2, 0, 0, 0, 0, 1]);
    expect(ours.message.flags).toBe(0x8000);
  });

  it('Packet.fromBuffer accepts a wrong magic cookie; decodeMessage refuses it', () => {
    const buf = Buffer.from(captured.discover.udhcpc, 'hex');
    buf.writeUInt32BE(0xdeadbeef, 236);
    expect(() => lib.Packet.fromBuffer(buf)).not.toThrow();
    expect(() => decodeMessage(buf)).toThrow(expect.objectContaining({ code: 'DHCP_DECODE_MAGIC' }));
  });

  it('Packet.fromBuffer reads past an option length without noticing; decodeMessage refuses it', () => {
    const buf = Buffer.concat([
      Buffer.from(captured.discover.udhcpc, 'hex').subarray(0, 240),
      Buffer.from([53, 1, 1, 12, 200, 0x61]),
    ]);
    const p = lib.Packet.fromBuffer(buf);
    expect(p.type).toBe(1); // decoded "fine", with a 1-byte hostname that claimed 200 bytes
    expect(() => decodeMessage(buf)).toThrow(expect.objectContaining({ code: 'DHCP_DECODE_OPTION' }));
  });

  it('its socket listener throws on a short datagram (an uncaught exception in a dgram handler); ours counts it', async () => {
    const sock = new lib.Socket('udp4', 0, 0);
    try {
      expect(() => sock.onMessage(Buffer.alloc(10), { address: '127.0.0.1', port: 68 })).toThrow(RangeError);
    } finally {
      sock.socket.close();
    }
    expect(() => decodeMessage(Buffer.alloc(10))).toThrow(DhcpError);
    // the server side of this is in server.test.ts: malformed datagrams are counted, never thrown
  });

  it('knows no option 114 and never sends 58/59 (it has classes for them, its replies omit them); ours sends all three', () => {
    // The issue said "no types for 58/59/114": 1.0.10 does have RenewalTime/RebindingTime classes,
    // but createOffer/createAck never add them, and 114 has neither a class nor a name.
    expect(lib.Option.create(58)).toBe(lib.RenewalTimeOption);
    expect(lib.Option.create(114)).toBe(lib.UnknownOption);
    expect(lib.DHCPOptions[114]).toBeUndefined();
    const server = libServer();
    const libOffer = server.createOffer(libRequest({}));
    const libAck = server.createAck(libRequest({}));
    server.socket.close();
    for (const p of [libOffer, libAck]) {
      expect(p.find(58)).toBeNull();
      expect(p.find(59)).toBeNull();
    }
    const offer = createDhcpMachine(CONFIG).handle(request({ type: 'DISCOVER' }), 1_700_000_000_000)!.message;
    expect(optU32(offer, Option.RENEWAL_TIME)).toBe(21600);
    expect(optU32(offer, Option.REBINDING_TIME)).toBe(37800);
    expect(Buffer.from(offer.options.get(Option.CAPTIVE_PORTAL)!).toString()).toBe('http://192.168.2.1/');
  });

  it('wraps an option length over 255 into one byte; ours splits the value (RFC 3396)', () => {
    const option = new lib.BufferOption(114, Buffer.alloc(300, 0x61));
    expect(option.toBuffer()[1]).toBe(300 & 255); // 44: the rest of the value becomes garbage options
    const m = request({ type: 'DISCOVER', extra: [[114, Buffer.alloc(300, 0x61)]] });
    expect(decodeMessage(encodeMessage(m)).value.options.get(114)?.length).toBe(300);
  });

  it('does not pad replies to the 300-byte BOOTP minimum (RFC 1542); ours does', () => {
    const server = libServer();
    const offer = server.createOffer(libRequest({}));
    server.socket.close();
    expect(offer.toBuffer().length).toBeLessThan(300);
    const ours = createDhcpMachine({ ...CONFIG, captivePortalUri: undefined }).handle(
      request({ type: 'DISCOVER' }),
      1_700_000_000_000,
    )!;
    expect(encodeMessage(ours.message).length).toBe(300);
  });

  it('its package.json "module" field names a file that is not shipped (bundlers that prefer it fail)', () => {
    const dir = path.dirname(require.resolve('@network-utils/dhcp/package.json'));
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(fs.existsSync(path.join(dir, pkg.module))).toBe(false);
  });
});

describe('interop: the library as an independent codec where it is correct', () => {
  it('decodes our OFFER to the same fields', () => {
    const reply = createDhcpMachine(CONFIG).handle(
      request({ type: 'DISCOVER', xid: 0x01020304, mac: '02:aa:bb:cc:dd:ee' }),
      1_700_000_000_000,
    )!;
    const p = lib.Packet.fromBuffer(encodeMessage(reply.message));
    expect(p.op).toBe(2);
    expect(p.xid).toBe(0x01020304);
    expect(p.type).toBe(lib.DHCPMessageType.offer);
    expect(p.yiaddr).toBe('192.168.2.50');
    expect(p.chaddr).toBe('02:AA:BB:CC:DD:EE');
    expect(p.find(lib.DHCPOptions.SubnetMask).value).toBe('255.255.255.0');
    expect(p.find(lib.DHCPOptions.DhcpServerId).value).toBe('192.168.2.1');
    expect(p.find(lib.DHCPOptions.AddressTime).value).toBe(43200);
  });

  it('we decode a DISCOVER it encodes', () => {
    const p = new lib.Packet();
    Object.assign(p, { op: 1, xid: 7, chaddr: '02:00:00:00:00:07' });
    p.options.push(new lib.DHCPMessageTypeOption(lib.DHCPMessageType.discover));
    p.options.push(new lib.AddressRequestOption('192.168.2.99'));
    const m = decodeMessage(p.toBuffer()).value;
    expect(typeOf(m)).toBe(MessageType.DISCOVER);
    expect(m.xid).toBe(7);
    expect(optIp(m, Option.REQUESTED_ADDRESS)).toBe('192.168.2.99');
  });
});
