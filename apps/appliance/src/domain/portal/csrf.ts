import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares a submitted CSRF token with the session's in constant time. Both sides are hashed first
 * so that tokens of different lengths take the same time as equal-length ones.
 */
export function csrfMatches(expected: string, submitted: string | null | undefined): boolean {
  if (typeof submitted !== 'string' || submitted === '' || expected === '') return false;
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(submitted, 'utf8').digest();
  return timingSafeEqual(a, b) && expected.length === submitted.length;
}
