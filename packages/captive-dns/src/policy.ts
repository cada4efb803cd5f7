// What the responder answers, as one table. The README carries the same table; a test checks that
// every row is what `dig` sees on the wire.

/** DNS RCODE values used by the responder (RFC 1035 §4.1.1, RFC 6891 §9 for BADVERS). */
export const RCODE = {
  NOERROR: 0,
  FORMERR: 1,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  BADVERS: 16,
} as const;

/** Resource record types the policy names (RFC 1035 §3.2.2, RFC 3596, RFC 9460, RFC 6891). */
export const TYPE = {
  A: 1,
  SOA: 6,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  OPT: 41,
  SVCB: 64,
  HTTPS: 65,
  ANY: 255,
} as const;

const CLASS_IN = 1;
const CLASS_ANY = 255;

/** The Firefox canary domain: NXDOMAIN here turns off DNS-over-HTTPS by default. */
export const DOH_CANARY = 'use-application-dns.net';

/** What goes into a reply. */
export type Outcome =
  | 'drop'
  | 'formerr'
  | 'notimp'
  | 'badvers'
  | 'refused'
  | 'nxdomain'
  | 'answer-a'
  | 'nodata';

export interface PolicyRow {
  /** The query this row matches, in the order the checks run. */
  readonly query: string;
  /** What the client gets back. */
  readonly reply: string;
  readonly outcome: Outcome;
  readonly rfc: string;
}

/** The policy, first matching row wins. Kept as data so the README and tests can quote it. */
export const CAPTIVE_DNS_POLICY: readonly PolicyRow[] = [
  {
    query: 'shorter than the 12-byte header',
    reply: 'nothing (counted as malformed)',
    outcome: 'drop',
    rfc: 'RFC 1035 §4.1.1',
  },
  {
    query: 'QR=1 (a response, possibly reflected)',
    reply: 'nothing (counted as responsesDropped)',
    outcome: 'drop',
    rfc: 'RFC 1035 §4.1.1',
  },
  {
    query: 'OPCODE other than QUERY',
    reply: 'NOTIMP, header only',
    outcome: 'notimp',
    rfc: 'RFC 1035 §4.1.1',
  },
  {
    query: 'QDCOUNT other than 1, a bad name or record, two OPT records',
    reply: 'FORMERR, header only',
    outcome: 'formerr',
    rfc: 'RFC 1035 §4.1.2, RFC 6891 §6.1.1',
  },
  {
    query: 'EDNS version above 0',
    reply: 'BADVERS with our OPT (version 0), no answer',
    outcome: 'badvers',
    rfc: 'RFC 6891 §6.1.3',
  },
  { query: 'QCLASS other than IN or ANY', reply: 'REFUSED', outcome: 'refused', rfc: 'RFC 1035 §3.2.4' },
  {
    query: `${DOH_CANARY}, any type, any case`,
    reply: 'NXDOMAIN, AA, SOA in authority (Firefox then turns DNS-over-HTTPS off)',
    outcome: 'nxdomain',
    rfc: 'RFC 2308 §2.1',
  },
  {
    query: 'A',
    reply: 'NOERROR, AA, one A record: the answer address',
    outcome: 'answer-a',
    rfc: 'RFC 1035',
  },
  { query: 'ANY', reply: 'NOERROR, AA, only that A record', outcome: 'answer-a', rfc: 'RFC 8482 §4.2' },
  {
    query: 'AAAA, HTTPS (65), SVCB (64), TXT, MX and every other type',
    reply: 'NOERROR, AA, no answer, SOA in authority (NODATA)',
    outcome: 'nodata',
    rfc: 'RFC 2308 §2.2',
  },
];

/** The outcome for a well-formed QUERY (the rows after the header checks). */
export function decide(qtype: number, qclass: number, canary: boolean): Outcome {
  if (qclass !== CLASS_IN && qclass !== CLASS_ANY) return 'refused';
  if (canary) return 'nxdomain';
  if (qtype === TYPE.A || qtype === TYPE.ANY) return 'answer-a';
  return 'nodata';
}
