// Single-range `Range` requests (RFC 9110 §14) for package downloads.

export type RangeResult =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/**
 * Interprets a `Range` header against a resource of `size` bytes. Syntax it does not support
 * (several ranges, other units, garbage) gives `full`, which RFC 9110 §14.2 allows.
 * `If-Range` that does not match the current ETag also gives `full` (§13.1.5).
 */
export function parseRange(
  range: string | null | undefined,
  size: number,
  ifRange?: string | null,
  etag?: string,
): RangeResult {
  if (!range) return { kind: 'full' };
  if (ifRange && ifRange !== etag) return { kind: 'full' };
  const m = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(range.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (start >= size) return { kind: 'unsatisfiable' };
  if (m[2] === '') return { kind: 'partial', start, end: size - 1 };
  const last = Number(m[2]);
  if (last < start) return { kind: 'full' }; // invalid range-spec: ignore the header
  return { kind: 'partial', start, end: Math.min(last, size - 1) };
}
