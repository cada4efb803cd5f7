/** The shape of the shared `Clock` (`@waved/internal`), restated so test-lab depends on nothing. */
interface TestClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ManualClock extends TestClock {
  /** Timers set and not yet fired or cleared. */
  readonly pending: number;
  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way, in order, each at
   * its own time; between timers (and after the last) pending promise callbacks run, so code that
   * awaits and then sets the next timer is followed.
   */
  advance(ms: number): Promise<void>;
  /** The same without waiting: due timers fire synchronously, for code that never awaits. */
  advanceSync(ms: number): void;
}

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * A clock that moves only when the test says so. The rule of the project: code that takes a
 * `clock` is tested with this one passed in; fake timers only for code that takes none.
 */
export function manualClock(startMs = 1_700_000_000_000): ManualClock {
  let now = startMs;
  let seq = 0;
  const timers: Timer[] = [];
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  const nextDue = (target: number): Timer | undefined => {
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const next = timers[0];
    if (!next || next.at > target) return undefined;
    timers.shift();
    return next;
  };
  return {
    now: () => now,
    get pending() {
      return timers.length;
    },
    setTimeout(fn, ms) {
      const timer = { at: now + Math.max(0, ms), seq: seq++, fn };
      timers.push(timer);
      return timer;
    },
    clearTimeout(handle) {
      const i = timers.indexOf(handle as Timer);
      if (i >= 0) timers.splice(i, 1);
    },
    async advance(ms) {
      const target = now + ms;
      for (;;) {
        await settle();
        const next = nextDue(target);
        if (!next) break;
        now = next.at;
        next.fn();
      }
      now = target;
      for (let i = 0; i < 5; i++) await settle();
    },
    advanceSync(ms) {
      const target = now + ms;
      for (let next = nextDue(target); next; next = nextDue(target)) {
        now = next.at;
        next.fn();
      }
      now = target;
    },
  };
}
