// dns-packet (the reference codec) with the fields its published types leave out (rcode, ANY, OPT).
import dnsPacket from 'dns-packet';

interface Rr {
  name: string;
  type: string;
  class?: string;
  ttl?: number;
  data?: unknown;
  udpPayloadSize?: number;
  flags?: number;
}

export interface Reply {
  id: number;
  rcode: string;
  flag_aa: boolean;
  flag_rd: boolean;
  flag_ra: boolean;
  questions: { name: string; type: string; class: string }[];
  answers: Rr[];
  authorities: Rr[];
  additionals: Rr[];
}

export function decodeReply(buf: Uint8Array): Reply {
  return dnsPacket.decode(Buffer.from(buf)) as unknown as Reply;
}

export interface QueryFields {
  id: number;
  flags: number;
  name: string;
  type: string;
  edns: boolean;
}

export function encodeQuery(q: QueryFields): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id: q.id,
    flags: q.flags,
    questions: [{ name: q.name, type: q.type as dnsPacket.RecordType, class: 'IN' }],
    additionals: q.edns
      ? [{ type: 'OPT', name: '.', udpPayloadSize: 4096, flags: 0, options: [] } as never]
      : [],
  });
}

export const RECURSION_DESIRED = dnsPacket.RECURSION_DESIRED;
export const DNSSEC_OK = dnsPacket.DNSSEC_OK;
