import fs from 'node:fs';
import { tempDir, waitFor } from '@waved/test-lab';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CloudError,
  createMemoryTelemetryStore,
  createTelemetryQueue,
  TELEMETRY_EVENTS,
  type TelemetryBatch,
  type TelemetryQueueOptions,
  validateTelemetryParams,
} from '../src/index.js';
import { createSqliteTelemetryStore as createStore, openNodeSqlite } from '../src/sqlite.js';
import { manualClock } from './helpers.js';

const common = { fw_ver: '1.0.0', evt_language: 'en', evt_timezone: 'UTC' };

function harness(over: Partial<TelemetryQueueOptions> = {}) {
  const clock = manualClock();
  const batches: TelemetryBatch[] = [];
  let failing = false;
  const store = over.store ?? createMemoryTelemetryStore();
  const queue = createTelemetryQueue({
    store,
    serial: 'PSP0001',
    openUdid: 'u'.repeat(32),
    common,
    clock,
    send: async (b) => {
      if (failing) throw new CloudError('CLOUD_NETWORK', 'down');
      batches.push(b);
      return { accepted: b.events.length, duplicates: 0, device_id: 'dev-1' };
    },
    ...over,
  });
  return {
    clock,
    batches,
    queue,
    store,
    fail(v: boolean) {
      failing = v;
    },
  };
}

const queues: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.close()));
});

describe('event catalog', () => {
  it('holds every event of the spec', () => {
    // the vendor event table, in its order
    const spec =
      'device_power_on device_power_off device_network_connect device_network_disconnect ai_record_start ' +
      'ai_record_end ai_record_pause ai_record_mark firmware_download firmware_install system_crash check_update ' +
      'factory_reset init_start init_end privacy_agreement join_user_experience set_language_region ' +
      'toggle_mic_mute toggle_speaker_mute prompt_tone_setting call_answer call_end password_lock_toggle ' +
      'bluetooth_connect enter_reverse_charging_page reverse_charging_start reverse_charging_end ' +
      'enter_usb_storage_mode mechanical_height_adjust transcription_mode_set transcription_language_set ' +
      'bind_id unbind_id open_record_file listen_file delete_file upload_cloud_file upload_to_cloud_toggle';
    expect(Object.keys(TELEMETRY_EVENTS)).toEqual(spec.split(' '));
    expect(TELEMETRY_EVENTS.system_crash).toEqual({ reason: 'string' });
  });

  it.each([
    ['no_such_event', {}, /unknown telemetry event/],
    ['device_power_off', { battery: 50 }, /power_off_type is required/],
    ['device_power_off', { battery: '50', power_off_type: 'key' }, /battery must be a number/],
    ['call_end', { extra: 1 }, /not in the catalog/],
    ['transcription_mode_set', { mode_option: 3 }, /0, 1 or 2/],
    ['ai_record_end', { duration_s: Number.NaN, file_size: 1 }, /must be a number/],
  ])('refuses %s %j', (name, params, message) => {
    expect(() => validateTelemetryParams(name, params)).toThrow(message);
  });
});

describe('telemetry queue', () => {
  it('stamps UUID, common fields and app id, and sends every 5 s when fewer than 50 wait', async () => {
    const h = harness();
    queues.push(h.queue);
    const e = await h.queue.track('system_crash', { reason: 'pspapp crash' });
    expect(e.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(e.params).toEqual({
      reason: 'pspapp crash',
      mic_serial_number: 'PSP0001',
      fw_ver: '1.0.0',
      evt_language: 'en',
      evt_timezone: 'UTC',
      evt_time: h.clock.now(),
    });
    await h.clock.advance(4_999);
    expect(h.batches).toHaveLength(0);
    await h.clock.advance(1);
    expect(h.batches).toHaveLength(1);
    expect(h.batches[0]).toMatchObject({
      app_id: 10000022,
      user_unique_id: 'PSP0001',
      open_udid: 'u'.repeat(32),
    });
    expect(h.batches[0]!.events).toEqual([e]);
    expect(await h.queue.stats()).toMatchObject({ pending: 0, sent: 1, deviceId: 'dev-1' });
  });

  it('leaves an optional field given as undefined out of the event, as if it were absent', async () => {
    const h = harness();
    queues.push(h.queue);
    const e = await h.queue.track('reverse_charging_end', { battery: 40, duration_s: undefined });
    expect(e.params).toEqual({
      battery: 40,
      ...common,
      mic_serial_number: 'PSP0001',
      evt_time: h.clock.now(),
    });
    expect(Object.keys(e.params)).not.toContain('duration_s');
    await h.clock.advance(5_000);
    expect(Object.keys(h.batches[0]!.events[0]!.params)).not.toContain('duration_s');
  });

  it('sends at once when 50 events wait, in batches of at most 50, oldest first', async () => {
    const h = harness();
    queues.push(h.queue);
    for (let i = 0; i < 49; i++) await h.queue.track('ai_record_mark', { record_id: String(i) });
    await h.clock.advance(0);
    expect(h.batches).toHaveLength(0);
    await h.queue.track('ai_record_mark', { record_id: '49' });
    for (let i = 50; i < 120; i++) await h.queue.track('ai_record_mark', { record_id: String(i) });
    await h.clock.advance(0);
    await h.clock.advance(5_000);
    const sizes = h.batches.map((b) => b.events.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(50);
    expect(sizes[0]).toBe(50);
    const ids = h.batches.flatMap((b) => b.events.map((e) => e.params.record_id));
    expect(ids).toEqual(Array.from({ length: 120 }, (_, i) => String(i)));
  });

  it('backs off 1 s, 2 s, 4 s after failures and keeps the events', async () => {
    const h = harness();
    queues.push(h.queue);
    h.fail(true);
    await h.queue.track('check_update', {});
    await h.clock.advance(5_000); // first failure
    expect((await h.queue.stats()).consecutiveFailures).toBe(1);
    await h.clock.advance(1_000);
    expect((await h.queue.stats()).consecutiveFailures).toBe(2);
    await h.clock.advance(1_999);
    expect((await h.queue.stats()).consecutiveFailures).toBe(2);
    await h.clock.advance(1);
    expect((await h.queue.stats()).consecutiveFailures).toBe(3);
    h.fail(false);
    await h.clock.advance(4_000);
    expect(h.batches).toHaveLength(1);
    expect(await h.queue.stats()).toMatchObject({ pending: 0, sent: 1, failures: 3, consecutiveFailures: 0 });
  });

  it('is bounded: drops the oldest events and counts them', async () => {
    const h = harness({ maxQueued: 100, autoStart: false });
    for (let i = 0; i < 130; i++) await h.queue.track('ai_record_mark', { record_id: String(i) });
    expect(await h.queue.stats()).toMatchObject({ pending: 100, dropped: 30 });
    await h.queue.flush();
    expect(h.batches.flatMap((b) => b.events.map((e) => e.params.record_id))[0]).toBe('30');
  });

  it('flush() rejects on a failed batch and keeps it', async () => {
    const h = harness({ autoStart: false });
    await h.queue.track('bind_id', {});
    h.fail(true);
    await expect(h.queue.flush()).rejects.toMatchObject({ code: 'CLOUD_NETWORK' });
    expect((await h.queue.stats()).pending).toBe(1);
    await h.queue.close();
    await expect(h.queue.track('bind_id', {})).rejects.toMatchObject({ code: 'CLOUD_TELEMETRY_CLOSED' });
  });
});

// better-sqlite3 by default; node:sqlite (`openNodeSqlite`) where better-sqlite3 has no build (armv7)
const drivers = [
  ['better-sqlite3', undefined],
  ['node:sqlite', openNodeSqlite],
] as const;

describe('SQLite telemetry store', () => {
  it.each(drivers)(
    'keeps events, drops and the device id across reopening, in a 0600 file (%s)',
    async (_, open) => {
      const dir = tempDir('psp-cloud-tq-');
      const createSqliteTelemetryStore = (o: { path: string }) =>
        createStore({ ...o, ...(open ? { open } : {}) });
      try {
        const path = dir.join('q.db');
        const first = harness({
          store: createSqliteTelemetryStore({ path }),
          maxQueued: 5,
          autoStart: false,
        });
        for (let i = 0; i < 7; i++) await first.queue.track('ai_record_mark', { record_id: String(i) });
        await first.queue.close();
        await first.store.close();
        expect(fs.statSync(path).mode & 0o777).toBe(0o600);

        const seen: string[] = [];
        const second = harness({
          store: createSqliteTelemetryStore({ path }),
          autoStart: false,
          onDeviceId: (id) => seen.push(id),
        });
        expect(await second.queue.stats()).toMatchObject({ pending: 5, dropped: 2 });
        await second.queue.flush();
        expect(second.batches[0]!.events.map((e) => e.params.record_id)).toEqual(['2', '3', '4', '5', '6']);
        expect(seen).toEqual(['dev-1']);
        await second.queue.close();
        await second.store.close();

        const third = harness({ store: createSqliteTelemetryStore({ path }), autoStart: false });
        await third.queue.track('bind_id', {});
        await third.queue.flush();
        expect(third.batches[0]!.device_id).toBe('dev-1');
        await third.queue.close();
        await third.store.close();
      } finally {
        dir.remove();
      }
    },
  );

  it('runs with the real timer too (5 s interval shortened)', async () => {
    const batches: TelemetryBatch[] = [];
    const queue = createTelemetryQueue({
      store: createMemoryTelemetryStore(),
      serial: 'S',
      openUdid: 'u',
      common,
      flushIntervalMs: 30,
      send: async (b) => {
        batches.push(b);
        return { accepted: b.events.length, duplicates: 0 };
      },
    });
    await queue.track('factory_reset', {});
    await waitFor(() => batches.length === 1, { timeoutMs: 2000 });
    await queue.close();
  });
});
