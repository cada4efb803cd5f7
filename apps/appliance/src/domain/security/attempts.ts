import { type Logger, silentLogger } from '../../core/log/logger.js';
import type { FileStore } from '../../core/ports/files.js';

/**
 * One failed-attempt counter for the device PIN, shared by every place that checks it (the
 * portal, PC Link, the PC Link verification page), with exponential backoff, kept in a small file
 * so that a restart (or pulling the plug) does not reset it.
 *
 * Backoff: the first FREE_FAILURES wrong PINs in a row cost nothing (typos); after the n-th
 * (n > FREE_FAILURES) every check is refused for BASE_DELAY_MS × 2^(n − FREE_FAILURES − 1), at most
 * MAX_DELAY_MS. The right PIN resets the count. During a lock even the right PIN is refused.
 * With the defaults the delays are 1 s, 2 s, 4 s … 1 h, so trying all 10 000 four-digit PINs takes
 * over a year instead of the 141 s it took without a limit.
 */
export const PIN_FREE_FAILURES = 3;
export const PIN_BASE_DELAY_MS = 1_000;
export const PIN_MAX_DELAY_MS = 60 * 60 * 1000;

export type AttemptResult =
  | { ok: true }
  | { ok: false; reason: 'wrong'; failures: number; retryAfterMs: number }
  | { ok: false; reason: 'locked'; failures: number; retryAfterMs: number };

export interface AttemptStatus {
  failures: number;
  /** 0 when a check may run now. */
  retryAfterMs: number;
}

export interface AttemptLimiter {
  /**
   * Runs one PIN check when no lock holds, records its outcome (persisted before this resolves)
   * and answers. Checks run one at a time, so parallel guesses cannot slip into the same window.
   */
  attempt(check: () => Promise<boolean>): Promise<AttemptResult>;
  status(): Promise<AttemptStatus>;
}

export interface AttemptLimiterOptions {
  /**
   * The state file (JSON, mode 0600, written atomically through `files`) and the store that reads
   * and writes it. Absent: kept in memory only.
   */
  persist?: { path: string; files: Pick<FileStore, 'read' | 'write'> };
  /** ms since the epoch (default Date.now). */
  now?: () => number;
  freeFailures?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  logger?: Logger;
}

interface State {
  failures: number;
  /** ms since the epoch; 0 = no lock. */
  lockedUntil: number;
}

/** The delay after the `failures`-th wrong PIN in a row. */
export function backoffDelay(
  failures: number,
  options: Pick<AttemptLimiterOptions, 'freeFailures' | 'baseDelayMs' | 'maxDelayMs'> = {},
): number {
  const free = options.freeFailures ?? PIN_FREE_FAILURES;
  const base = options.baseDelayMs ?? PIN_BASE_DELAY_MS;
  const max = options.maxDelayMs ?? PIN_MAX_DELAY_MS;
  if (failures <= free) return 0;
  const exponent = Math.min(failures - free - 1, 40);
  return Math.min(max, base * 2 ** exponent);
}

function parseState(text: string): State | null {
  try {
    const v = JSON.parse(text) as Partial<State> & { version?: unknown };
    if (v.version !== 1) return null;
    const failures = Number(v.failures);
    const lockedUntil = Number(v.lockedUntil);
    if (!Number.isSafeInteger(failures) || failures < 0) return null;
    if (!Number.isSafeInteger(lockedUntil) || lockedUntil < 0) return null;
    return { failures, lockedUntil };
  } catch {
    return null;
  }
}

export function createAttemptLimiter(options: AttemptLimiterOptions = {}): AttemptLimiter {
  const now = options.now ?? Date.now;
  const log = options.logger ?? silentLogger;
  const maxDelay = options.maxDelayMs ?? PIN_MAX_DELAY_MS;
  let memory: State = { failures: 0, lockedUntil: 0 };
  let queue: Promise<unknown> = Promise.resolve();

  /** The file is the truth: read it before each check, so a second limiter on the same file agrees. */
  async function load(): Promise<State> {
    const persist = options.persist;
    if (!persist) return memory;
    const text = await persist.files.read(persist.path);
    if (text === null) return { failures: 0, lockedUntil: 0 };
    const state = parseState(text);
    if (state) return state;
    // Unreadable: never read as "no failures". Count as locked for the longest delay.
    log.warn?.(`security: ${persist.path} is unreadable; PIN checks wait ${maxDelay / 60000} min`);
    return { failures: 1_000, lockedUntil: now() + maxDelay };
  }

  async function store(state: State): Promise<void> {
    memory = state;
    if (!options.persist) return;
    const text = `${JSON.stringify({ version: 1, failures: state.failures, lockedUntil: state.lockedUntil })}\n`;
    await options.persist.files.write(options.persist.path, text, 0o600);
  }

  /** Time left on the lock; a lock further away than the longest delay (the clock went back) is cut to it. */
  function left(state: State): number {
    const ms = state.lockedUntil - now();
    return ms <= 0 ? 0 : Math.min(ms, maxDelay);
  }

  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    attempt(check) {
      return serial(async () => {
        const state = await load();
        const wait = left(state);
        if (wait > 0) return { ok: false, reason: 'locked', failures: state.failures, retryAfterMs: wait };
        let good = false;
        try {
          good = await check();
        } catch {
          good = false;
        }
        if (good) {
          if (state.failures !== 0 || state.lockedUntil !== 0) await store({ failures: 0, lockedUntil: 0 });
          return { ok: true };
        }
        const failures = state.failures + 1;
        const delay = backoffDelay(failures, options);
        await store({ failures, lockedUntil: delay > 0 ? now() + delay : 0 });
        if (delay > 0)
          log.warn?.(
            `security: ${failures} wrong PINs in a row; the next check waits ${Math.ceil(delay / 1000)} s`,
          );
        return { ok: false, reason: 'wrong', failures, retryAfterMs: delay };
      });
    },
    status() {
      return serial(async () => {
        const state = await load();
        return { failures: state.failures, retryAfterMs: left(state) };
      });
    },
  };
}
