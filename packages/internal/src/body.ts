/** A request body read under a cap, or why it was not. */
export type LimitedBody = { ok: true; body: Uint8Array } | { ok: false; reason: 'too-large' | 'aborted' };

/** What `readLimitedBody` reads: a fetch `Request`, or anything with its headers and body. */
export interface BodySource {
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
}

/**
 * Reads at most `limit` bytes of a body. A declared `Content-Length` over the limit is refused
 * before any byte is read; the stream is then counted chunk by chunk and cancelled as soon as it
 * passes the limit, so no more than `limit` bytes (plus one chunk) are ever held. A body the peer
 * stops sending half-way is `aborted`. Never throws for anything the peer sends.
 */
export async function readLimitedBody(
  source: BodySource,
  limit: number,
  onChunk?: (chunk: Uint8Array) => void,
): Promise<LimitedBody> {
  const declared = source.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) {
    await source.body?.cancel().catch(() => {});
    return { ok: false, reason: 'too-large' };
  }
  if (!source.body) return { ok: true, body: new Uint8Array(0) };
  const reader = source.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch {
      return { ok: false, reason: 'aborted' };
    }
    if (next.done) break;
    total += next.value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return { ok: false, reason: 'too-large' };
    }
    onChunk?.(next.value);
    chunks.push(next.value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, body };
}
