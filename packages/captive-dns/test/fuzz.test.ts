// Fuzz: valid queries from dns-packet (the oracle checks every reply field), mutated queries and
// random bytes through the responder, then 100 000 hostile datagrams and TCP garbage at a live server,
// which must still answer `dig` afterwards.
import dgram from 'node:dgram';
import net from 'node:net';
import { needs } from '@waved/test-lab';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaptiveDns, createCaptiveDns, createCaptiveDnsResponder } from '../src/index.js';
import { dig } from './dig.js';
import { TRANSPORTS, transportDescribe } from './helpers.js';
import { decodeReply, encodeQuery, RECURSION_DESIRED } from './packet.js';

const ANSWER = '10.1.2.3';
const TYPES = ['A', 'AAAA', 'ANY', 'TXT', 'MX', 'SOA', 'NS', 'PTR', 'SRV', 'CNAME', 'CAA'] as const;

const label = fc.stringMatching(/^[A-Za-z0-9-]{1,63}$/);
const name = fc
  .array(label, { minLength: 1, maxLength: 6 })
  .map((ls) => ls.join('.'))
  .filter((n) => n.length <= 253);
const validQuery = fc.record({
  id: fc.integer({ min: 0, max: 0xffff }),
  rd: fc.boolean(),
  name: fc.oneof(
    { weight: 9, arbitrary: name },
    { weight: 1, arbitrary: fc.constant('USE-application-dns.net') },
  ),
  type: fc.constantFrom(...TYPES),
  edns: fc.boolean(),
});
type ValidQuery = typeof validQuery extends fc.Arbitrary<infer T> ? T : never;

function encode(q: ValidQuery): Buffer {
  return encodeQuery({
    id: q.id,
    flags: q.rd ? RECURSION_DESIRED : 0,
    name: q.name,
    type: q.type,
    edns: q.edns,
  });
}

const mutation = fc.record({ op: fc.integer({ min: 0, max: 6 }), at: fc.nat(), value: fc.nat(255) });

/** Applies byte-level damage: flips, overwrites, truncation, insertions, pointers, count changes. */
function mutate(packet: Buffer, ops: readonly { op: number; at: number; value: number }[]): Buffer {
  let p = Buffer.from(packet);
  for (const { op, at, value } of ops) {
    const i = p.length === 0 ? 0 : at % p.length;
    switch (op) {
      case 0:
        if (p.length) p[i]! ^= 1 << (value & 7);
        break;
      case 1:
        if (p.length) p[i] = value;
        break;
      case 2:
        p = p.subarray(0, i);
        break;
      case 3:
        p = Buffer.concat([p.subarray(0, i), Buffer.from([value, value ^ 0xff]), p.subarray(i)]);
        break;
      case 4: // compression pointer, possibly to itself or forward
        p = Buffer.concat([
          p.subarray(0, i),
          Buffer.from([0xc0 | (value & 0x3f), at & 0xff]),
          p.subarray(i + 2),
        ]);
        break;
      case 5: // header counts
        if (p.length >= 12) p.writeUInt16BE(value % 4, 4 + 2 * (at % 4));
        break;
      default: // label length overflow
        if (p.length > 12) p[12 + (at % (p.length - 12))] = 0x3f + (value % 3);
    }
  }
  return p;
}

function assert(ok: boolean, what: string, query: Buffer): void {
  if (!ok) throw new Error(`${what} for query ${query.toString('hex')}`);
}

/** Invariants for any input: null only without a header or for QR=1, otherwise a sane reply. */
function checkAnyReply(query: Buffer, reply: Buffer | null): void {
  if (query.length < 12 || (query[2]! & 0x80) !== 0) {
    assert(reply === null, 'a reply to a headerless packet or a response', query);
    return;
  }
  assert(reply !== null, 'no reply', query);
  const r = reply!;
  assert(r.readUInt16BE(0) === query.readUInt16BE(0), 'ID not kept', query);
  assert((r[2]! & 0x80) !== 0, 'QR not set', query);
  assert(r.length <= 512 || (query[10]! | query[11]!) !== 0, 'over 512 bytes without EDNS', query);
  const decoded = decodeReply(r); // our replies are always well-formed: this throws if not
  if (decoded.questions.length > 0) {
    let end = 12;
    while (r[end] !== 0) end += 1 + r[end]!;
    end += 5;
    assert(r.subarray(12, end).equals(query.subarray(12, end)), 'question not echoed byte for byte', query);
  } else {
    assert(
      r.length === 12 && [1, 4].includes(r[3]! & 0x0f),
      'an empty reply that is not FORMERR/NOTIMP',
      query,
    );
  }
  for (const a of decoded.answers) {
    assert(a.type === 'A' && a.data === ANSWER, 'an answer other than our A', query);
  }
}

/** xorshift32: the same hostile corpus on every run. */
function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

const EDGE = [
  Buffer.alloc(0),
  Buffer.alloc(1),
  Buffer.alloc(11),
  Buffer.from([0, 1, 0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0]),
];

/** n packets: 70% mutated valid queries, 25% random bytes, 5% edge cases (empty, short, QR=1). */
function corpus(n: number, seed: number): Buffer[] {
  const rnd = prng(seed);
  const int = (k: number) => Math.floor(rnd() * k);
  const names = [
    'a',
    'connectivitycheck.gstatic.com',
    'WwW.ExAmPlE.oRg',
    'use-application-dns.net',
    'x'.repeat(63) + '.y',
  ];
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const kind = rnd();
    if (kind < 0.7) {
      const q = encode({
        id: int(65536),
        rd: rnd() < 0.5,
        name: names[int(names.length)]!,
        type: TYPES[int(TYPES.length)]!,
        edns: rnd() < 0.5,
      });
      const ops = Array.from({ length: 1 + int(6) }, () => ({
        op: int(7),
        at: int(1 << 16),
        value: int(256),
      }));
      out.push(mutate(q, ops));
    } else if (kind < 0.95) {
      const b = Buffer.alloc(int(300));
      for (let j = 0; j < b.length; j++) b[j] = int(256);
      if (b.length > 2 && rnd() < 0.5) b[2]! &= 0x7f; // mostly queries, so the parser goes deep
      out.push(b);
    } else {
      out.push(EDGE[int(EDGE.length)]!);
    }
  }
  return out;
}

const HOSTILE = corpus(100_000, 0x5eed);

describe('fuzzing the responder', () => {
  const responder = createCaptiveDnsResponder({ answer: ANSWER });

  it('answers valid queries exactly as the policy says (dns-packet as the oracle)', () => {
    fc.assert(
      fc.property(validQuery, (q) => {
        const query = encode(q);
        const r = decodeReply(responder.respond(query)!);
        const canary = q.name.toLowerCase() === 'use-application-dns.net';
        expect(r.id).toBe(q.id);
        expect(r.flag_rd).toBe(q.rd);
        expect(r.questions).toEqual([{ name: q.name, type: q.type, class: 'IN' }]);
        expect(r.rcode).toBe(canary ? 'NXDOMAIN' : 'NOERROR');
        const answered = !canary && (q.type === 'A' || q.type === 'ANY');
        expect(r.answers.map((a) => [a.name, a.type, a.data])).toEqual(
          answered ? [[q.name, 'A', ANSWER]] : [],
        );
        expect(r.authorities.map((a) => a.type)).toEqual(answered ? [] : ['SOA']);
        expect(r.additionals.map((a) => a.type)).toEqual(q.edns ? ['OPT'] : []);
      }),
      { numRuns: 2_000 },
    );
  });

  it('survives mutated queries and random bytes of any shape (fast-check, shrinking)', () => {
    fc.assert(
      fc.property(validQuery, fc.array(mutation, { minLength: 1, maxLength: 6 }), (q, ops) => {
        const packet = mutate(encode(q), ops);
        checkAnyReply(packet, responder.respond(packet));
      }),
      { numRuns: 5_000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 600 }), (bytes) => {
        const packet = Buffer.from(bytes);
        checkAnyReply(packet, responder.respond(packet));
      }),
      { numRuns: 5_000 },
    );
  });

  it('survives 100 000 hostile packets: truncated headers, pointer loops, label overflows, empty packets', () => {
    const before = responder.counters();
    for (const packet of HOSTILE) checkAnyReply(packet, responder.respond(packet));
    const after = responder.counters();
    expect(after.queries - before.queries).toBe(100_000);
    expect(after.internalErrors).toBe(0);
    expect(after.malformed - before.malformed).toBeGreaterThan(10_000);
    expect(after.formerr - before.formerr).toBeGreaterThan(10_000);
    expect(after.noerror - before.noerror).toBeGreaterThan(1_000); // mutations that stayed valid
  });
});

const lab = needs({ root: true, peers: ['dig'] });

for (const transport of TRANSPORTS) {
  transportDescribe(
    transport,
    'fuzzing a live server',
    () => {
      let server: CaptiveDns;
      let port = 0;
      beforeAll(async () => {
        server = createCaptiveDns({
          answer: ANSWER,
          port: 0,
          rateLimit: { queriesPerSecond: 1e9 },
          transport,
        });
        port = (await server.listen()).port;
      });
      afterAll(() => server?.close());

      it('takes 100 000 hostile datagrams and TCP garbage, then still answers dig over UDP and TCP', async () => {
        const packets = HOSTILE;
        const sock = dgram.createSocket('udp4');
        sock.on('message', () => {});
        await new Promise<void>((r) => sock.connect(port, '127.0.0.1', r));
        // Small batches, then a turn of the event loop: the server shares this process, the kernel queue
        // of a UDP socket holds only a few hundred datagrams, and libuv reads 32 per turn.
        for (let i = 0; i < packets.length; i += 16) {
          for (let j = i; j < i + 16 && j < packets.length; j++) sock.send(packets[j]!);
          await new Promise((r) => setImmediate(r));
        }
        await new Promise<void>((r) => sock.close(r));

        // TCP: a frame of garbage, a zero-length frame, a frame cut off mid-way, then a hang-up.
        for (const bytes of [
          Buffer.from([0, 3, 1, 2, 3]),
          Buffer.from([0, 0]),
          Buffer.from([0xff, 0xff, 1, 2, 3]),
          Buffer.concat(
            packets
              .slice(0, 50)
              .map((p) => Buffer.concat([Buffer.from([p.length >> 8, p.length & 0xff]), p])),
          ),
        ]) {
          await new Promise<void>((resolve) => {
            const s = net.connect({ port, host: '127.0.0.1' }, () => s.end(bytes));
            s.on('error', () => resolve());
            s.on('close', () => resolve());
            s.resume();
          });
        }

        const a = await dig(port, ['after.fuzz', 'A']);
        expect(a.answer[0]?.slice(3)).toEqual(['A', ANSWER]);
        const t = await dig(port, ['after.fuzz', 'A', '+tcp']);
        expect(t.answer[0]?.slice(3)).toEqual(['A', ANSWER]);
        const s = server.stats();
        expect(server.transport).toBe(transport);
        expect(s.handlerErrors).toBe(0);
        expect(s.internalErrors).toBe(0);
        expect(s.udpQueries).toBeGreaterThan(95_000); // the kernel may drop a few in a burst
        expect(s.malformed).toBeGreaterThan(1000);
      }, 120_000);
    },
    lab,
  );
}
