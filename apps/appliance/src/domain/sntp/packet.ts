import { ApplianceError } from '../../core/errors.js';

/** RFC 4330 §4: the fixed 48-byte NTP header (extension fields and MAC, if any, follow and are ignored). */
export const NTP_HEADER_BYTES = 48;
/** Seconds between 1900-01-01 (NTP era 0) and 1970-01-01. */
export const NTP_UNIX_OFFSET_S = 2_208_988_800;

export const MODE_CLIENT = 3;
export const MODE_SERVER = 4;
export const LI_ALARM = 3;

export interface NtpPacket {
  /** Leap indicator, 0-3 (3: clock not synchronised). */
  li: number;
  /** Version number (3 or 4). */
  vn: number;
  mode: number;
  /** 0: Kiss-o'-Death; 1-15 valid; 16+: unsynchronised. */
  stratum: number;
  poll: number;
  precision: number;
  /** Seconds (16.16 fixed point, signed). */
  rootDelay: number;
  /** Seconds (16.16 fixed point, unsigned). */
  rootDispersion: number;
  /** The 4 raw bytes; ASCII kiss code when stratum is 0. */
  referenceId: Buffer;
  /** 64-bit NTP timestamps as raw integers (seconds << 32 | fraction), compared bit for bit. */
  referenceTimestamp: bigint;
  originateTimestamp: bigint;
  receiveTimestamp: bigint;
  transmitTimestamp: bigint;
}

export function encodingLength(_packet?: NtpPacket): number {
  return NTP_HEADER_BYTES;
}

export function encode(packet: NtpPacket, buf?: Buffer, offset = 0): Buffer {
  const out = buf ?? Buffer.alloc(NTP_HEADER_BYTES + offset);
  if (out.length - offset < NTP_HEADER_BYTES) throw new RangeError('buffer too small for an NTP header');
  out[offset] = ((packet.li & 3) << 6) | ((packet.vn & 7) << 3) | (packet.mode & 7);
  out[offset + 1] = packet.stratum & 0xff;
  out.writeInt8(Math.max(-128, Math.min(127, packet.poll)), offset + 2);
  out.writeInt8(Math.max(-128, Math.min(127, packet.precision)), offset + 3);
  out.writeInt32BE(Math.round(packet.rootDelay * 65536) | 0, offset + 4);
  out.writeUInt32BE(Math.round(packet.rootDispersion * 65536) >>> 0, offset + 8);
  const ref = Buffer.alloc(4);
  packet.referenceId.copy(ref, 0, 0, 4);
  ref.copy(out, offset + 12);
  out.writeBigUInt64BE(BigInt.asUintN(64, packet.referenceTimestamp), offset + 16);
  out.writeBigUInt64BE(BigInt.asUintN(64, packet.originateTimestamp), offset + 24);
  out.writeBigUInt64BE(BigInt.asUintN(64, packet.receiveTimestamp), offset + 32);
  out.writeBigUInt64BE(BigInt.asUintN(64, packet.transmitTimestamp), offset + 40);
  return out;
}

/** Decodes the header; anything shorter than 48 bytes is refused (RFC 4330 §4). */
export function decode(buf: Uint8Array, offset = 0): { value: NtpPacket; bytes: number } {
  if (!Number.isInteger(offset) || offset < 0 || buf.length - offset < NTP_HEADER_BYTES) {
    throw new ApplianceError(
      'SNTP_BAD_PACKET',
      `NTP packet too short: ${Math.max(0, buf.length - offset)} bytes, need ${NTP_HEADER_BYTES}`,
    );
  }
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const first = b[offset]!;
  return {
    value: {
      li: first >> 6,
      vn: (first >> 3) & 7,
      mode: first & 7,
      stratum: b[offset + 1]!,
      poll: b.readInt8(offset + 2),
      precision: b.readInt8(offset + 3),
      rootDelay: b.readInt32BE(offset + 4) / 65536,
      rootDispersion: b.readUInt32BE(offset + 8) / 65536,
      referenceId: Buffer.from(b.subarray(offset + 12, offset + 16)),
      referenceTimestamp: b.readBigUInt64BE(offset + 16),
      originateTimestamp: b.readBigUInt64BE(offset + 24),
      receiveTimestamp: b.readBigUInt64BE(offset + 32),
      transmitTimestamp: b.readBigUInt64BE(offset + 40),
    },
    bytes: NTP_HEADER_BYTES,
  };
}

/**
 * NTP timestamp to Unix milliseconds with the era rule of RFC 4330 §3: when the top bit of the
 * seconds is set the time is in 1968-2036 (era 0); when it is clear, in 2036-2104 (era 1). So a
 * server past 2036-02-07 06:28:16 UTC is read correctly.
 */
export function ntpToUnixMs(ts: bigint): number {
  const seconds = Number(ts >> 32n);
  const fraction = Number(ts & 0xffffffffn);
  const eraSeconds = seconds >= 0x80000000 ? seconds : seconds + 0x1_0000_0000;
  return (eraSeconds - NTP_UNIX_OFFSET_S) * 1000 + (fraction / 0x1_0000_0000) * 1000;
}

/** Unix milliseconds to an NTP timestamp (wraps into era 1 after 2036). */
export function unixMsToNtp(ms: number): bigint {
  const total = ms / 1000 + NTP_UNIX_OFFSET_S;
  const seconds = Math.floor(total);
  const fraction = Math.floor((total - seconds) * 0x1_0000_0000);
  return (BigInt(seconds >>> 0) << 32n) | BigInt(fraction >>> 0);
}

/** The kiss code of a stratum-0 reply (`DENY`, `RSTR`, `RATE`, …), printable ASCII only. */
export function kissCode(packet: NtpPacket): string {
  return [...packet.referenceId].map((c) => (c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '?')).join('');
}
