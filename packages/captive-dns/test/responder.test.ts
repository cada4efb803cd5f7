// The transport-free responder, checked with dns-packet as the reference decoder.
import { describe, expect, it } from 'vitest';
import { CAPTIVE_DNS_POLICY, createCaptiveDnsResponder } from '../src/index.js';
import { query } from './helpers.js';
import { DNSSEC_OK, decodeReply } from './packet.js';

const responder = () => createCaptiveDnsResponder({ answer: '192.168.2.1', ttl: 30 });

function decode(reply: Buffer | null) {
  expect(reply).not.toBeNull();
  return decodeReply(reply!);
}

/** A hand-made query: header fields and raw bytes after the header. */
function raw(
  fields: { id?: number; flags?: number; qd?: number; an?: number; ns?: number; ar?: number },
  body: number[],
) {
  const h = Buffer.alloc(12);
  h.writeUInt16BE(fields.id ?? 0xbeef, 0);
  h.writeUInt16BE(fields.flags ?? 0x0100, 2);
  h.writeUInt16BE(fields.qd ?? 1, 4);
  h.writeUInt16BE(fields.an ?? 0, 6);
  h.writeUInt16BE(fields.ns ?? 0, 8);
  h.writeUInt16BE(fields.ar ?? 0, 10);
  return Buffer.concat([h, Buffer.from(body)]);
}
const FOO = [3, 0x66, 0x6f, 0x6f, 0]; // foo.
const A_IN = [0, 1, 0, 1];
const OPT = (version = 0, rdata: number[] = []) => [
  0,
  0,
  41,
  0x10,
  0,
  0,
  version,
  0,
  0,
  rdata.length >> 8,
  rdata.length & 0xff,
  ...rdata,
];

describe('policy', () => {
  it('A: one A record with the TTL, AA and RA set, RD copied, ID kept', () => {
    const r = decode(responder().respond(query('Portal.Example', 'A', { id: 4242 })));
    expect(r.id).toBe(4242);
    expect(r.rcode).toBe('NOERROR');
    expect(r.flag_aa).toBe(true);
    expect(r.flag_rd).toBe(true);
    expect(r.flag_ra).toBe(true);
    expect(r.questions).toEqual([{ name: 'Portal.Example', type: 'A', class: 'IN' }]);
    expect(r.answers).toEqual([
      expect.objectContaining({
        name: 'Portal.Example',
        type: 'A',
        class: 'IN',
        ttl: 30,
        data: '192.168.2.1',
      }),
    ]);
    expect(r.authorities).toEqual([]);
  });

  it('RD clear in the query stays clear in the reply', () => {
    const r = decode(responder().respond(query('x', 'A', { flags: 0 })));
    expect(r.flag_rd).toBe(false);
  });

  it('ANY: only the A record (RFC 8482)', () => {
    const r = decode(responder().respond(query('a.b', 'ANY')));
    expect(r.answers.map((a) => [a.type, a.data])).toEqual([['A', '192.168.2.1']]);
  });

  it.each(['AAAA', 'TXT', 'MX', 'SOA', 'NS', 'PTR', 'SRV', 'CAA'] as const)(
    '%s: NOERROR, no answer, SOA in authority with MINIMUM = TTL',
    (type) => {
      const r = decode(responder().respond(query('a.b', type)));
      expect(r.rcode).toBe('NOERROR');
      expect(r.flag_aa).toBe(true);
      expect(r.answers).toEqual([]);
      expect(r.authorities).toHaveLength(1);
      const soa = r.authorities[0] as { type: string; ttl: number; data: { minimum: number } };
      expect(soa.type).toBe('SOA');
      expect(soa.ttl).toBe(30);
      expect(soa.data.minimum).toBe(30);
    },
  );

  it.each([64, 65, 4711])('type %i (SVCB, HTTPS, unknown): NODATA', (type) => {
    const reply = responder().respond(raw({}, [...FOO, type >> 8, type & 0xff, 0, 1]));
    const r = decode(reply);
    expect(r.rcode).toBe('NOERROR');
    expect(r.answers).toEqual([]);
    expect(r.authorities).toHaveLength(1);
    expect(reply!.readUInt16BE(12 + FOO.length)).toBe(type);
  });

  it('use-application-dns.net: NXDOMAIN for every type and case', () => {
    for (const name of ['use-application-dns.net', 'Use-Application-DNS.NET']) {
      for (const type of ['A', 'AAAA', 'HTTPS'] as const) {
        const r = decode(responder().respond(query(name, type)));
        expect(r.rcode).toBe('NXDOMAIN');
        expect(r.authorities).toHaveLength(1);
      }
    }
    // A control character that equals '-' | 0x20 must not match (only A-Z are folded).
    const lookalike = Buffer.from(query('use-application-dns.net'));
    lookalike[12 + 4] = 0x0d;
    expect(decode(responder().respond(lookalike)).rcode).toBe('NOERROR');
  });

  it('class CH: REFUSED; class ANY: answered as IN', () => {
    expect(decode(responder().respond(raw({}, [...FOO, 0, 16, 0, 3]))).rcode).toBe('REFUSED');
    const any = decode(responder().respond(raw({}, [...FOO, 0, 1, 0, 255])));
    expect(any.answers).toHaveLength(1);
  });

  it('the question comes back byte for byte, even bytes dns-packet would not round-trip', () => {
    const name = [5, 0x41, 0x2e, 0xff, 0x00, 0x62, 3, 0x43, 0x6f, 0x4d, 0]; // "A.\xff\0b" . "CoM"
    const q = raw({}, [...name, ...A_IN]);
    const reply = responder().respond(q)!;
    expect(reply.subarray(12, 12 + name.length + 4)).toEqual(q.subarray(12));
  });

  it('the table has a row for every outcome the responder produces', () => {
    const outcomes = new Set(CAPTIVE_DNS_POLICY.map((r) => r.outcome));
    expect([...outcomes].sort()).toEqual(
      ['answer-a', 'badvers', 'drop', 'formerr', 'nodata', 'notimp', 'nxdomain', 'refused'].sort(),
    );
    for (const row of CAPTIVE_DNS_POLICY) expect(row.rfc).toMatch(/^RFC \d+/);
  });
});

describe('EDNS (RFC 6891)', () => {
  it('OPT is echoed with our size 1232, version 0, DO copied', () => {
    const q = raw({ ar: 1 }, [...FOO, ...A_IN, ...OPT()]);
    q[12 + FOO.length + 4 + 7] = 0x80; // DO
    const r = decode(responder().respond(q));
    const opt = r.additionals[0]!;
    expect(opt.type).toBe('OPT');
    expect(opt.udpPayloadSize).toBe(1232);
    expect(opt.flags! & DNSSEC_OK).toBe(DNSSEC_OK);
    expect(r.answers).toHaveLength(1);
  });

  it('version 1: BADVERS (extended RCODE 16) with OPT version 0 and no answer', () => {
    const reply = responder().respond(raw({ ar: 1 }, [...FOO, ...A_IN, ...OPT(1)]))!;
    const r = decode(reply);
    expect(r.answers).toEqual([]);
    expect(reply[3]! & 0x0f).toBe(0);
    const opt = reply.subarray(reply.length - 11);
    expect(opt[5]).toBe(1); // high 8 bits of 16
    expect(opt[6]).toBe(0);
  });

  it('options that tile the RDATA are accepted (COOKIE), broken ones are FORMERR', () => {
    const cookie = [0, 10, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8];
    expect(decode(responder().respond(raw({ ar: 1 }, [...FOO, ...A_IN, ...OPT(0, cookie)]))).rcode).toBe(
      'NOERROR',
    );
    const broken = [0, 10, 0, 9, 1, 2, 3, 4, 5, 6, 7, 8];
    expect(decode(responder().respond(raw({ ar: 1 }, [...FOO, ...A_IN, ...OPT(0, broken)]))).rcode).toBe(
      'FORMERR',
    );
  });

  it.each([
    ['two OPT records', raw({ ar: 2 }, [...FOO, ...A_IN, ...OPT(), ...OPT()])],
    ['OPT with a non-root owner', raw({ ar: 1 }, [...FOO, ...A_IN, 1, 0x61, ...OPT()])],
    ['OPT in the answer section', raw({ an: 1 }, [...FOO, ...A_IN, ...OPT()])],
  ])('%s: FORMERR without OPT', (_, q) => {
    const reply = responder().respond(q)!;
    expect(reply).toHaveLength(12);
    expect(reply[3]! & 0x0f).toBe(1);
  });
});

describe('hostile and odd packets', () => {
  it.each([
    ['zero bytes', Buffer.alloc(0)],
    ['one byte', Buffer.from([1])],
    ['an 11-byte header', Buffer.alloc(11)],
  ])('%s: no reply, counted as malformed', (_, q) => {
    const r = responder();
    expect(r.respond(q)).toBeNull();
    expect(r.counters().malformed).toBe(1);
  });

  it('QR=1 (a response): dropped and counted, so two servers cannot loop', () => {
    const r = responder();
    const q = Buffer.from(query('x'));
    q[2]! |= 0x80;
    expect(r.respond(q)).toBeNull();
    expect(r.counters().responsesDropped).toBe(1);
  });

  it.each([1, 2, 4, 5, 15])('opcode %i: NOTIMP, header only, opcode echoed', (opcode) => {
    const q = Buffer.from(query('x', 'A', { id: 77 }));
    q[2] = (opcode << 3) | 1;
    const reply = responder().respond(q)!;
    expect(reply).toHaveLength(12);
    expect(reply.readUInt16BE(0)).toBe(77);
    expect((reply[2]! >> 3) & 0x0f).toBe(opcode);
    expect(reply[3]! & 0x0f).toBe(4);
  });

  const formerr: [string, Buffer][] = [
    ['QDCOUNT 0', raw({ qd: 0 }, [])],
    ['QDCOUNT 2', raw({ qd: 2 }, [...FOO, ...A_IN, ...FOO, ...A_IN])],
    ['a header alone', raw({}, [])],
    ['a name with no end', raw({}, [3, 0x66, 0x6f, 0x6f])],
    ['a label longer than the packet', raw({}, [63, 0x61, 0])],
    ['no QTYPE/QCLASS', raw({}, [...FOO, 0, 1])],
    ['a compression pointer in the question', raw({}, [0xc0, 12, ...A_IN])],
    ['a pointer loop in the question', raw({}, [1, 0x61, 0xc0, 12, ...A_IN])],
    ['label type 0x40', raw({}, [0x41, 0, ...A_IN])],
    ['label type 0x80', raw({}, [0x81, 0, ...A_IN])],
    [
      'a 256-octet name',
      raw({}, [
        ...Array(4)
          .fill([63, ...Array(63).fill(0x61)])
          .flat(),
        0,
        ...A_IN,
      ]),
    ],
    ['ARCOUNT promising a record that is not there', raw({ ar: 1 }, [...FOO, ...A_IN])],
    [
      'a record whose RDLENGTH overruns',
      raw({ ar: 1 }, [...FOO, ...A_IN, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 9, 1]),
    ],
    ['a name in the additional section that runs off the end', raw({ ar: 1 }, [...FOO, ...A_IN, 5, 0x61])],
  ];
  it.each(formerr)('%s: FORMERR, header only, ID kept', (_, q) => {
    const r = responder();
    const reply = r.respond(q)!;
    expect(reply).toHaveLength(12);
    expect(reply.readUInt16BE(0)).toBe(0xbeef);
    expect(reply[2]! & 0x80).toBe(0x80);
    expect(reply[3]! & 0x0f).toBe(1);
    expect(r.counters()).toMatchObject({ formerr: 1, malformed: 1 });
  });

  it('a 255-octet name is accepted; a pointer loop in the additional section is skipped, not followed', () => {
    const name255 = [
      ...Array(3)
        .fill([63, ...Array(63).fill(0x61)])
        .flat(),
      61,
      ...Array(61).fill(0x62),
      0,
    ];
    expect(name255).toHaveLength(255);
    expect(decode(responder().respond(raw({}, [...name255, ...A_IN]))).answers).toHaveLength(1);
    // Additional record owned by a pointer to itself: skipping needs only its two bytes.
    const at = 12 + FOO.length + 4;
    const loop = raw({ ar: 1 }, [...FOO, ...A_IN, 0xc0, at, 0, 16, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect(decode(responder().respond(loop)).answers).toHaveLength(1);
  });
});

describe('size limits', () => {
  it('the largest possible reply (255-octet name, NODATA + SOA + OPT) is far below 512', () => {
    const name255 = [
      ...Array(3)
        .fill([63, ...Array(63).fill(0x61)])
        .flat(),
      61,
      ...Array(61).fill(0x62),
      0,
    ];
    const reply = responder().respond(raw({ ar: 1 }, [...name255, 0, 28, 0, 1, ...OPT()]))!;
    expect(reply.length).toBe(358); // the figure the README gives
    expect(reply[2]! & 0x02).toBe(0); // no TC
  });
});

describe('documentation', () => {
  it('the README policy table is the exported table, row for row', async () => {
    const { readFile } = await import('node:fs/promises');
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const rows = readme
      .split('\n')
      .filter((l) => l.startsWith('| '))
      .map((l) =>
        l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    const start = rows.findIndex((r) => r[0] === 'query' && r[2] === 'why');
    const table = rows.slice(start + 2, start + 2 + CAPTIVE_DNS_POLICY.length);
    expect(table).toEqual(CAPTIVE_DNS_POLICY.map((r) => [r.query, r.reply, r.rfc]));
  });
});
