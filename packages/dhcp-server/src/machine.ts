import type { Logger } from '@waved/internal';
import {
  BOOTP_MIN_BYTES,
  BOOTREPLY,
  BOOTREQUEST,
  BROADCAST_FLAG,
  DEFAULT_MAX_DATAGRAM,
  HEADER_BYTES,
  IP_UDP_OVERHEAD,
  MAGIC_COOKIE,
  MessageType,
  Option,
} from './constants.js';
import { DhcpError } from './errors.js';
import { formatIpv4, ipv4Bytes, parseIpv4, prefixLength, readIpv4, writeIpv4 } from './ipv4.js';
import { type DhcpMessage, optionBytes, writeOption } from './message.js';
import { type ClientInfo, type DhcpLease, LeasePool } from './pool.js';

/** @deprecated The shared `Logger` shape (every level optional); this alias goes in 1.0. */
export type DhcpLogger = Logger;

export interface DhcpMachineOptions {
  /** The server's own address on the served network; option 54 (server identifier). */
  serverAddress: string;
  /** Option 1. */
  netmask: string;
  /** First and last address handed out (inclusive), e.g. `['192.168.2.50', '192.168.2.200']`. */
  range: readonly [string, string] | { start: string; end: string };
  /** Option 51, seconds (default 43200 = 12 h, at least 10). T1 (58) and T2 (59) are 0.5 and 0.875 of it. */
  leaseSeconds?: number;
  /** Option 3: one address or a list. */
  router?: string | readonly string[];
  /** Option 6: one address or a list. */
  dns?: string | readonly string[];
  /** Option 114, RFC 8910 captive-portal API URI (sent as given, ASCII). */
  captivePortalUri?: string | undefined;
  /** More options, sent only to clients that ask for them in option 55 (code -> raw value or text). */
  options?: Readonly<Record<number, Uint8Array | string>>;
  /**
   * The only server on its link (dnsmasq's `--dhcp-authoritative`): NAK an INIT-REBOOT from a client
   * we have no record of, instead of the silence RFC 2131 §4.3.2 asks of servers that share a link.
   * The client then DISCOVERs at once instead of after its own timeout. Default false.
   */
  authoritative?: boolean;
  /** How long an OFFER holds its address for the client (default 60 s). */
  offerSeconds?: number;
  /** How long a DECLINEd address stays out of the pool (default 600 s, as dnsmasq). */
  declineSeconds?: number;
  /** UDP ports used for replies (defaults 67 to relays, 68 to clients). */
  serverPort?: number;
  clientPort?: number;
  /** Any `{ debug?, info?, warn?, error? }` logger (console, pino, consola). Only non-secret facts are logged. */
  logger?: Logger;
}

/** Where and what to send. `address` is a uint32; `persist` says the store must have the change first. */
export interface DhcpReply {
  message: DhcpMessage;
  address: number;
  port: number;
  persist: boolean;
  /**
   * The client's new address when the reply could go straight to it instead of to `address`
   * (broadcast): an OFFER or ACK for a client with no address yet (no ciaddr, no relay) that did not
   * set the broadcast flag and has an Ethernet hardware address (RFC 2131 §4.1). Sending it there
   * needs an ARP cache entry for it first (the client cannot answer ARP yet). 0 otherwise.
   */
  direct: number;
}

export interface DhcpStats {
  /** Datagrams handed to the server. */
  received: number;
  /** Datagrams that failed to decode (bad cookie, lengths, ...). */
  malformed: number;
  /** Decoded but not for us: replies, BOOTP without option 53, unknown types, other server's RELEASE. */
  ignored: number;
  discover: number;
  request: number;
  decline: number;
  release: number;
  inform: number;
  offer: number;
  ack: number;
  nak: number;
  /** DISCOVERs that got no OFFER because no address was free. */
  poolExhausted: number;
  /** SELECTING requests that named another server (our offer was dropped silently). */
  otherServer: number;
  /** INIT-REBOOT requests from clients we have no record of (RFC 2131 §4.3.2: stay silent). */
  unknownClient: number;
  sendErrors: number;
  /** Lease store writes that failed (the replies went out regardless). */
  storeErrors: number;
  /** Exceptions caught in the socket handler (never rethrown). */
  handlerErrors: number;
  pool: { size: number; free: number; offered: number; bound: number; declined: number };
}

export type DhcpCounter = Exclude<keyof DhcpStats, 'pool'>;

export interface DhcpMachine {
  /** Handles one decoded request at time `now` (ms since epoch); returns the reply to send, if any. */
  handle(request: DhcpMessage, now: number): DhcpReply | undefined;
  leases(now: number): DhcpLease[];
  stats(now: number): DhcpStats;
  count(counter: DhcpCounter): void;
  /** Changes whenever the lease table changes (what a store should save). */
  readonly version: number;
  /** Changes when an address changes hands (bind, release, decline): what a store must save promptly. */
  readonly durableVersion: number;
  restore(records: readonly DhcpLease[], now: number): number;
  readonly serverId: number;
}

/**
 * The machine the server runs: DhcpMachine plus `writeReply`, which handles a request like `handle`
 * and writes the reply straight into `out` at `offset` (what encodeMessage makes of handle()'s reply,
 * byte for byte), its destination into `to`; returns the reply's length, 0 for no reply.
 */
export interface DhcpMachineCore extends DhcpMachine {
  writeReply(
    request: DhcpMessage,
    now: number,
    out: Uint8Array,
    offset: number,
    to: { address: number; port: number; direct: number },
  ): number;
}

const BROADCAST = 0xffffffff;
const EMPTY = new Uint8Array(0);
const ZERO_FILL = Uint8Array.prototype.fill;

/** Options as writeMessage lays them out, one after the other. */
function encodeOptions(list: readonly (readonly [number, Uint8Array])[]): Uint8Array {
  let n = 0;
  for (const [, value] of list) n += optionBytes(value.length);
  const out = new Uint8Array(n);
  let i = 0;
  for (const [code, value] of list) i = writeOption(out, i, code, value);
  return out;
}
const u8 = (n: number) => Uint8Array.of(n);
const u32 = (n: number) => Uint8Array.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
const TYPE_BYTES = [EMPTY, u8(1), u8(2), u8(3), u8(4), u8(5), u8(6), u8(7), u8(8)];

function list(value: string | readonly string[] | undefined, what: string): number[] {
  if (value === undefined) return [];
  const items = typeof value === 'string' ? [value] : [...value];
  return items.map((a) => parseIpv4(a, what));
}

function ipList(addrs: readonly number[]): Uint8Array {
  const out = new Uint8Array(addrs.length * 4);
  addrs.forEach((a, i) => {
    out.set(ipv4Bytes(a), i * 4);
  });
  return out;
}

function positiveInt(
  value: number | undefined,
  fallback: number,
  what: string,
  max = 0xffffffff,
  min = 1,
): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new DhcpError('DHCP_CONFIG', `${what} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return v;
}

function hex(view: Uint8Array, start = 0, end = view.length): string {
  let s = '';
  for (let i = start; i < end; i++) s += HEX[view[i]!];
  return s;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function macText(chaddr: Uint8Array, hlen: number): string {
  let s = hlen > 0 ? HEX[chaddr[0]!]! : '';
  for (let i = 1; i < hlen; i++) s += `:${HEX[chaddr[i]!]}`;
  return s;
}

const HOSTNAME_OK = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * The DHCPv4 server logic as a pure state machine (no sockets, no clock): RFC 2131 §4.3 for the
 * server side of each message, §4.1 for where the reply goes, RFC 2132 for options, RFC 6842 for
 * echoing the client identifier and RFC 8910 for option 114.
 */
export function createDhcpMachine(options: DhcpMachineOptions): DhcpMachine {
  return createDhcpMachineCore(options);
}

/** createDhcpMachine with `writeReply`, for the server. */
export function createDhcpMachineCore(options: DhcpMachineOptions): DhcpMachineCore {
  const server = parseIpv4(options.serverAddress, 'serverAddress');
  const mask = parseIpv4(options.netmask, 'netmask');
  if (prefixLength(mask) < 1 || prefixLength(mask) > 30) {
    throw new DhcpError(
      'DHCP_CONFIG',
      `netmask ${options.netmask} must be contiguous with a prefix of /1../30`,
    );
  }
  const network = (server & mask) >>> 0;
  const broadcast = (network | ~mask) >>> 0;
  const inSubnet = (a: number) => (a & mask) >>> 0 === network && a !== network && a !== broadcast;
  if (!inSubnet(server))
    throw new DhcpError('DHCP_CONFIG', 'serverAddress is the network or broadcast address');
  if (options.range === null || typeof options.range !== 'object') {
    throw new DhcpError('DHCP_CONFIG', 'range must be [first, last] or { start, end }');
  }
  const [startText, endText] = Array.isArray(options.range)
    ? (options.range as readonly [string, string])
    : [(options.range as { start: string }).start, (options.range as { end: string }).end];
  const first = parseIpv4(startText as string, 'range start');
  const last = parseIpv4(endText as string, 'range end');
  if (!inSubnet(first) || !inSubnet(last) || last < first) {
    throw new DhcpError(
      'DHCP_CONFIG',
      `range ${startText}-${endText} must be inside ${formatIpv4(network)}/${prefixLength(mask)}, start <= end, and exclude the network and broadcast addresses`,
    );
  }
  if (last - first + 1 > 1 << 20) throw new DhcpError('DHCP_CONFIG', 'range is larger than 2^20 addresses');
  // RFC 2131 §4.4.5: T1 < T2 < lease, which the 0.5 / 0.875 split keeps from 10 s up.
  const leaseSeconds = positiveInt(options.leaseSeconds, 43200, 'leaseSeconds', 0xffffffff, 10);
  const offerMs = positiveInt(options.offerSeconds, 60, 'offerSeconds', 86400) * 1000;
  const declineMs = positiveInt(options.declineSeconds, 600, 'declineSeconds', 86400 * 30) * 1000;
  const serverPort = positiveInt(options.serverPort, 67, 'serverPort', 65535);
  const clientPort = positiveInt(options.clientPort, 68, 'clientPort', 65535);
  const routers = list(options.router, 'router');
  const dns = list(options.dns, 'dns');
  const log = options.logger;
  const authoritative = options.authoritative === true;

  // Option values are computed once; replies share these read-only byte arrays.
  const serverIdBytes = ipv4Bytes(server);
  const infinite = leaseSeconds === 0xffffffff;
  const leaseBytes = u32(leaseSeconds);
  const t1Bytes = u32(Math.floor(leaseSeconds * 0.5));
  const t2Bytes = u32(Math.floor(leaseSeconds * 0.875));
  // Options every OFFER/ACK carries after 53/54/51/58/59, in this order.
  const common: [number, Uint8Array][] = [[Option.SUBNET_MASK, ipv4Bytes(mask)]];
  if (routers.length) common.push([Option.ROUTER, ipList(routers)]);
  if (dns.length) common.push([Option.DNS, ipList(dns)]);
  if (options.captivePortalUri !== undefined) {
    const uri = options.captivePortalUri;
    // RFC 8910 §2: the value is a URI in US-ASCII, not NUL-terminated.
    if (typeof uri !== 'string' || uri.length === 0 || !/^[\x21-\x7e]+$/.test(uri)) {
      throw new DhcpError('DHCP_CONFIG', 'captivePortalUri must be a non-empty ASCII URI without spaces');
    }
    common.push([Option.CAPTIVE_PORTAL, Buffer.from(uri, 'ascii')]);
  }
  // Options sent only on request (option 55).
  const onRequest = new Map<number, Uint8Array>([[Option.BROADCAST_ADDRESS, ipv4Bytes(broadcast)]]);
  for (const [key, value] of Object.entries(options.options ?? {})) {
    const code = Number(key);
    if (
      !Number.isInteger(code) ||
      code < 1 ||
      code > 254 ||
      [0, 50, 51, 52, 53, 54, 55, 57, 61, 255].includes(code)
    ) {
      throw new DhcpError('DHCP_CONFIG', `options: code ${key} cannot be configured`);
    }
    onRequest.set(code, typeof value === 'string' ? Buffer.from(value, 'utf8') : Uint8Array.from(value));
  }
  const sentAlways = new Uint8Array(256); // a table, not a Set: one load per listed code
  for (const code of [1, 3, 6, 51, 53, 54, 58, 59, 114]) sentAlways[code] = 1;
  // The bytes every reply of a kind carries after option 53, and each on-request option, encoded once.
  let commonBytes = 0;
  for (const [, value] of common) commonBytes += 2 * Math.ceil(value.length / 255) + value.length;
  const leaseList: [number, Uint8Array][] = [[Option.LEASE_TIME, leaseBytes]];
  if (!infinite) leaseList.push([Option.RENEWAL_TIME, t1Bytes], [Option.REBINDING_TIME, t2Bytes]);
  const nakOptions = encodeOptions([[Option.SERVER_ID, serverIdBytes]]);
  const plainOptions = encodeOptions([[Option.SERVER_ID, serverIdBytes], ...common]);
  const leaseOptions = encodeOptions([[Option.SERVER_ID, serverIdBytes], ...leaseList, ...common]);
  const encodedOnRequest = new Map<number, Uint8Array>();
  for (const [code, value] of onRequest) encodedOnRequest.set(code, encodeOptions([[code, value]]));

  const pool = new LeasePool(first, last, [server]);
  const counters: Omit<DhcpStats, 'pool'> = {
    received: 0,
    malformed: 0,
    ignored: 0,
    discover: 0,
    request: 0,
    decline: 0,
    release: 0,
    inform: 0,
    offer: 0,
    ack: 0,
    nak: 0,
    poolExhausted: 0,
    otherServer: 0,
    unknownClient: 0,
    sendErrors: 0,
    storeErrors: 0,
    handlerErrors: 0,
  };
  let lastExhaustedLog = Number.NEGATIVE_INFINITY;

  /** RFC 2131 §4.2 / RFC 2132 §9.14: option 61 identifies the client, else htype + chaddr. */
  function clientKey(req: DhcpMessage): string {
    const id = req.options.get(Option.CLIENT_ID);
    if (id !== undefined && id.length > 0) return hex(id);
    return (req.htype < 16 ? '0' : '') + req.htype.toString(16) + hex(req.chaddr, 0, req.hlen);
  }

  function clientInfo(req: DhcpMessage): ClientInfo {
    const info: ClientInfo = { hardwareAddress: macText(req.chaddr, req.hlen) };
    const name = req.options.get(Option.HOSTNAME);
    if (name !== undefined) {
      const text = Buffer.from(name.buffer, name.byteOffset, name.length).toString('latin1');
      if (HOSTNAME_OK.test(text)) info.hostname = text;
    }
    return info;
  }

  function ipOption(req: DhcpMessage, code: number): number {
    const v = req.options.get(code);
    return v !== undefined && v.length === 4 ? readIpv4(v, 0) : 0;
  }

  /** RFC 2131 §2 / RFC 2132 §9.10: 576 bytes unless option 57 allows more. */
  function optionBudget(req: DhcpMessage): number {
    const v = req.options.get(Option.MAX_MESSAGE_SIZE);
    let max = DEFAULT_MAX_DATAGRAM;
    if (v !== undefined && v.length === 2)
      max = Math.max(DEFAULT_MAX_DATAGRAM, Math.min(1500, (v[0]! << 8) | v[1]!));
    return max - IP_UDP_OVERHEAD - HEADER_BYTES;
  }

  // The reply to the request being handled, decided by the functions below and kept here until
  // handle() turns it into a DhcpMessage or writeReply() writes it: one request is handled at a time,
  // and the batch path then makes no Map, message or reply object per datagram.
  let replyType = 0;
  let replyYiaddr = 0;
  let replyWithLease = false;
  let replyPersist = false;
  let replyFlags = 0;
  let replyAddress = 0;
  let replyPort = 0;
  let replyDirect = 0;
  let replyClientId: Uint8Array | undefined;
  const replyExtras: number[] = []; // codes of `onRequest` options, in the client's order

  /**
   * Decides a reply per RFC 2131 §4.3.1 table 3 and addresses it per §4.1. `yiaddr` 0 and no lease
   * options for INFORM (§4.3.5); NAK carries only 53, 54 and 61 (§4.3.2, RFC 6842). Returns true.
   */
  function reply(req: DhcpMessage, type: number, yiaddr: number, withLease: boolean, persist: boolean): true {
    replyExtras.length = 0;
    let used = 3 + 6 + 1; // 53, 54, END
    const clientId = req.options.get(Option.CLIENT_ID);
    if (clientId !== undefined) used += 2 * Math.ceil(clientId.length / 255 || 1) + clientId.length;
    if (type !== MessageType.NAK) {
      if (withLease) used += infinite ? 6 : 18;
      used += commonBytes;
      const wanted = req.options.get(Option.PARAMETER_LIST);
      if (wanted !== undefined) {
        const budget = optionBudget(req);
        for (let i = 0; i < wanted.length; i++) {
          const code = wanted[i]!;
          // 53, 54, 51, 58, 59 and the common options are in sentAlways; a code listed twice goes once
          if (sentAlways[code] === 1 || replyExtras.includes(code)) continue;
          const value = onRequest.get(code);
          if (value === undefined) continue;
          const size = 2 * Math.max(1, Math.ceil(value.length / 255)) + value.length;
          if (used + size > budget) continue; // what does not fit is left out, never truncated
          replyExtras.push(code);
          used += size;
        }
      }
    }
    // RFC 6842 §3: echo the client identifier in OFFER, ACK and NAK.
    replyClientId = clientId;

    let flags = req.flags;
    let address: number;
    let port = clientPort;
    let direct = 0;
    if (req.giaddr !== 0) {
      // §4.1: through a relay, to the relay's server port; a NAK asks the relay to broadcast.
      address = req.giaddr;
      port = serverPort;
      if (type === MessageType.NAK) flags |= BROADCAST_FLAG;
    } else if (type === MessageType.NAK) {
      address = BROADCAST; // §4.1: NAK with giaddr 0 MUST go to 0xffffffff
    } else if (req.ciaddr !== 0) {
      address = req.ciaddr; // RENEWING, REBINDING and INFORM: the client has its address (§4.1, §4.3.5)
    } else {
      // §4.1: broadcast when the client set the broadcast flag; otherwise unicast to the client's
      // hardware address and yiaddr, which needs an ARP cache entry (the server's to write, so
      // `direct`), and broadcast when that is not possible.
      address = BROADCAST;
      if ((flags & BROADCAST_FLAG) === 0 && req.htype === 1 && req.hlen === 6) direct = yiaddr;
    }
    replyType = type;
    replyYiaddr = yiaddr;
    replyWithLease = withLease;
    replyPersist = persist;
    replyFlags = flags;
    replyAddress = address;
    replyPort = port;
    replyDirect = direct;
    if (type === MessageType.OFFER) counters.offer++;
    else if (type === MessageType.ACK) counters.ack++;
    else if (type === MessageType.NAK) counters.nak++;
    return true;
  }

  /** The decided reply as a DhcpMessage (options in the order writeReply writes them). */
  function replyMessage(req: DhcpMessage): DhcpReply {
    const opts = new Map<number, Uint8Array>();
    opts.set(Option.MESSAGE_TYPE, TYPE_BYTES[replyType]!);
    opts.set(Option.SERVER_ID, serverIdBytes);
    if (replyType !== MessageType.NAK) {
      if (replyWithLease) {
        opts.set(Option.LEASE_TIME, leaseBytes);
        if (!infinite) {
          opts.set(Option.RENEWAL_TIME, t1Bytes);
          opts.set(Option.REBINDING_TIME, t2Bytes);
        }
      }
      for (let k = 0; k < common.length; k++) {
        const [code, value] = common[k]!;
        opts.set(code, value);
      }
      for (let k = 0; k < replyExtras.length; k++) opts.set(replyExtras[k]!, onRequest.get(replyExtras[k]!)!);
    }
    if (replyClientId !== undefined) opts.set(Option.CLIENT_ID, replyClientId);
    const message: DhcpMessage = {
      op: BOOTREPLY,
      htype: req.htype,
      hlen: req.hlen,
      hops: 0,
      xid: req.xid,
      secs: 0,
      flags: replyFlags,
      ciaddr: replyType === MessageType.ACK ? req.ciaddr : 0,
      yiaddr: replyYiaddr,
      siaddr: 0,
      giaddr: req.giaddr,
      chaddr: req.chaddr,
      sname: EMPTY,
      file: EMPTY,
      options: opts,
    };
    return { message, address: replyAddress, port: replyPort, persist: replyPersist, direct: replyDirect };
  }

  /**
   * Writes the decided reply into `out` at `offset`, byte for byte what encodeMessage makes of
   * replyMessage(), from option bytes encoded once; returns its length. Throws DHCP_ENCODE_BUFFER when
   * it does not fit, with nothing written.
   */
  function writeDecided(req: DhcpMessage, out: Uint8Array, offset: number): number {
    const fixed = replyType === MessageType.NAK ? nakOptions : replyWithLease ? leaseOptions : plainOptions;
    let length = HEADER_BYTES + 3 + fixed.length + 1; // 53, the fixed options, the extras, 61, END
    for (let k = 0; k < replyExtras.length; k++) length += encodedOnRequest.get(replyExtras[k]!)!.length;
    if (replyClientId !== undefined) length += optionBytes(replyClientId.length);
    if (length < BOOTP_MIN_BYTES) length = BOOTP_MIN_BYTES;
    if (req.chaddr.length > 16)
      throw new DhcpError('DHCP_ENCODE_FIELD', 'cannot encode: chaddr is at most 16 bytes');
    if (!Number.isInteger(offset) || offset < 0 || out.length - offset < length) {
      throw new DhcpError('DHCP_ENCODE_BUFFER', `buffer too small: need ${length} bytes at offset ${offset}`);
    }
    const o = offset;
    ZERO_FILL.call(out, 0, o, o + length);
    out[o] = BOOTREPLY;
    out[o + 1] = req.htype;
    out[o + 2] = req.hlen;
    writeIpv4(out, o + 4, req.xid);
    out[o + 10] = replyFlags >>> 8;
    out[o + 11] = replyFlags & 255;
    if (replyType === MessageType.ACK) writeIpv4(out, o + 12, req.ciaddr);
    writeIpv4(out, o + 16, replyYiaddr);
    writeIpv4(out, o + 24, req.giaddr);
    out.set(req.chaddr, o + 28);
    writeIpv4(out, o + 236, MAGIC_COOKIE);
    let i = o + HEADER_BYTES;
    out[i] = Option.MESSAGE_TYPE;
    out[i + 1] = 1;
    out[i + 2] = replyType;
    out.set(fixed, i + 3);
    i += 3 + fixed.length;
    for (let k = 0; k < replyExtras.length; k++) {
      const bytes = encodedOnRequest.get(replyExtras[k]!)!;
      out.set(bytes, i);
      i += bytes.length;
    }
    if (replyClientId !== undefined) i = writeOption(out, i, Option.CLIENT_ID, replyClientId);
    out[i] = Option.END;
    return length;
  }

  function nak(req: DhcpMessage): true {
    return reply(req, MessageType.NAK, 0, false, false);
  }

  /** Commits `address` to the client and ACKs it; a new holder must reach the store first. */
  function ack(req: DhcpMessage, key: string, address: number, now: number): true {
    const renewal = pool.isBoundTo(address, key, now);
    pool.bind(address, key, infinite ? Number.MAX_SAFE_INTEGER : now + leaseSeconds * 1000, clientInfo, req);
    return reply(req, MessageType.ACK, address, true, !renewal);
  }

  function discover(req: DhcpMessage, key: string, now: number): boolean {
    counters.discover++;
    // §4.3.1: current binding, previous binding, requested address, then a free one.
    const address = pool.choose(key, ipOption(req, Option.REQUESTED_ADDRESS), now);
    if (address < 0) {
      counters.poolExhausted++;
      if (log && now - lastExhaustedLog > 10_000) {
        lastExhaustedLog = now;
        log.warn?.('DHCP pool exhausted: no OFFER sent', { client: key, refused: counters.poolExhausted });
      }
      return false;
    }
    pool.offer(address, key, now + offerMs, clientInfo, req);
    return reply(req, MessageType.OFFER, address, true, false);
  }

  function request(req: DhcpMessage, key: string, now: number): boolean {
    counters.request++;
    const serverId = req.options.get(Option.SERVER_ID);
    const requested = ipOption(req, Option.REQUESTED_ADDRESS);
    if (serverId !== undefined) {
      // §4.3.2 SELECTING: the client names the server it chose.
      if (serverId.length !== 4 || readIpv4(serverId, 0) !== server) {
        counters.otherServer++;
        pool.withdraw(key, now);
        return false;
      }
      const address = requested || req.ciaddr;
      if (address === 0) {
        counters.ignored++;
        return false;
      }
      if (address === pool.known(key) && pool.available(address, key, now))
        return ack(req, key, address, now);
      return nak(req);
    }
    if (requested !== 0 && req.ciaddr === 0) {
      // §4.3.2 INIT-REBOOT: wrong network -> NAK; unknown client -> silence; wrong address -> NAK.
      const net = req.giaddr !== 0 ? req.giaddr : server;
      if ((requested & mask) >>> 0 !== (net & mask) >>> 0) return nak(req);
      const known = pool.known(key);
      if (known < 0) {
        counters.unknownClient++;
        return authoritative ? nak(req) : false;
      }
      if (requested === known && pool.available(requested, key, now)) return ack(req, key, requested, now);
      return nak(req);
    }
    if (req.ciaddr !== 0) {
      // §4.3.2 RENEWING (unicast, ciaddr trusted) and REBINDING (broadcast, ciaddr checked). A free
      // pool address is granted to its claimant, so clients keep working after a lost lease table.
      if (pool.isBoundTo(req.ciaddr, key, now) || pool.available(req.ciaddr, key, now)) {
        return ack(req, key, req.ciaddr, now);
      }
      return nak(req);
    }
    counters.ignored++;
    return false;
  }

  function declined(req: DhcpMessage, key: string, now: number): false {
    counters.decline++;
    // §4.3.3: the client found the address in use. Only the address we gave this client can be
    // quarantined, so one client cannot empty the pool by declining addresses it never held.
    const address = ipOption(req, Option.REQUESTED_ADDRESS);
    if (address !== 0 && address === pool.known(key) && pool.contains(address)) {
      pool.decline(address, now + declineMs);
      log?.warn?.('DHCP address declined by client (in use on the network); quarantined', {
        address: formatIpv4(address),
        client: key,
        seconds: declineMs / 1000,
      });
    } else {
      counters.ignored++;
    }
    return false;
  }

  function released(req: DhcpMessage, key: string, now: number): false {
    counters.release++;
    // §4.3.4: mark the address free, keep the client record.
    if (!pool.release(req.ciaddr, key, now)) counters.ignored++;
    return false;
  }

  function inform(req: DhcpMessage): boolean {
    counters.inform++;
    // §4.3.5: ACK with configuration only: no lease time, yiaddr 0, unicast to ciaddr. Only a client
    // on the served subnet is answered: ciaddr is whatever the sender wrote, and an ACK to any other
    // address would reflect our traffic at a victim of the sender's choosing.
    if (!inSubnet(req.ciaddr)) {
      counters.ignored++;
      return false;
    }
    return reply(req, MessageType.ACK, 0, false, false);
  }

  /** Handles one request; true when a reply was decided (what reply() keeps). */
  function decide(req: DhcpMessage, now: number): boolean {
    // §4.1: a server only answers BOOTREQUESTs that carry a DHCP message type.
    const typeOption = req.options.get(Option.MESSAGE_TYPE);
    if (req.op !== BOOTREQUEST || typeOption === undefined || typeOption.length !== 1) {
      counters.ignored++;
      return false;
    }
    const type = typeOption[0]!;
    // One subnet is served: a relay on another network is not ours to answer (§4.3.1 picks the
    // pool by giaddr).
    if (req.giaddr !== 0 && !inSubnet(req.giaddr)) {
      counters.ignored++;
      return false;
    }
    const clientId = req.options.get(Option.CLIENT_ID);
    if (req.hlen === 0 && clientId === undefined) {
      counters.ignored++;
      return false;
    }
    // RFC 2132 §9.14: a client identifier is 2..255 bytes. A longer one (RFC 3396 concatenation)
    // would become a key and an echo of any size, so it is refused.
    if (clientId !== undefined && (clientId.length < 2 || clientId.length > 255)) {
      counters.ignored++;
      return false;
    }
    // DECLINE and RELEASE carry the chosen server's identifier (§4.3.3, §4.3.4, table 5).
    if (type === MessageType.DECLINE || type === MessageType.RELEASE) {
      const sid = req.options.get(Option.SERVER_ID);
      if (sid !== undefined && (sid.length !== 4 || readIpv4(sid, 0) !== server)) {
        counters.ignored++;
        return false;
      }
    }
    const key = clientKey(req);
    switch (type) {
      case MessageType.DISCOVER:
        return discover(req, key, now);
      case MessageType.REQUEST:
        return request(req, key, now);
      case MessageType.DECLINE:
        return declined(req, key, now);
      case MessageType.RELEASE:
        return released(req, key, now);
      case MessageType.INFORM:
        return inform(req);
      default:
        counters.ignored++;
        return false;
    }
  }

  return {
    handle(req, now) {
      return decide(req, now) ? replyMessage(req) : undefined;
    },
    writeReply(req, now, out, offset, to) {
      if (!decide(req, now)) return 0;
      const length = writeDecided(req, out, offset);
      to.address = replyAddress;
      to.port = replyPort;
      to.direct = replyDirect;
      return length;
    },
    leases: (now) => pool.list(now),
    stats(now) {
      return {
        ...counters,
        pool: { size: pool.size - (pool.contains(server) ? 1 : 0), ...pool.counts(now) },
      };
    },
    count(counter) {
      counters[counter]++;
    },
    get version() {
      return pool.version;
    },
    get durableVersion() {
      return pool.durable;
    },
    restore: (records, now) => pool.restore(records, parseIpv4, now),
    serverId: server,
  };
}
