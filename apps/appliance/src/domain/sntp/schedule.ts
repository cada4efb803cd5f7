import type { StateBus } from '../../core/bus.js';
import { type Logger, silentLogger } from '../../core/log/logger.js';
import { type Clock, systemClock } from '../../core/ports/clock.js';

export interface ClockSyncOptions {
  bus: StateBus;
  /** One attempt with the current settings; rejects when no source gave a usable time. */
  sync: () => Promise<unknown>;
  /** Whether to sync at all (the `ntp.enabled` setting), asked before every attempt. */
  enabled?: () => boolean;
  /** Timers (default `systemClock`); tests pass a manual clock. */
  clock?: Clock;
  /** Delay before the first retry (default 5 s); doubles after each failure up to `maxDelayMs`. */
  firstDelayMs?: number;
  /** Longest wait between attempts (default 10 min). */
  maxDelayMs?: number;
  logger?: Logger;
}

export interface ClockSync {
  start(): void;
  stop(): void;
  /** Synced on the current connection (reset by every disconnect). */
  readonly synced: boolean;
}

/**
 * When the clock is set: after the station has its first IPv4 address (not at association, when
 * udhcpc has no lease yet), retried with exponential backoff until an attempt succeeds, and again
 * after every reconnect.
 */
export function createClockSync(options: ClockSyncOptions): ClockSync {
  const { bus } = options;
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? silentLogger;
  const first = options.firstDelayMs ?? 5_000;
  const max = options.maxDelayMs ?? 600_000;
  let offs: Array<() => void> = [];
  let timer: unknown = null;
  let delay = first;
  let state: 'waiting' | 'running' | 'synced' = 'waiting';
  /** Bumped on disconnect, so an attempt that finishes after it does not count. */
  let generation = 0;

  const cancel = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
  };

  const attempt = async () => {
    timer = null;
    if (options.enabled && !options.enabled()) {
      state = 'waiting';
      return;
    }
    const mine = generation;
    state = 'running';
    try {
      await options.sync();
      if (mine !== generation) return;
      state = 'synced';
      delay = first;
    } catch (error) {
      if (mine !== generation) return;
      state = 'waiting';
      log.warn?.(
        `SNTP: clock not set (${(error as Error).message}); trying again in ${Math.round(delay / 1000)} s`,
      );
      timer = clock.setTimeout(() => void attempt(), delay);
      delay = Math.min(max, delay * 2);
    }
  };

  return {
    get synced() {
      return state === 'synced';
    },
    start() {
      if (offs.length > 0) return;
      offs = [
        bus.on('ConnectionDetails', (d) => {
          if (d.ipv4 && state === 'waiting' && timer === null) void attempt();
        }),
        bus.on('WifiDisconnected', () => {
          generation++;
          cancel();
          state = 'waiting';
          delay = first;
        }),
      ];
      const d = bus.last('ConnectionDetails');
      if (d?.ipv4) void attempt();
    },
    stop() {
      for (const off of offs) off();
      offs = [];
      generation++;
      cancel();
    },
  };
}
