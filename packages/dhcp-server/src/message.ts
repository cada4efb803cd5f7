import { BOOTP_MIN_BYTES, HEADER_BYTES, MAGIC_COOKIE, Option } from './constants.js';
import { DhcpError } from './errors.js';
import { readIpv4, writeIpv4 } from './ipv4.js';

/**
 * A decoded DHCP/BOOTP message (RFC 2131 §2, figure 1). Addresses are unsigned 32-bit numbers;
 * `options` maps an option code to its value bytes, in wire order, with repeated instances already
 * concatenated (RFC 3396).
 */
export interface DhcpMessage {
  op: number;
  htype: number;
  hlen: number;
  hops: number;
  xid: number;
  secs: number;
  flags: number;
  ciaddr: number;
  yiaddr: number;
  siaddr: number;
  giaddr: number;
  /** Client hardware address field, up to 16 bytes; the hardware address is the first `hlen`. */
  chaddr: Uint8Array;
  /** Server host name field, up to 64 bytes (empty when it carried options, RFC 2131 §4.1). */
  sname: Uint8Array;
  /** Boot file name field, up to 128 bytes (empty when it carried options). */
  file: Uint8Array;
  options: Map<number, Uint8Array>;
}

export interface Decoded<T> {
  value: T;
  bytes: number;
}

const EMPTY = new Uint8Array(0);
const ZERO_FILL = Uint8Array.prototype.fill;

function fail(
  code: 'DHCP_DECODE_TRUNCATED' | 'DHCP_DECODE_MAGIC' | 'DHCP_DECODE_HLEN' | 'DHCP_DECODE_OPTION',
  message: string,
): never {
  throw new DhcpError(code, message);
}

/**
 * Reads the options in `buf[start, end)` into `into`. Every length is checked against `end`
 * (RFC 2132 §2: code, length, data; codes 0 and 255 have no length). A repeated option's pieces are
 * collected in `repeats` and joined once at the end, so a datagram full of repeats costs linear time.
 */
function readOptions(
  buf: Uint8Array,
  backing: ArrayBufferLike,
  start: number,
  end: number,
  into: Map<number, Uint8Array>,
  repeats: Map<number, Uint8Array[]> | undefined,
): Map<number, Uint8Array[]> | undefined {
  let i = start;
  while (i < end) {
    const code = buf[i]!;
    if (code === Option.PAD) {
      i++;
      continue;
    }
    if (code === Option.END) return repeats;
    if (i + 1 >= end) fail('DHCP_DECODE_OPTION', `option ${code} at byte ${i} has no length byte`);
    const len = buf[i + 1]!;
    const from = i + 2;
    const to = from + len;
    if (to > end)
      fail('DHCP_DECODE_OPTION', `option ${code} at byte ${i} claims ${len} bytes, only ${end - from} left`);
    // A plain Uint8Array view: cheaper to create than Buffer#subarray, no copy.
    const piece = new Uint8Array(backing, buf.byteOffset + from, len);
    const first = into.get(code);
    if (first === undefined) into.set(code, piece);
    else {
      // created on the first repeat only: most messages have none, and then no Map is allocated
      repeats ??= new Map();
      const list = repeats.get(code);
      if (list === undefined) repeats.set(code, [first, piece]);
      else list.push(piece);
    }
    i = to;
  }
  // A missing END is tolerated (many clients pad instead); every byte read was in bounds.
  return repeats;
}

/** RFC 3396 §5: repeated instances of one option are concatenated in order. */
function joinRepeats(into: Map<number, Uint8Array>, repeats: Map<number, Uint8Array[]>): void {
  for (const [code, pieces] of repeats) {
    let total = 0;
    for (const p of pieces) total += p.length;
    const joined = new Uint8Array(total);
    let at = 0;
    for (const p of pieces) {
      joined.set(p, at);
      at += p.length;
    }
    into.set(code, joined);
  }
}

/**
 * Decodes one DHCP message from `buf` (starting at `offset`). Input is treated as hostile: the fixed
 * header, the magic cookie, `hlen` and every option length are checked, and errors carry a
 * `DHCP_DECODE_*` code. Values are views into `buf` where possible (no copies).
 */
export function decodeMessage(buf: Uint8Array, offset = 0): Decoded<DhcpMessage> {
  return { value: decodeMessageValue(buf, offset), bytes: buf.length - offset };
}

/**
 * `decodeMessage` without the `{ value, bytes }` wrapper, for the message in `buf[offset, end)` (the
 * servers' receive path: a slot of a larger receive buffer, no view of its own).
 */
export function decodeMessageValue(buf: Uint8Array, offset = 0, end = buf.length): DhcpMessage {
  if (!(end <= buf.length)) fail('DHCP_DECODE_TRUNCATED', `end ${end} is past the buffer (${buf.length})`);
  // RFC 2131 §2: 236 bytes of fixed fields, then the 4-byte cookie (RFC 2131 §3).
  if (offset < 0 || end - offset < HEADER_BYTES) {
    fail(
      'DHCP_DECODE_TRUNCATED',
      `a DHCP message needs at least ${HEADER_BYTES} bytes, got ${Math.max(0, end - offset)}`,
    );
  }
  const o = offset;
  if (readIpv4(buf, o + 236) !== MAGIC_COOKIE)
    fail('DHCP_DECODE_MAGIC', 'magic cookie 99.130.83.99 missing (RFC 2131 §3)');
  const hlen = buf[o + 2]!;
  if (hlen > 16) fail('DHCP_DECODE_HLEN', `hlen ${hlen} is larger than the 16-byte chaddr field`);
  const options = new Map<number, Uint8Array>();
  // `.buffer` once: each read of it is a call into the runtime, and every view below shares it
  const backing = buf.buffer;
  let repeats = readOptions(buf, backing, o + HEADER_BYTES, end, options, undefined);
  const base = buf.byteOffset + o;
  let sname = new Uint8Array(backing, base + 44, 64);
  let file = new Uint8Array(backing, base + 108, 128);
  // RFC 2131 §4.1 / RFC 2132 §9.3: option 52 says `file` (1), `sname` (2) or both (3) hold options;
  // they are read after the options field, file first (RFC 3396 §7).
  const overload = options.get(Option.OVERLOAD);
  if (overload !== undefined) {
    if (overload.length !== 1 || repeats?.has(Option.OVERLOAD)) {
      fail('DHCP_DECODE_OPTION', 'option 52 (overload) must be 1 byte');
    }
    options.delete(Option.OVERLOAD);
    const which = overload[0]!;
    if (which & 1) {
      repeats = readOptions(buf, backing, o + 108, o + 236, options, repeats);
      file = EMPTY;
    }
    if (which & 2) {
      repeats = readOptions(buf, backing, o + 44, o + 108, options, repeats);
      sname = EMPTY;
    }
    options.delete(Option.OVERLOAD); // an overload option inside file/sname means nothing more
  }
  if (repeats !== undefined) joinRepeats(options, repeats);
  const value: DhcpMessage = {
    op: buf[o]!,
    htype: buf[o + 1]!,
    hlen,
    hops: buf[o + 3]!,
    xid: readIpv4(buf, o + 4),
    secs: (buf[o + 8]! << 8) | buf[o + 9]!,
    flags: (buf[o + 10]! << 8) | buf[o + 11]!,
    ciaddr: readIpv4(buf, o + 12),
    yiaddr: readIpv4(buf, o + 16),
    siaddr: readIpv4(buf, o + 20),
    giaddr: readIpv4(buf, o + 24),
    chaddr: new Uint8Array(backing, base + 28, 16),
    sname,
    file,
    options,
  };
  return value;
}

function checkField(ok: boolean, what: string): void {
  if (!ok) throw new DhcpError('DHCP_ENCODE_FIELD', `cannot encode: ${what}`);
}

function optionsLength(options: Map<number, Uint8Array>): number {
  let n = 1; // END
  // forEach, not for-of: no iterator or [code, data] pair per option on the per-reply path
  options.forEach((data, code) => {
    checkField(Number.isInteger(code) && code > 0 && code < 255, `option code ${code} (1..254)`);
    // RFC 3396: values over 255 bytes are split over several instances, each with its own header.
    n += optionBytes(data.length);
  });
  return n;
}

/** Bytes `encodeMessage` writes for `message` (padded to the 300-byte BOOTP minimum). */
export function messageEncodingLength(message: DhcpMessage): number {
  return Math.max(BOOTP_MIN_BYTES, HEADER_BYTES + optionsLength(message.options));
}

const u8 = (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xff;
const u16 = (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffff;
const u32 = (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff;

/**
 * Encodes `message` into `buf` at `offset` (or a new buffer) and returns the written bytes as a view.
 * Options longer than 255 bytes are split into consecutive instances (RFC 3396) instead of wrapping
 * the length byte; the message is zero-padded to 300 bytes (RFC 1542 §3.2.1). Without `buf`, the
 * result may share its ArrayBuffer with other small Buffers, as `Buffer.allocUnsafe` does: copy it
 * before transferring `.buffer` to a worker.
 */
export function encodeMessage(message: DhcpMessage, buf?: Uint8Array, offset = 0): Buffer {
  if (buf === undefined) {
    // A slice of Node's shared allocation pool: a reply costs no backing store of its own
    // (Buffer.alloc would allocate and later free one per reply).
    const out = Buffer.allocUnsafe(messageEncodingLength(message));
    writeMessage(message, out, 0);
    return out;
  }
  const out = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const length = writeMessage(message, out, offset);
  return out.subarray(offset, offset + length);
}

/**
 * Writes `message` into `out` at `offset` (zero-padded to 300 bytes) and returns the number of bytes
 * written; what `encodeMessage` does, with no view or Buffer created (the servers' reply path).
 * Throws DHCP_ENCODE_FIELD or DHCP_ENCODE_BUFFER, with nothing written, as encodeMessage does.
 */
function writeMessage(message: DhcpMessage, out: Uint8Array, offset: number): number {
  const m = message;
  checkField(u8(m.op) && u8(m.htype) && u8(m.hlen) && u8(m.hops), 'op/htype/hlen/hops must be bytes');
  checkField(m.hlen <= 16, 'hlen must be at most 16');
  checkField(u32(m.xid) && u16(m.secs) && u16(m.flags), 'xid/secs/flags out of range');
  checkField(u32(m.ciaddr) && u32(m.yiaddr) && u32(m.siaddr) && u32(m.giaddr), 'addresses must be uint32');
  checkField(m.chaddr.length <= 16, 'chaddr is at most 16 bytes');
  checkField(m.sname.length <= 64, 'sname is at most 64 bytes');
  checkField(m.file.length <= 128, 'file is at most 128 bytes');
  const length = messageEncodingLength(m);
  if (!Number.isInteger(offset) || offset < 0 || out.length - offset < length) {
    throw new DhcpError('DHCP_ENCODE_BUFFER', `buffer too small: need ${length} bytes at offset ${offset}`);
  }
  const o = offset;
  ZERO_FILL.call(out, 0, o, o + length); // the typed-array fill: Buffer#fill validates and allocates
  out[o] = m.op;
  out[o + 1] = m.htype;
  out[o + 2] = m.hlen;
  out[o + 3] = m.hops;
  writeIpv4(out, o + 4, m.xid);
  out[o + 8] = m.secs >>> 8;
  out[o + 9] = m.secs & 255;
  out[o + 10] = m.flags >>> 8;
  out[o + 11] = m.flags & 255;
  writeIpv4(out, o + 12, m.ciaddr);
  writeIpv4(out, o + 16, m.yiaddr);
  writeIpv4(out, o + 20, m.siaddr);
  writeIpv4(out, o + 24, m.giaddr);
  out.set(m.chaddr, o + 28);
  out.set(m.sname, o + 44);
  out.set(m.file, o + 108);
  writeIpv4(out, o + 236, MAGIC_COOKIE);
  let i = o + HEADER_BYTES;
  m.options.forEach((data, code) => {
    i = writeOption(out, i, code, data);
  });
  out[i] = Option.END;
  return length;
}

/**
 * Writes one option at `at` as writeMessage does (code, length, data; a value over 255 bytes as
 * consecutive instances, RFC 3396) and returns where the next one goes. No bounds check: the caller
 * measured the space.
 */
export function writeOption(out: Uint8Array, at: number, code: number, data: Uint8Array): number {
  let i = at;
  if (data.length <= 255) {
    // the common case: one instance, no view to create
    out[i++] = code;
    out[i++] = data.length;
    out.set(data, i);
    return i + data.length;
  }
  for (let from = 0; from < data.length; from += 255) {
    const part = Math.min(255, data.length - from);
    out[i++] = code;
    out[i++] = part;
    out.set(data.subarray(from, from + part), i);
    i += part;
  }
  return i;
}

/** Bytes writeOption takes for a value of `length` bytes. */
export function optionBytes(length: number): number {
  return length === 0 ? 2 : 2 * Math.ceil(length / 255) + length;
}
