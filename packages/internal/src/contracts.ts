/**
 * The logger every waved package accepts. Each level is optional; a missing level is silent.
 * consola, pino and `console` all fit it as they are.
 */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
  error?(message: string, fields?: Record<string, unknown>): void;
}

/** An opaque timer handle, as returned by `Clock.setTimeout`. */
export type TimerHandle = unknown;

/**
 * Time as every waved package takes it: wall-clock milliseconds and one-shot timers. Tests pass a
 * manual clock (or use fake timers); pure state machines take `now` as an argument instead.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/**
 * The real clock: `Date.now()` and Node's timers, as they are. A pending timer keeps the process
 * alive, so a retry waiting out its backoff is never cut short by the process exiting; whatever
 * owns a long-lived timer (a refresh, a flush interval) clears it in its `stop()`.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout(handle) {
    globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>);
  },
};

/**
 * A clock that never steps: `now()` is the epoch time at process start plus the monotonic time
 * since (`performance.timeOrigin + performance.now()`), so setting the system time (SNTP at boot)
 * neither refills nor drains what is measured on it, such as a rate limit. Timers as `systemClock`.
 */
export const monotonicClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimeout: systemClock.setTimeout,
  clearTimeout: systemClock.clearTimeout,
};

/** Resolves after `ms` on `clock`, or rejects with the signal's reason when it aborts first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
