/** Timers the state machines take, so a 300 s timeout is tested in milliseconds. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The shared clock shape: wall time and timers. */
export interface Clock extends Timers {
  now(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Sets the system clock (CAP_SYS_TIME on a device; a log line in the simulator). */
export type SetClock = (date: Date) => Promise<void>;
