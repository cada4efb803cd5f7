import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createDhcpMachine,
  DhcpError,
  type DhcpMessage,
  decodeMessage,
  encodeMessage,
  MessageType,
  messageEncodingLength,
  Option,
} from '../src/index.js';
import { decodeMessageValue } from '../src/message.js';
import captured from './fixtures/captured.json' with { type: 'json' };
import { request, roundTrip, typeOf } from './helpers.js';

const real = Object.entries(captured.discover).map(([name, hex]) => [name, Buffer.from(hex, 'hex')] as const);

describe('decodeMessage on packets captured from real clients', () => {
  it.each(real)('%s DISCOVER decodes to a DHCPDISCOVER with its MAC and parameter list', (_name, buf) => {
    const { value, bytes } = decodeMessage(buf);
    expect(bytes).toBe(buf.length);
    expect(value.op).toBe(1);
    expect(value.hlen).toBe(6);
    expect(typeOf(value)).toBe(MessageType.DISCOVER);
    expect(value.options.get(Option.PARAMETER_LIST)?.length).toBeGreaterThan(2);
    expect(value.options.get(Option.PARAMETER_LIST)).toContain(Option.ROUTER);
  });

  it('udhcpc asked for option 114 (-O 114)', () => {
    const udhcpc = decodeMessage(Buffer.from(captured.discover.udhcpc, 'hex')).value;
    expect(udhcpc.options.get(Option.PARAMETER_LIST)).toContain(Option.CAPTIVE_PORTAL);
  });

  it.each(real)('%s DISCOVER re-encodes to the same bytes up to its END option', (_name, buf) => {
    const value = decodeMessage(buf).value;
    const again = encodeMessage(value);
    const end = (b: Uint8Array) => {
      // position of END in the options area (real clients pad after it)
      let i = 240;
      while (b[i] !== Option.END) i += b[i] === 0 ? 1 : 2 + b[i + 1]!;
      return i;
    };
    expect(Buffer.from(again.subarray(0, end(again) + 1)).toString('hex')).toBe(
      Buffer.from(buf.subarray(0, end(buf) + 1)).toString('hex'),
    );
  });
});

describe('decodeMessage refuses hostile input with a code', () => {
  const good = Buffer.from(captured.discover.udhcpc, 'hex');
  const cases: [string, Buffer, string][] = [
    ['empty', Buffer.alloc(0), 'DHCP_DECODE_TRUNCATED'],
    ['shorter than the header', good.subarray(0, 239), 'DHCP_DECODE_TRUNCATED'],
    [
      'wrong magic cookie (RFC 2131 §3)',
      Buffer.concat([good.subarray(0, 236), Buffer.from([1, 2, 3, 4]), good.subarray(240)]),
      'DHCP_DECODE_MAGIC',
    ],
    [
      'hlen over 16',
      Buffer.concat([good.subarray(0, 2), Buffer.from([17]), good.subarray(3)]),
      'DHCP_DECODE_HLEN',
    ],
    [
      'option length past the end',
      Buffer.concat([good.subarray(0, 240), Buffer.from([53, 1, 1, 12, 40, 65])]),
      'DHCP_DECODE_OPTION',
    ],
    [
      'option without a length byte',
      Buffer.concat([good.subarray(0, 240), Buffer.from([53])]),
      'DHCP_DECODE_OPTION',
    ],
    [
      'bad overload option',
      Buffer.concat([good.subarray(0, 240), Buffer.from([52, 2, 1, 1, 255])]),
      'DHCP_DECODE_OPTION',
    ],
  ];
  it.each(cases)('%s', (_what, buf, code) => {
    expect(() => decodeMessage(buf)).toThrow(expect.objectContaining({ name: 'DhcpError', code }));
  });
});

describe('options', () => {
  it('concatenates repeated instances (RFC 3396) and reads overloaded file/sname (RFC 2131 §4.1)', () => {
    const buf = Buffer.alloc(300);
    const base = encodeMessage(request({ type: 'DISCOVER' }));
    base.copy(buf);
    let i = 240;
    for (const b of [53, 1, 1, 12, 2, 0x61, 0x62, 12, 1, 0x63, 52, 1, 3, 255]) buf[i++] = b;
    // file (108..235) carries option 15, sname (44..107) carries option 17
    buf.fill(0, 44, 236);
    Buffer.from([15, 3, 0x6c, 0x61, 0x6e, 255]).copy(buf, 108);
    Buffer.from([17, 1, 0x2f, 255]).copy(buf, 44);
    const m = decodeMessage(buf).value;
    expect(Buffer.from(m.options.get(12)!).toString()).toBe('abc');
    expect(Buffer.from(m.options.get(15)!).toString()).toBe('lan');
    expect(Buffer.from(m.options.get(17)!).toString()).toBe('/');
    expect(m.options.has(Option.OVERLOAD)).toBe(false);
    expect(m.file.length).toBe(0);
    expect(m.sname.length).toBe(0);
  });

  it('joins thousands of repeated instances in linear time (no quadratic copying)', () => {
    const head = encodeMessage(request({ type: 'DISCOVER' })).subarray(0, 240);
    const repeats = Buffer.alloc(3 * 200_000);
    for (let i = 0; i < 200_000; i++) repeats.set([77, 1, i & 255], i * 3);
    const packet = Buffer.concat([head, Buffer.from([53, 1, 1]), repeats, Buffer.from([255])]);
    // CPU time of this process, not wall time: other work on the machine does not count. Joining the
    // 200 000 instances by copying all earlier bytes each time would take minutes; once is ~0.1 s.
    const t = process.cpuUsage();
    const m = decodeMessage(packet).value;
    const used = process.cpuUsage(t);
    expect((used.user + used.system) / 1000).toBeLessThan(500);
    expect(m.options.get(77)?.length).toBe(200_000);
    expect(m.options.get(77)?.[257]).toBe(1);
  });

  it('splits a value over 255 bytes into instances instead of wrapping the length', () => {
    const m = request({ type: 'DISCOVER', extra: [[224, Buffer.alloc(600, 7)]] });
    const bytes = encodeMessage(m);
    const at = bytes.indexOf(Buffer.from([224, 255]));
    expect(at).toBeGreaterThan(240);
    expect(bytes[at + 2 + 255]).toBe(224);
    expect(bytes[at + 2 + 255 + 1]).toBe(255);
    expect(bytes[at + 2 * (2 + 255)]).toBe(224);
    expect(bytes[at + 2 * (2 + 255) + 1]).toBe(90);
    expect([...roundTrip(m).options.get(224)!]).toEqual(new Array(600).fill(7));
  });

  it('encodes a zero-length option and refuses codes 0 and 255', () => {
    expect(
      roundTrip(request({ type: 'DISCOVER', extra: [[80, new Uint8Array(0)]] })).options.get(80)?.length,
    ).toBe(0);
    expect(() => encodeMessage(request({ type: 'DISCOVER', extra: [[255, Uint8Array.of(1)]] }))).toThrow(
      expect.objectContaining({ code: 'DHCP_ENCODE_FIELD' }),
    );
  });

  it('refuses a too-small external buffer', () => {
    const m = request({ type: 'DISCOVER' });
    expect(() => encodeMessage(m, Buffer.alloc(299))).toThrow(
      expect.objectContaining({ code: 'DHCP_ENCODE_BUFFER' }),
    );
    expect(messageEncodingLength(m)).toBe(300);
  });
});

const arbMessage: fc.Arbitrary<DhcpMessage> = fc.record({
  op: fc.integer({ min: 0, max: 255 }),
  htype: fc.integer({ min: 0, max: 255 }),
  hlen: fc.integer({ min: 0, max: 16 }),
  hops: fc.integer({ min: 0, max: 255 }),
  xid: fc.nat({ max: 0xffffffff }),
  secs: fc.nat({ max: 0xffff }),
  flags: fc.nat({ max: 0xffff }),
  ciaddr: fc.nat({ max: 0xffffffff }),
  yiaddr: fc.nat({ max: 0xffffffff }),
  siaddr: fc.nat({ max: 0xffffffff }),
  giaddr: fc.nat({ max: 0xffffffff }),
  chaddr: fc.uint8Array({ minLength: 16, maxLength: 16 }),
  sname: fc.uint8Array({ minLength: 64, maxLength: 64 }),
  file: fc.uint8Array({ minLength: 128, maxLength: 128 }),
  options: fc
    .array(
      fc.tuple(
        fc.integer({ min: 1, max: 254 }).filter((c) => c !== Option.OVERLOAD),
        fc.uint8Array({ maxLength: 600 }),
      ),
      { maxLength: 12 },
    )
    .map((pairs) => new Map(pairs)),
});

describe('fuzz', () => {
  it('every message round-trips through an external buffer at an offset', () => {
    fc.assert(
      fc.property(arbMessage, (m) => {
        const plain = (x: DhcpMessage) => ({
          ...x,
          chaddr: [...x.chaddr],
          sname: [...x.sname],
          file: [...x.file],
          options: [...x.options].map(([k, v]) => [k, [...v]]),
        });
        expect(plain(roundTrip(m))).toEqual(plain(m));
      }),
      { numRuns: 300 },
    );
  });

  it('random bytes either decode or fail with a DhcpError, never anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 700 }), fc.boolean(), (bytes, cookie) => {
        const buf = Buffer.from(bytes);
        if (cookie && buf.length >= 240) buf.writeUInt32BE(0x63825363, 236);
        try {
          decodeMessage(buf);
        } catch (error) {
          expect(error).toBeInstanceOf(DhcpError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a message decoded in place in a larger buffer reads nothing past its end', () => {
    const plain = (x: DhcpMessage) => ({
      ...x,
      chaddr: [...x.chaddr],
      sname: [...x.sname],
      file: [...x.file],
      options: [...x.options].map(([k, v]) => [k, [...v]]),
    });
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 700 }),
        fc.boolean(),
        fc.nat({ max: 64 }),
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        (bytes, cookie, at, after) => {
          const own = Buffer.from(bytes);
          if (cookie && own.length >= 240) own.writeUInt32BE(0x63825363, 236);
          // the slot: `at` bytes before, the datagram, then bytes that would be options if read
          const big = Buffer.concat([Buffer.alloc(at, 1), own, Buffer.from(after)]);
          let expected: DhcpMessage | DhcpError;
          try {
            expected = decodeMessage(own).value;
          } catch (error) {
            expect(error).toBeInstanceOf(DhcpError);
            expected = error as DhcpError;
          }
          let got: DhcpMessage | DhcpError;
          try {
            got = decodeMessageValue(big, at, at + own.length);
          } catch (error) {
            expect(error).toBeInstanceOf(DhcpError);
            got = error as DhcpError;
          }
          if (expected instanceof DhcpError) expect((got as DhcpError).code).toBe(expected.code);
          else expect(plain(got as DhcpMessage)).toEqual(plain(expected));
        },
      ),
      { numRuns: 2000 },
    );
    expect(() => decodeMessageValue(Buffer.alloc(300), 0, 301)).toThrow(
      expect.objectContaining({ code: 'DHCP_DECODE_TRUNCATED' }),
    );
  });

  it('mutated real packets never make decode or the state machine throw anything but DhcpError', () => {
    const machine = createDhcpMachine({
      serverAddress: '192.168.2.1',
      netmask: '255.255.255.0',
      range: ['192.168.2.50', '192.168.2.52'],
      router: '192.168.2.1',
      dns: '192.168.2.1',
      captivePortalUri: 'http://192.168.2.1/',
    });
    const seeds = real.map(([, b]) => b);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: seeds.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 12 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 8 }),
        (which, edits, cut, type) => {
          const buf = Buffer.from(seeds[which]!);
          for (const [at, v] of edits) buf[240 + (at % (buf.length - 240))] = v;
          buf[242] = type; // 53,1,<type> is the first option in all three captures
          const input = buf.subarray(0, Math.max(cut, 236));
          let m: DhcpMessage;
          try {
            m = decodeMessage(input).value;
          } catch (error) {
            expect(error).toBeInstanceOf(DhcpError);
            return;
          }
          const reply = machine.handle(m, 1_700_000_000_000);
          if (reply) expect(encodeMessage(reply.message).length).toBeGreaterThanOrEqual(300);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
