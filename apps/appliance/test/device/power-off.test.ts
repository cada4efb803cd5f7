// device_power_off on every clean stop, with the battery and the power_off_type of that stop.
import { tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeSwupdateRunner } from '../../src/sim/device.js';
import { type OtaHarness, received, startOtaHarness } from './helpers.js';

describe('device_power_off', () => {
  const dir = tempDir('device-power-off-');
  let h: OtaHarness;
  beforeAll(async () => {
    h = await startOtaHarness(dir.path);
  });
  afterAll(async () => {
    await h?.close();
    dir.remove();
  });
  const powerOffs = () => received(h.server, 'device_power_off').map((e) => e.params);

  it('a stop sends the type it is given and the battery (mains counts as 100)', async () => {
    const before = powerOffs().length;
    const app = await h.app({ battery: { read: async () => 'mains' } });
    await app.start();
    await app.session.establish();
    await app.stop({ powerOffType: 'user' });
    expect(powerOffs().slice(before)).toEqual([
      expect.objectContaining({ power_off_type: 'user', battery: 100 }),
    ]);
  });

  it('the reboot after an installed update says ota_reboot before it goes, and the stop that follows sends no second one', async () => {
    h.server.publishUpdate('psp_firmware', { version: '1.1.0', data: h.pkg, forced: true });
    const before = powerOffs().length;
    let atReboot: unknown[] | null = null;
    const app = await h.app({
      battery: { read: async () => 64 },
      ota: {
        run: fakeSwupdateRunner([]),
        reboot: async () => {
          // what the cloud holds when the machine goes down
          atReboot = powerOffs().slice(before);
        },
      },
    });
    await app.start();
    await app.session.establish();
    expect(await app.ota.checkNow()).toEqual(['psp_firmware']);
    expect(atReboot).toEqual([expect.objectContaining({ power_off_type: 'ota_reboot', battery: 64 })]);
    // systemd then stops the service (SIGTERM): the reboot was already reported
    await app.stop({ powerOffType: 'shutdown' });
    expect(powerOffs().slice(before)).toHaveLength(1);
  });

  it('a reboot that fails leaves the device running: its later stop reports itself', async () => {
    h.server.publishUpdate('psp_firmware', { version: '1.2.0', data: h.pkg, forced: true });
    const before = powerOffs().length;
    const app = await h.app({
      ota: {
        run: fakeSwupdateRunner([]),
        reboot: async () => {
          throw new Error('reboot refused');
        },
      },
    });
    await app.start();
    await app.session.establish();
    await app.ota.checkNow();
    await app.stop({ powerOffType: 'shutdown' });
    expect(
      powerOffs()
        .slice(before)
        .map((p) => p.power_off_type),
    ).toEqual(['ota_reboot', 'shutdown']);
  });
});
