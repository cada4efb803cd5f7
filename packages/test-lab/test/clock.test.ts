import { expect, it } from 'vitest';
import { manualClock } from '../src/index.js';

it('fires due timers in time order, each at its own time, and never early', () => {
  const clock = manualClock(1000);
  const fired: Array<[string, number]> = [];
  clock.setTimeout(() => fired.push(['b', clock.now()]), 200);
  clock.setTimeout(() => fired.push(['a', clock.now()]), 100);
  const c = clock.setTimeout(() => fired.push(['c', clock.now()]), 150);
  clock.clearTimeout(c);
  clock.advanceSync(99);
  expect(fired).toEqual([]);
  clock.advanceSync(150);
  expect(fired).toEqual([
    ['a', 1100],
    ['b', 1200],
  ]);
  expect(clock.now()).toBe(1249);
  expect(clock.pending).toBe(0);
});

it('advance() follows code that awaits between timers', async () => {
  const clock = manualClock(0);
  const ticks: number[] = [];
  const loop = async () => {
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve) => clock.setTimeout(resolve, 10));
      ticks.push(clock.now());
    }
  };
  const done = loop();
  await clock.advance(25);
  expect(ticks).toEqual([10, 20]);
  await clock.advance(5);
  await done;
  expect(ticks).toEqual([10, 20, 30]);
});
