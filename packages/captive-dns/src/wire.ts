// Bounds-checked reader for DNS queries. It never throws and never allocates: the caller passes a
// scratch object that is filled in place (one per responder), so the hot path stays allocation-free.
import { DOH_CANARY, TYPE } from './policy.js';

export const PARSE_OK = 0;
/** Shorter than a header: nothing to reply to. */
const PARSE_SHORT = 1;
/** QR=1: a response, never answered (reflection loops). */
export const PARSE_RESPONSE = 2;
export const PARSE_NOTIMP = 3;
export const PARSE_FORMERR = 4;

type ParseStatus =
  | typeof PARSE_OK
  | typeof PARSE_SHORT
  | typeof PARSE_RESPONSE
  | typeof PARSE_NOTIMP
  | typeof PARSE_FORMERR;

export const HEADER_BYTES = 12;
/** RFC 1035 §2.3.4: a name is at most 255 octets on the wire, length bytes and root included. */
const MAX_NAME_BYTES = 255;

export interface ParsedQuery {
  status: ParseStatus;
  /** Offset just past QTYPE/QCLASS: bytes [0, questionEnd) are the header and the question. */
  questionEnd: number;
  qtype: number;
  qclass: number;
  /** The name is use-application-dns.net (ASCII case-insensitive). */
  canary: boolean;
  /** An OPT record was present (RFC 6891). */
  edns: boolean;
  ednsVersion: number;
  /** Requestor's UDP payload size, raised to 512 when smaller (RFC 6891 §6.2.5). */
  ednsUdpSize: number;
  /** The DO bit (RFC 3225), copied into our OPT. */
  ednsDo: boolean;
}

export function createParsedQuery(): ParsedQuery {
  return {
    status: PARSE_SHORT,
    questionEnd: 0,
    qtype: 0,
    qclass: 0,
    canary: false,
    edns: false,
    ednsVersion: 0,
    ednsUdpSize: 512,
    ednsDo: false,
  };
}

// use-application-dns.net in wire form, lower case.
const CANARY_WIRE = (() => {
  const out: number[] = [];
  for (const label of DOH_CANARY.split('.')) {
    out.push(label.length);
    for (let i = 0; i < label.length; i++) out.push(label.charCodeAt(i));
  }
  out.push(0);
  return Uint8Array.from(out);
})();

function isCanary(buf: Uint8Array, start: number, end: number): boolean {
  if (end - start !== CANARY_WIRE.length) return false;
  for (let i = 0; i < CANARY_WIRE.length; i++) {
    let c = buf[start + i]!;
    if (c >= 0x41 && c <= 0x5a) c |= 0x20; // ASCII letters only (RFC 4343 §3)
    if (c !== CANARY_WIRE[i]) return false;
  }
  return true;
}

/**
 * Skips a name that may end in a compression pointer, for records after the question. Returns the
 * offset after it, or -1 when it runs off the packet, uses a reserved label type or exceeds 255
 * octets. Pointers are not followed: skipping needs only their two bytes, so loops cannot happen.
 */
function skipName(buf: Uint8Array, off: number, len: number): number {
  const start = off;
  for (;;) {
    if (off >= len) return -1;
    const l = buf[off]!;
    if (l === 0) return off + 1;
    const kind = l & 0xc0;
    if (kind === 0xc0) return off + 2 <= len ? off + 2 : -1; // RFC 1035 §4.1.4
    if (kind !== 0) return -1; // 0x40 / 0x80: extended label types, not supported (RFC 6891 §5)
    off += 1 + l;
    if (off - start >= MAX_NAME_BYTES) return -1; // RFC 1035 §2.3.4 (with room for the root byte)
  }
}

/** Parses `buf[0, len)` as a query into `out`. Never throws; every read is checked against `len`. */
export function parseQuery(buf: Uint8Array, len: number, out: ParsedQuery): ParsedQuery {
  out.edns = false;
  out.ednsVersion = 0;
  out.ednsUdpSize = 512;
  out.ednsDo = false;
  out.canary = false;
  out.questionEnd = 0;
  // RFC 1035 §4.1.1: the header is 12 octets.
  if (len < HEADER_BYTES) {
    out.status = PARSE_SHORT;
    return out;
  }
  const flags = buf[2]!;
  if (flags & 0x80) {
    out.status = PARSE_RESPONSE;
    return out;
  }
  if ((flags & 0x78) !== 0) {
    out.status = PARSE_NOTIMP; // OPCODE ≠ QUERY (RFC 1035 §4.1.1)
    return out;
  }
  // Exactly one question (RFC 9619 §4: a QUERY with QDCOUNT ≠ 1 is FORMERR).
  if (buf[4] !== 0 || buf[5] !== 1) {
    out.status = PARSE_FORMERR;
    return out;
  }
  // QNAME: labels of 1..63 octets, no pointer (nothing precedes the question to point at), ≤ 255.
  let off = HEADER_BYTES;
  for (;;) {
    if (off >= len) {
      out.status = PARSE_FORMERR;
      return out;
    }
    const l = buf[off]!;
    if (l === 0) {
      off += 1;
      break;
    }
    if (l > 63) {
      out.status = PARSE_FORMERR; // pointer or reserved label type in the question (RFC 1035 §4.1.4)
      return out;
    }
    off += 1 + l;
    if (off - HEADER_BYTES >= MAX_NAME_BYTES) {
      out.status = PARSE_FORMERR; // RFC 1035 §2.3.4
      return out;
    }
  }
  const nameEnd = off;
  if (off + 4 > len) {
    out.status = PARSE_FORMERR; // QTYPE and QCLASS missing (RFC 1035 §4.1.2)
    return out;
  }
  out.qtype = (buf[off]! << 8) | buf[off + 1]!;
  out.qclass = (buf[off + 2]! << 8) | buf[off + 3]!;
  off += 4;
  out.questionEnd = off;
  out.canary = isCanary(buf, HEADER_BYTES, nameEnd);

  // The rest: answer and authority records are skipped, the additional section is searched for OPT.
  const an = (buf[6]! << 8) | buf[7]!;
  const ns = (buf[8]! << 8) | buf[9]!;
  const ar = (buf[10]! << 8) | buf[11]!;
  const total = an + ns + ar;
  for (let i = 0; i < total; i++) {
    const owner = off;
    off = skipName(buf, off, len);
    if (off < 0 || off + 10 > len) {
      out.status = PARSE_FORMERR; // the counts promise records the packet does not hold
      return out;
    }
    const type = (buf[off]! << 8) | buf[off + 1]!;
    const rdlen = (buf[off + 8]! << 8) | buf[off + 9]!;
    const rrEnd = off + 10 + rdlen;
    if (rrEnd > len) {
      out.status = PARSE_FORMERR;
      return out;
    }
    if (type === TYPE.OPT) {
      // RFC 6891 §6.1.1: only in the additional section, at most one, owner is the root.
      if (i < an + ns || out.edns || buf[owner] !== 0 || off !== owner + 1) {
        out.status = PARSE_FORMERR;
        return out;
      }
      out.edns = true;
      const size = (buf[off + 2]! << 8) | buf[off + 3]!;
      out.ednsUdpSize = Math.max(size, 512); // RFC 6891 §6.2.5
      out.ednsVersion = buf[off + 5]!;
      out.ednsDo = (buf[off + 6]! & 0x80) !== 0;
      // Options (RFC 6891 §6.1.2) must tile the RDATA exactly.
      let o = off + 10;
      while (o < rrEnd) {
        if (o + 4 > rrEnd) {
          out.status = PARSE_FORMERR;
          return out;
        }
        o += 4 + ((buf[o + 2]! << 8) | buf[o + 3]!);
      }
      if (o !== rrEnd) {
        out.status = PARSE_FORMERR;
        return out;
      }
    }
    off = rrEnd;
  }
  out.status = PARSE_OK;
  return out;
}
