// DNS over TCP framing (RFC 1035 §4.2.2, RFC 7766 §8): each message is preceded by its length as a
// 16-bit big-endian number. A pure decoder: bytes in, whole messages out, in any chunking; it never
// holds more than one maximal frame (2 + 65 535 bytes).

export interface FrameDecoder {
  /** Feeds bytes; returns the messages completed by them, in order (possibly none). */
  push(chunk: Uint8Array): Buffer[];
  /** Bytes held for an incomplete frame. */
  pending(): number;
}

export function createFrameDecoder(): FrameDecoder {
  let held: Buffer = Buffer.alloc(0);
  return {
    push(chunk) {
      let buf =
        held.length === 0
          ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length)
          : Buffer.concat([held, chunk]);
      const out: Buffer[] = [];
      let off = 0;
      while (buf.length - off >= 2) {
        const size = (buf[off]! << 8) | buf[off + 1]!;
        if (buf.length - off - 2 < size) break;
        // Copy out: the caller may keep the message after the chunk's memory is reused.
        out.push(Buffer.from(buf.subarray(off + 2, off + 2 + size)));
        off += 2 + size;
      }
      buf = buf.subarray(off);
      held = buf.length === 0 ? Buffer.alloc(0) : Buffer.from(buf);
      return out;
    },
    pending: () => held.length,
  };
}

/** Prefixes a message with its 16-bit length. */
export function encodeFrame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(2 + message.length);
  out.writeUInt16BE(message.length, 0);
  out.set(message, 2);
  return out;
}
