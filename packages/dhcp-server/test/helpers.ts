import {
  BOOTREQUEST,
  type DhcpMessage,
  decodeMessage,
  encodeMessage,
  MessageType,
  Option,
  parseIpv4,
} from '../src/index.js';

const ip = (s: string) => parseIpv4(s);

export interface RequestSpec {
  type: keyof typeof MessageType;
  mac?: string;
  xid?: number;
  flags?: number;
  ciaddr?: string;
  giaddr?: string;
  requested?: string;
  serverId?: string;
  clientId?: Uint8Array;
  params?: number[];
  maxSize?: number;
  hostname?: string;
  extra?: [number, Uint8Array][];
}

function macBytes(mac: string): Uint8Array {
  return Uint8Array.from(mac.split(':').map((h) => Number.parseInt(h, 16)));
}

const ipBytes = (s: string) => {
  const n = ip(s);
  return Uint8Array.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
};

/** A client request as a real client would build it (the encoder under test is not involved). */
export function request(spec: RequestSpec): DhcpMessage {
  const chaddr = new Uint8Array(16);
  const mac = macBytes(spec.mac ?? '02:00:00:00:00:01');
  chaddr.set(mac);
  const options = new Map<number, Uint8Array>([[Option.MESSAGE_TYPE, Uint8Array.of(MessageType[spec.type])]]);
  if (spec.requested) options.set(Option.REQUESTED_ADDRESS, ipBytes(spec.requested));
  if (spec.serverId) options.set(Option.SERVER_ID, ipBytes(spec.serverId));
  if (spec.clientId) options.set(Option.CLIENT_ID, spec.clientId);
  if (spec.params) options.set(Option.PARAMETER_LIST, Uint8Array.from(spec.params));
  if (spec.maxSize)
    options.set(Option.MAX_MESSAGE_SIZE, Uint8Array.of(spec.maxSize >> 8, spec.maxSize & 255));
  if (spec.hostname) options.set(Option.HOSTNAME, Buffer.from(spec.hostname));
  for (const [code, value] of spec.extra ?? []) options.set(code, value);
  return {
    op: BOOTREQUEST,
    htype: 1,
    hlen: 6,
    hops: 0,
    xid: spec.xid ?? 0x1234abcd,
    secs: 3,
    flags: spec.flags ?? 0,
    ciaddr: spec.ciaddr ? ip(spec.ciaddr) : 0,
    yiaddr: 0,
    siaddr: 0,
    giaddr: spec.giaddr ? ip(spec.giaddr) : 0,
    chaddr,
    sname: new Uint8Array(0),
    file: new Uint8Array(0),
    options,
  };
}

/** Encodes into a larger external buffer at an offset and decodes it back. */
export function roundTrip(message: DhcpMessage): DhcpMessage {
  const buf = Buffer.alloc(2000, 0xee);
  const written = encodeMessage(message, buf, 7);
  const back = decodeMessage(buf.subarray(7, 7 + written.length));
  expectEq(back.bytes, written.length);
  return back.value;
}

function expectEq(a: unknown, b: unknown) {
  if (a !== b) throw new Error(`${a} !== ${b}`);
}

export const opt = (m: DhcpMessage, code: number) => m.options.get(code);
export const optIp = (m: DhcpMessage, code: number) => {
  const v = m.options.get(code);
  return v ? `${v[0]}.${v[1]}.${v[2]}.${v[3]}` : undefined;
};
export const optU32 = (m: DhcpMessage, code: number) => {
  const v = m.options.get(code);
  return v ? Buffer.from(v).readUInt32BE(0) : undefined;
};
export const typeOf = (m: DhcpMessage) => m.options.get(Option.MESSAGE_TYPE)?.[0];
