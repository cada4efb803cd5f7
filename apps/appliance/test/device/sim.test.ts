import { tempDir, waitFor } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { StateBus } from '../../src/core/bus.js';
import type { OtaEvent } from '../../src/domain/device/ota.js';
import { createSimDevice, type SimDevice } from '../../src/sim/device.js';
import { memoryLogger } from './helpers.js';

describe('createSimDevice (what `waved sim` runs)', () => {
  const dir = tempDir('device-sim-');
  let sim: SimDevice | undefined;
  afterAll(async () => {
    await sim?.stop();
    dir.remove();
  });

  it('registers on Wi-Fi connect, installs the offered firmware, records, uploads and handles a call', async () => {
    const bus = new StateBus();
    const logger = memoryLogger(!!process.env.DEBUG_DEVICE);
    const events: OtaEvent[] = [];
    sim = await createSimDevice({
      bus,
      dir: dir.path,
      logger,
      onOtaEvent: (e) => events.push(e),
      consentDelayMs: 10,
    });
    await sim.start();
    bus.publish('WifiConnected', { ssid: 'Home' });
    await waitFor(() => events.some((e) => e.type === 'installed' || e.type === 'failed'), {
      timeoutMs: 15_000,
    });
    expect(events.find((e) => e.type === 'failed')).toBeUndefined();
    expect(sim.installs).toHaveLength(1);
    expect(sim.app.versions().psp_firmware).toBe('1.1.0');
    expect(events.some((e) => e.type === 'progress')).toBe(true);

    await sim.demo({ recordMs: 1200 });
    const [rec] = sim.app.recorder.list();
    expect(rec?.cloudState).toBe('transcribing');
    expect(logger.lines.join('\n')).toContain('call from +442079460958 (Ada Lovelace)');
  });
});
