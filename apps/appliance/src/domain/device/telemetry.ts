import {
  type CloudClient,
  createTelemetryQueue,
  type TelemetryEventName,
  type TelemetryParams,
  type TelemetryQueue,
  type TelemetryStore,
} from '@waved/psp-cloud';
import { type Logger, scopedLogger } from '../../core/log/logger.js';

/** What every feature of the device application reports through. */
export interface DeviceTelemetry {
  /** Validates and durably queues one event; resolves once it is committed. Never rejects. */
  track<N extends TelemetryEventName>(name: N, params: TelemetryParams[N]): Promise<void>;
  /** Sends what is queued now (after the session became ready, on shutdown). Never rejects. */
  flush(): Promise<number>;
  readonly queue: TelemetryQueue;
  close(): Promise<void>;
}

export interface DeviceTelemetryOptions {
  /** Where queued events wait (a SQLite file in the device analytics directory). */
  store: TelemetryStore;
  client: Pick<CloudClient, 'sendTelemetry'>;
  serial: string;
  openUdid: string;
  common: () => { fw_ver: string; evt_language: string; evt_timezone: string };
  logger: Logger;
  flushIntervalMs?: number;
  backoff?: { baseMs?: number; maxMs?: number };
  /** Sends wait for this (the cloud session registered); until then batches stay queued. */
  ready: () => boolean;
}

export function createDeviceTelemetry(options: DeviceTelemetryOptions): DeviceTelemetry {
  const { logger, store } = options;
  const queue = createTelemetryQueue({
    store,
    serial: options.serial,
    openUdid: options.openUdid,
    common: options.common,
    flushIntervalMs: options.flushIntervalMs,
    backoff: options.backoff,
    send: async (batch) => {
      if (!options.ready()) throw new Error('the cloud session is not ready yet');
      return options.client.sendTelemetry(batch);
    },
    logger: scopedLogger(logger, 'telemetry', { warn: 'debug', error: 'warn' }),
  });
  return {
    queue,
    async track(name, params) {
      try {
        await queue.track(name, params);
        logger.debug?.(`telemetry: ${name}`);
      } catch (error) {
        logger.warn?.(`telemetry: ${name} not queued: ${(error as Error).message}`);
      }
    },
    async flush() {
      try {
        return await queue.flush();
      } catch (error) {
        logger.debug?.(`telemetry: flush failed: ${(error as Error).message}`);
        return 0;
      }
    },
    async close() {
      await queue.close();
      await store.close();
    },
  };
}
