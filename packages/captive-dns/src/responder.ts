// The transport-free core: one query in, one reply (or nothing) out. The UDP and TCP listeners in
// server.ts both call it; it can also be embedded behind another transport.
import net from 'node:net';
import dnsPacket from 'dns-packet';
import { CaptiveDnsError } from './errors.js';
import { decide, RCODE } from './policy.js';
import {
  createParsedQuery,
  HEADER_BYTES,
  PARSE_FORMERR,
  PARSE_NOTIMP,
  PARSE_OK,
  PARSE_RESPONSE,
  parseQuery,
} from './wire.js';

export type Transport = 'udp' | 'tcp';

export interface CaptiveDnsResponderOptions {
  /** IPv4 address every A and ANY query resolves to, e.g. `192.168.2.1`. */
  answer: string;
  /** TTL of the A record and of the SOA (negative caching, RFC 2308 §5); default 0 as dnsmasq. */
  ttl?: number;
}

/** Counters, all monotonically increasing. */
export interface CaptiveDnsCounters {
  /** Packets handed to the responder (after the rate limit). */
  queries: number;
  /** Replies produced. */
  replies: number;
  noerror: number;
  nodata: number;
  nxdomain: number;
  formerr: number;
  notimp: number;
  refused: number;
  badvers: number;
  /** Replies cut to the question with TC=1 because they did not fit the UDP limit. */
  truncated: number;
  /** Packets shorter than a header or with a bad name or record (FORMERR replies included). */
  malformed: number;
  /** Packets with QR=1, dropped. */
  responsesDropped: number;
  /** Exceptions caught around the responder: a bug if ever above 0 (the packet is dropped). */
  internalErrors: number;
}

export interface CaptiveDnsResponder {
  /**
   * The reply to `query` (a complete DNS message), or `null` when nothing must be sent. UDP replies
   * fit 512 bytes, or the EDNS size the client announced, or carry TC=1 (RFC 1035 §4.2.1,
   * RFC 6891 §6.2.5). Never throws.
   */
  respond(query: Uint8Array, transport?: Transport): Buffer | null;
  counters(): CaptiveDnsCounters;
}

/** Our EDNS UDP payload size (the DNS Flag Day 2020 value). */
export const EDNS_UDP_SIZE = 1232;
const OPT_BYTES = 11;
const ANSWER_BYTES = 16;
const MAX_TTL = 0x7fffffff; // RFC 2181 §8

function validate(options: CaptiveDnsResponderOptions): { answer: Uint8Array; ttl: number } {
  if (typeof options?.answer !== 'string' || net.isIPv4(options.answer) === false) {
    throw new CaptiveDnsError(
      'CAPTIVE_DNS_OPTIONS',
      `answer must be an IPv4 address such as 192.168.2.1, got ${JSON.stringify(options?.answer)}`,
    );
  }
  const ttl = options.ttl ?? 0;
  if (!Number.isInteger(ttl) || ttl < 0 || ttl > MAX_TTL) {
    throw new CaptiveDnsError(
      'CAPTIVE_DNS_OPTIONS',
      `ttl must be an integer from 0 to ${MAX_TTL}, got ${ttl}`,
    );
  }
  return { answer: Uint8Array.from(options.answer.split('.').map(Number)), ttl };
}

/** Builds the responder; `answer` and `ttl` are baked into reply templates once. */
export function createCaptiveDnsResponder(options: CaptiveDnsResponderOptions): CaptiveDnsResponder {
  const { answer, ttl } = validate(options);

  // A record whose owner is a pointer to the question name at offset 12 (RFC 1035 §4.1.4).
  const answerRr = Buffer.alloc(ANSWER_BYTES);
  answerRr.writeUInt16BE(0xc00c, 0);
  answerRr.writeUInt16BE(1, 2); // A
  answerRr.writeUInt16BE(1, 4); // IN
  answerRr.writeUInt32BE(ttl, 6);
  answerRr.writeUInt16BE(4, 10);
  answerRr.set(answer, 12);

  // SOA for the authority section of NODATA and NXDOMAIN (RFC 2308 §3); MINIMUM = TTL so negative
  // answers are cached no longer than positive ones (RFC 2308 §5).
  // Encoded by dns-packet as the lone authority record of an otherwise empty message.
  const soaRr = dnsPacket
    .encode({
      type: 'response',
      authorities: [
        {
          type: 'SOA',
          name: '.',
          ttl,
          class: 'IN',
          data: {
            mname: 'captive.invalid',
            rname: 'hostmaster.captive.invalid',
            serial: 1,
            refresh: 3600,
            retry: 600,
            expire: 86400,
            minimum: ttl,
          },
        },
      ],
    })
    .subarray(HEADER_BYTES);

  const scratch = createParsedQuery();
  const c: CaptiveDnsCounters = {
    queries: 0,
    replies: 0,
    noerror: 0,
    nodata: 0,
    nxdomain: 0,
    formerr: 0,
    notimp: 0,
    refused: 0,
    badvers: 0,
    truncated: 0,
    malformed: 0,
    responsesDropped: 0,
    internalErrors: 0,
  };

  /** Header-only reply (FORMERR, NOTIMP): ID, opcode and RD copied, counts zero. */
  function headerOnly(query: Uint8Array, rcode: number): Buffer {
    const out = Buffer.alloc(HEADER_BYTES);
    out[0] = query[0]!;
    out[1] = query[1]!;
    out[2] = 0x80 | (query[2]! & 0x79);
    out[3] = 0x80 | rcode;
    c.replies++;
    return out;
  }

  function writeOpt(out: Buffer, at: number, extRcode: number, dnssecOk: boolean): void {
    // RFC 6891 §6.1.2: root owner, TYPE 41, CLASS = our UDP size, TTL = ext-RCODE|version|DO|Z.
    out[at] = 0;
    out[at + 1] = 0;
    out[at + 2] = 41;
    out[at + 3] = EDNS_UDP_SIZE >> 8;
    out[at + 4] = EDNS_UDP_SIZE & 0xff;
    out[at + 5] = extRcode;
    out[at + 6] = 0; // version 0
    out[at + 7] = dnssecOk ? 0x80 : 0; // DO copied (RFC 3225 §3)
    out[at + 8] = 0;
    out[at + 9] = 0;
    out[at + 10] = 0;
  }

  function respond(query: Uint8Array, transport: Transport = 'udp'): Buffer | null {
    c.queries++;
    const len = query.length;
    const q = parseQuery(query, len, scratch);
    if (q.status !== PARSE_OK) {
      if (q.status === PARSE_RESPONSE) {
        c.responsesDropped++;
        return null;
      }
      if (q.status === PARSE_NOTIMP) {
        c.notimp++;
        return headerOnly(query, RCODE.NOTIMP);
      }
      c.malformed++;
      if (q.status === PARSE_FORMERR) {
        c.formerr++;
        return headerOnly(query, RCODE.FORMERR);
      }
      return null; // shorter than a header
    }

    const badvers = q.edns && q.ednsVersion !== 0;
    const outcome = badvers ? 'badvers' : decide(q.qtype, q.qclass, q.canary);
    const withAnswer = outcome === 'answer-a';
    const withSoa = outcome === 'nodata' || outcome === 'nxdomain';
    const qEnd = q.questionEnd;
    let size = qEnd + (withAnswer ? ANSWER_BYTES : 0) + (withSoa ? soaRr.length : 0);
    const optAt = size;
    if (q.edns) size += OPT_BYTES;

    // UDP limit: 512 without EDNS (RFC 1035 §4.2.1), else the requestor's size (RFC 6891 §6.2.5).
    const limit = transport === 'tcp' ? 0xffff : q.edns ? q.ednsUdpSize : 512;
    const truncate = size > limit;

    const out = Buffer.allocUnsafe(truncate ? qEnd + (q.edns ? OPT_BYTES : 0) : size);
    // Header and question copied byte for byte: ID, and the name with its 0x20 mixed case.
    if (Buffer.isBuffer(query)) query.copy(out, 0, 0, qEnd);
    else out.set(query.subarray(0, qEnd), 0);
    let rcode: number = RCODE.NOERROR;
    let aa = 0x04;
    switch (outcome) {
      case 'answer-a':
        c.noerror++;
        break;
      case 'nodata':
        c.nodata++;
        break;
      case 'nxdomain':
        rcode = RCODE.NXDOMAIN;
        c.nxdomain++;
        break;
      case 'refused':
        rcode = RCODE.REFUSED;
        aa = 0;
        c.refused++;
        break;
      default:
        aa = 0;
        c.badvers++; // BADVERS = 16: low 4 bits (0) in the header, high 8 bits (1) in the OPT
    }
    out[2] = 0x80 | aa | (truncate ? 0x02 : 0) | (query[2]! & 0x01);
    out[3] = 0x80 | rcode; // RA, as dnsmasq: clients use us as their resolver
    out[6] = 0;
    out[7] = withAnswer && !truncate ? 1 : 0;
    out[8] = 0;
    out[9] = withSoa && !truncate ? 1 : 0;
    out[10] = 0;
    out[11] = q.edns ? 1 : 0;
    if (truncate) {
      c.truncated++;
      // RFC 6891 §7: the OPT stays in a truncated reply.
      if (q.edns) writeOpt(out, qEnd, badvers ? RCODE.BADVERS >> 4 : 0, q.ednsDo);
    } else {
      if (withAnswer) out.set(answerRr, qEnd);
      else if (withSoa) out.set(soaRr, qEnd);
      if (q.edns) writeOpt(out, optAt, badvers ? RCODE.BADVERS >> 4 : 0, q.ednsDo);
    }
    c.replies++;
    return out;
  }

  function safeRespond(query: Uint8Array, transport?: Transport): Buffer | null {
    try {
      return respond(query, transport);
    } catch {
      // Unreachable by design (the parser is bounds-checked); still, a packet never escapes as a throw.
      c.internalErrors++;
      return null;
    }
  }

  return {
    respond: safeRespond,
    counters: () => ({ ...c }),
  };
}
