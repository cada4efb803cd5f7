// Durable storage port of the telemetry queue, and an in-memory implementation.
import type { TelemetryEvent } from './telemetry-events.js';

/** An event waiting in the queue; `seq` orders events (oldest first). */
export interface QueuedEvent {
  seq: number;
  event: TelemetryEvent;
}

/**
 * Where queued events live until the server acknowledges them. `append` must be durable when it
 * resolves; `remove` runs only after an acknowledgement, so a crash between them resends (at least once).
 */
export interface TelemetryStore {
  append(events: readonly TelemetryEvent[]): Promise<void>;
  /** Oldest first. */
  peek(limit: number): Promise<QueuedEvent[]>;
  remove(seqs: readonly number[]): Promise<void>;
  count(): Promise<number>;
  /** Deletes the `n` oldest events; returns how many were deleted. */
  dropOldest(n: number): Promise<number>;
  getMeta(key: string): Promise<string | undefined>;
  setMeta(key: string, value: string): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryTelemetryStore(): TelemetryStore {
  let seq = 0;
  const rows: QueuedEvent[] = [];
  const meta = new Map<string, string>();
  return {
    async append(events) {
      for (const event of events) rows.push({ seq: ++seq, event: structuredClone(event) });
    },
    async peek(limit) {
      return rows.slice(0, limit).map((r) => ({ seq: r.seq, event: structuredClone(r.event) }));
    },
    async remove(seqs) {
      const gone = new Set(seqs);
      for (let i = rows.length - 1; i >= 0; i--) if (gone.has(rows[i]!.seq)) rows.splice(i, 1);
    },
    async count() {
      return rows.length;
    },
    async dropOldest(n) {
      return rows.splice(0, Math.max(0, n)).length;
    },
    async getMeta(key) {
      return meta.get(key);
    },
    async setMeta(key, value) {
      meta.set(key, value);
    },
    async close() {},
  };
}
