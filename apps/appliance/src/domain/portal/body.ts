import { type Message, message } from '../../i18n/index.js';

/** Spec "Limits": request body size of /save and /save-connect. */
export const MAX_BODY_BYTES = 32 * 1024;

export type BodyResult =
  | { ok: true; fields: Record<string, string> }
  | { ok: false; status: 413 | 415 | 400; message: Message };

/**
 * Reads at most `limit` bytes of a request body. The declared Content-Length is checked first; the
 * stream is then counted chunk by chunk and abandoned as soon as it passes the limit, so no more
 * than `limit` bytes (plus one chunk) are ever held.
 */
export async function readLimitedBody(
  request: Request,
  limit = MAX_BODY_BYTES,
): Promise<{ ok: true; body: Uint8Array } | { ok: false; aborted?: true }> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) return { ok: false };
  if (!request.body) return { ok: true, body: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      return { ok: false, aborted: true };
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return { ok: false };
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    body.set(c, offset);
    offset += c.byteLength;
  }
  return { ok: true, body };
}

/**
 * Parses an `application/x-www-form-urlencoded` or `multipart/form-data` body into fields. A name
 * sent twice keeps its last value (a hidden `false` followed by a ticked checkbox gives `true`).
 * File parts are ignored: no setting is a file.
 */
export async function parseFormBody(request: Request, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const header = request.headers.get('content-type') ?? '';
  const type = header.toLowerCase();
  const isUrlEncoded = type.startsWith('application/x-www-form-urlencoded');
  const isMultipart = type.startsWith('multipart/form-data');
  if (!isUrlEncoded && !isMultipart) {
    return { ok: false, status: 415, message: message('error.body.type') };
  }
  const read = await readLimitedBody(request, limit);
  if (!read.ok) {
    if (read.aborted) return { ok: false, status: 400, message: message('error.body.incomplete') };
    return { ok: false, status: 413, message: message('error.body.tooLarge', { size: limit / 1024 }) };
  }
  const fields: Record<string, string> = Object.create(null);
  if (isUrlEncoded) {
    for (const [k, v] of new URLSearchParams(new TextDecoder().decode(read.body))) fields[k] = v;
    return { ok: true, fields };
  }
  let form: FormData;
  try {
    form = await new Response(read.body, { headers: { 'content-type': header } }).formData();
  } catch {
    return { ok: false, status: 400, message: message('error.body.multipart') };
  }
  for (const [k, v] of form) if (typeof v === 'string') fields[k] = v;
  return { ok: true, fields };
}
