// Durable telemetry queue (docs/decisions.md, "telemetry delivery"): batches of up to 50 events or every 5 s,
// retry with backoff, a UUID per event, bounded with counted oldest-first drops, at least once.
import { nodeCrypto } from './builtins.js';
import { type Clock, type Logger, sleep, systemClock } from './clock.js';
import { ANALYTICS_APP_ID } from './constants.js';
import { CloudError } from './errors.js';
import {
  type TelemetryAck,
  type TelemetryBatch,
  type TelemetryCommonFields,
  type TelemetryEvent,
  type TelemetryEventName,
  type TelemetryParams,
  validateTelemetryParams,
} from './telemetry-events.js';
import type { TelemetryStore } from './telemetry-store.js';

export const TELEMETRY_BATCH_SIZE = 50;
export const TELEMETRY_FLUSH_INTERVAL_MS = 5_000;
export const TELEMETRY_MAX_QUEUED = 10_000;

export interface TelemetryQueueOptions {
  store: TelemetryStore;
  /** Sends one batch; resolves when the server acknowledged it (`client.sendTelemetry`). */
  send(batch: TelemetryBatch): Promise<TelemetryAck>;
  /** The device serial: `user_unique_id` and `mic_serial_number`. */
  serial: string;
  /** From `openUdidFromMac(mac)`. */
  openUdid: string;
  /** Common fields other than the serial and the time, read when an event is tracked. */
  common:
    | Pick<TelemetryCommonFields, 'fw_ver' | 'evt_language' | 'evt_timezone'>
    | (() => Pick<TelemetryCommonFields, 'fw_ver' | 'evt_language' | 'evt_timezone'>);
  clock?: Clock;
  logger?: Logger;
  /** Events per batch, at most 50 (default 50). */
  batchSize?: number;
  /** Time between sends when fewer than `batchSize` events wait (default 5 s). */
  flushIntervalMs?: number | undefined;
  /** Queue bound; beyond it the oldest events are dropped and counted (default 10 000). */
  maxQueued?: number;
  /** Backoff after failed sends: base doubles per failure up to max (defaults 1 s, 5 min). */
  backoff?: { baseMs?: number | undefined; maxMs?: number | undefined } | undefined;
  /** Called when the analytics service assigns or changes the device id. */
  onDeviceId?(deviceId: string): void;
  uuid?(): string;
  /** Start the background sender at once (default true). */
  autoStart?: boolean;
}

export interface TelemetryStats {
  pending: number;
  /** events acknowledged by the server since the queue was created */
  sent: number;
  /** events dropped because the queue was full (persisted across restarts) */
  dropped: number;
  /** failed batch sends since the queue was created */
  failures: number;
  /** failed sends since the last success (drives the backoff) */
  consecutiveFailures: number;
  deviceId: string | undefined;
}

export interface TelemetryQueue {
  /** Validates, stamps (UUID, common fields) and durably queues one event. */
  track<N extends TelemetryEventName>(name: N, params: TelemetryParams[N]): Promise<TelemetryEvent>;
  /** Sends everything queued now; resolves with the number sent, rejects on the first failed batch. */
  flush(): Promise<number>;
  start(): void;
  /** Stops the background sender and waits for an in-flight batch. The store stays open. */
  close(): Promise<void>;
  stats(): Promise<TelemetryStats>;
}

const META_DROPPED = 'dropped';
const META_DEVICE_ID = 'device_id';

export function createTelemetryQueue(options: TelemetryQueueOptions): TelemetryQueue {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? {};
  const batchSize = Math.min(TELEMETRY_BATCH_SIZE, Math.max(1, options.batchSize ?? TELEMETRY_BATCH_SIZE));
  const interval = options.flushIntervalMs ?? TELEMETRY_FLUSH_INTERVAL_MS;
  const maxQueued = Math.max(1, options.maxQueued ?? TELEMETRY_MAX_QUEUED);
  const backoffBase = options.backoff?.baseMs ?? 1_000;
  const backoffMax = options.backoff?.maxMs ?? 300_000;
  const uuid = options.uuid ?? (() => nodeCrypto().randomUUID());
  let sent = 0;
  let failures = 0;
  let consecutive = 0;
  let closed = false;
  let running: Promise<void> | undefined;
  let wake = new AbortController();
  let sending: Promise<number> | undefined;
  let deviceId: string | undefined;
  const ready = store.getMeta(META_DEVICE_ID).then((v) => {
    deviceId = v;
  });

  const commonFields = () => (typeof options.common === 'function' ? options.common() : options.common);

  async function sendAll(throwOnError: boolean): Promise<number> {
    await ready;
    let n = 0;
    for (;;) {
      const rows = await store.peek(batchSize);
      if (rows.length === 0) return n;
      const batch: TelemetryBatch = {
        app_id: ANALYTICS_APP_ID,
        user_unique_id: options.serial,
        open_udid: options.openUdid,
        ...(deviceId ? { device_id: deviceId } : {}),
        events: rows.map((r) => r.event),
      };
      let ack: TelemetryAck;
      try {
        ack = await options.send(batch);
      } catch (error) {
        failures++;
        consecutive++;
        log.warn?.('telemetry batch not delivered, will retry', {
          events: rows.length,
          consecutiveFailures: consecutive,
          code: error instanceof CloudError ? error.code : undefined,
        });
        if (throwOnError) throw error;
        return n;
      }
      await store.remove(rows.map((r) => r.seq));
      sent += rows.length;
      n += rows.length;
      consecutive = 0;
      if (ack.device_id && ack.device_id !== deviceId) {
        deviceId = ack.device_id;
        await store.setMeta(META_DEVICE_ID, deviceId);
        options.onDeviceId?.(deviceId);
      }
    }
  }

  /** One sender at a time: concurrent callers share the running pass. */
  function sendOnce(throwOnError: boolean): Promise<number> {
    if (sending) return sending.then(() => sendOnce(throwOnError));
    sending = sendAll(throwOnError).finally(() => {
      sending = undefined;
    });
    return sending;
  }

  async function loop(): Promise<void> {
    while (!closed) {
      const delay = consecutive > 0 ? Math.min(backoffMax, backoffBase * 2 ** (consecutive - 1)) : interval;
      try {
        await sleep(clock, delay, wake.signal);
      } catch {
        wake = new AbortController();
      }
      if (closed) break;
      await sendOnce(false).catch(() => 0);
    }
  }

  const queue: TelemetryQueue = {
    async track(name, params) {
      if (closed) throw new CloudError('CLOUD_TELEMETRY_CLOSED', 'the telemetry queue is closed');
      validateTelemetryParams(name, params as Record<string, unknown>);
      const common = commonFields();
      const event: TelemetryEvent = {
        uuid: uuid(),
        event: name,
        params: {
          // an optional field given as undefined is left out, as if it were absent
          ...(Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as Record<
            string,
            string | number | boolean
          >),
          mic_serial_number: options.serial,
          fw_ver: common.fw_ver,
          evt_language: common.evt_language,
          evt_timezone: common.evt_timezone,
          evt_time: clock.now(),
        },
      };
      await store.append([event]);
      const pending = await store.count();
      if (pending > maxQueued) {
        const dropped = await store.dropOldest(pending - maxQueued);
        const total = Number((await store.getMeta(META_DROPPED)) ?? '0') + dropped;
        await store.setMeta(META_DROPPED, String(total));
        log.warn?.('telemetry queue full, oldest events dropped', { dropped, totalDropped: total });
      } else if (pending >= batchSize && consecutive === 0) {
        wake.abort();
      }
      return event;
    },
    flush: () => sendOnce(true),
    start() {
      if (closed || running) return;
      running = loop();
    },
    async close() {
      closed = true;
      wake.abort();
      await running;
      await sending?.catch(() => 0);
    },
    async stats() {
      await ready;
      return {
        pending: await store.count(),
        sent,
        dropped: Number((await store.getMeta(META_DROPPED)) ?? '0'),
        failures,
        consecutiveFailures: consecutive,
        deviceId,
      };
    },
  };
  if (options.autoStart ?? true) queue.start();
  return queue;
}
