// Per-source token buckets with a hard cap on memory. A flood of spoofed sources cannot grow the
// table past `maxSources`, and cannot evict the buckets of real clients either: once the table is
// full (and a sweep of idle buckets freed nothing), every unknown source shares one overflow bucket.

export interface RateLimitOptions {
  /** Sustained queries per second allowed from one source address; default 200. */
  queriesPerSecond?: number;
  /** Bucket size: queries a source may send at once; default 2 × queriesPerSecond. */
  burst?: number;
  /** Most source addresses tracked at once; default 4096. */
  maxSources?: number;
}

export interface RateLimiter {
  /** Takes one token for `source`; false means drop the query. */
  allow(source: string): boolean;
  /** Sources currently tracked (never above maxSources). */
  size(): number;
}

interface Bucket {
  tokens: number;
  last: number;
}

const SWEEP_INTERVAL_MS = 1000;

export function createRateLimiter(options: RateLimitOptions, now: () => number): RateLimiter {
  const rate = options.queriesPerSecond ?? 200;
  const burst = options.burst ?? rate * 2;
  const maxSources = options.maxSources ?? 4096;
  const perMs = rate / 1000;
  const buckets = new Map<string, Bucket>();
  const overflow: Bucket = { tokens: burst, last: now() };
  let lastSweep = Number.NEGATIVE_INFINITY;

  function take(b: Bucket, t: number): boolean {
    const refilled = b.tokens + (t - b.last) * perMs;
    b.tokens = Math.min(refilled, burst);
    b.last = t;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return true;
    }
    return false;
  }

  function sweep(t: number): void {
    lastSweep = t;
    // A bucket that would be full again is indistinguishable from a new one: forget it.
    for (const [key, b] of buckets) if (b.tokens + (t - b.last) * perMs >= burst) buckets.delete(key);
  }

  return {
    allow(source) {
      const t = now();
      let b = buckets.get(source);
      if (b === undefined) {
        if (buckets.size >= maxSources) {
          if (t - lastSweep >= SWEEP_INTERVAL_MS) sweep(t);
          if (buckets.size >= maxSources) return take(overflow, t);
        }
        b = { tokens: burst, last: t };
        buckets.set(source, b);
      }
      return take(b, t);
    },
    size: () => buckets.size,
  };
}
