import { readLimitedBody } from '@waved/internal';
import { type Message, message } from '../../i18n/index.js';

/** The request body limit of /save and /save-connect. */
export const MAX_BODY_BYTES = 32 * 1024;

export type BodyResult =
  | { ok: true; fields: Record<string, string> }
  | { ok: false; status: 413 | 415 | 400; message: Message };

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
    if (read.reason === 'aborted')
      return { ok: false, status: 400, message: message('error.body.incomplete') };
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
