import type { ScreensClock } from '../../src/domain/screens/index.js';

/** A clock the test moves by hand; intervals fire as time passes. */
export function manualClock() {
  let now = 1_000_000;
  const timers = new Map<number, { fn: () => void; ms: number; next: number }>();
  let id = 0;
  const clock: ScreensClock & { advance(ms: number): void; active(): number } = {
    now: () => now,
    setInterval(fn, ms) {
      timers.set(++id, { fn, ms, next: now + ms });
      return id;
    },
    clearInterval(h) {
      timers.delete(h as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.values()].filter((t) => t.next <= end).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        now = due.next;
        due.next += due.ms;
        due.fn();
      }
      now = end;
    },
    active: () => timers.size,
  };
  return clock;
}
