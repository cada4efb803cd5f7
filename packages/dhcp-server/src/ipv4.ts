import { DhcpError } from './errors.js';

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Parses a dotted-quad IPv4 address into an unsigned 32-bit number; throws `DHCP_CONFIG` otherwise. */
export function parseIpv4(text: string, what = 'address'): number {
  const m = typeof text === 'string' ? DOTTED.exec(text) : null;
  if (m) {
    let n = 0;
    let ok = true;
    for (let i = 1; i <= 4; i++) {
      const octet = Number(m[i]);
      if (octet > 255) ok = false;
      n = n * 256 + octet;
    }
    if (ok) return n;
  }
  throw new DhcpError(
    'DHCP_CONFIG',
    `${what} must be a dotted-quad IPv4 address, got ${JSON.stringify(text)}`,
  );
}

/** Formats an unsigned 32-bit number as a dotted quad. */
export function formatIpv4(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** Prefix length of a contiguous netmask, or -1 when the mask is not contiguous. */
export function prefixLength(mask: number): number {
  const inverted = ~mask >>> 0;
  // a contiguous mask inverted is 2^k - 1
  if ((inverted & (inverted + 1)) !== 0) return -1;
  return 32 - Math.log2(inverted + 1);
}

export function readIpv4(buf: Uint8Array, at: number): number {
  return ((buf[at]! << 24) | (buf[at + 1]! << 16) | (buf[at + 2]! << 8) | buf[at + 3]!) >>> 0;
}

export function writeIpv4(buf: Uint8Array, at: number, n: number): void {
  buf[at] = n >>> 24;
  buf[at + 1] = (n >>> 16) & 255;
  buf[at + 2] = (n >>> 8) & 255;
  buf[at + 3] = n & 255;
}

/** Four bytes for an IPv4 address (for option values). */
export function ipv4Bytes(n: number): Uint8Array {
  const b = new Uint8Array(4);
  writeIpv4(b, 0, n);
  return b;
}
