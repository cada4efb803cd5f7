import { expect, it } from 'vitest';
import { createRateLimiter } from '../src/rate-limit.js';

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

it('allows a burst, then the sustained rate, per source', () => {
  const c = clock();
  const rl = createRateLimiter({ queriesPerSecond: 10, burst: 5 }, c.now);
  const burst = Array.from({ length: 8 }, () => rl.allow('10.0.0.1'));
  expect(burst).toEqual([true, true, true, true, true, false, false, false]);
  expect(rl.allow('10.0.0.2')).toBe(true); // another source has its own bucket
  c.advance(100); // one token back at 10/s
  expect([rl.allow('10.0.0.1'), rl.allow('10.0.0.1')]).toEqual([true, false]);
  c.advance(10_000);
  expect(Array.from({ length: 6 }, () => rl.allow('10.0.0.1')).filter(Boolean)).toHaveLength(5);
});

it('memory stays bounded under a flood of spoofed sources, and known sources keep their buckets', () => {
  const c = clock();
  const rl = createRateLimiter({ queriesPerSecond: 100, burst: 100, maxSources: 1000 }, c.now);
  for (let i = 0; i < 50; i++) rl.allow('192.168.2.50'); // a real client, half its bucket used
  let allowed = 0;
  for (let i = 0; i < 100_000; i++)
    if (rl.allow(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)) allowed++;
  expect(rl.size()).toBe(1000);
  // Beyond the table, spoofed sources share one overflow bucket: 999 new entries + 100 overflow tokens.
  expect(allowed).toBe(999 + 100);
  expect(Array.from({ length: 60 }, () => rl.allow('192.168.2.50')).filter(Boolean)).toHaveLength(50);
});

it('idle buckets are swept when the table is full, so new clients get their own bucket again', () => {
  const c = clock();
  const rl = createRateLimiter({ queriesPerSecond: 10, burst: 10, maxSources: 3 }, c.now);
  for (const s of ['a', 'b', 'c']) rl.allow(s);
  c.advance(5_000);
  expect(rl.allow('d')).toBe(true);
  expect(rl.size()).toBe(1);
});
