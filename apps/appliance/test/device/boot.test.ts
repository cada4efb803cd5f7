import fs from 'node:fs';
import { tempDir } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { type Harness, received, startHarness } from './helpers.js';

describe('boot bookkeeping against the reference cloud', () => {
  const dir = tempDir('device-boot-');
  let h: Harness;
  afterAll(async () => {
    await h?.close();
    dir.remove();
  });

  it('reports device_power_on once per boot, init timing, and a crash only after an unclean stop', async () => {
    h = await startHarness(dir.path);
    const pidFile = dir.join('pspapp.pid');

    // first start in this boot, clean stop
    const first = await h.app();
    await first.start();
    expect(first.boot).toEqual({ crashed: false, firstStartThisBoot: true });
    expect(fs.readFileSync(pidFile, 'utf8').trim()).toBe(String(process.pid));
    await first.session.establish();
    await first.stop();
    expect(fs.existsSync(pidFile)).toBe(false);

    // second start in the same boot (flag file still there): no power-on, no crash
    const second = await h.app();
    await second.start();
    expect(second.boot).toEqual({ crashed: false, firstStartThisBoot: false });
    await second.session.establish();
    await second.telemetry.flush();
    // the process "dies": no stop(), the PID file stays
    await second.telemetry.close();

    const third = await h.app();
    await third.start();
    expect(third.boot).toEqual({ crashed: true, firstStartThisBoot: false });
    await third.session.establish();
    await third.stop();

    expect(received(h.server, 'device_power_on')).toHaveLength(1);
    expect(received(h.server, 'device_power_on')[0]?.params).toMatchObject({
      storage_total_mb: 32768,
      storage_free_mb: 30000,
      mic_serial_number: 'PSP0001',
      fw_ver: '1.0.0',
    });
    const crashes = received(h.server, 'system_crash');
    expect(crashes).toHaveLength(1);
    expect(crashes[0]?.params.reason).toBe('pspapp crash');
    expect(received(h.server, 'init_start')).toHaveLength(3);
    const ends = received(h.server, 'init_end');
    expect(ends).toHaveLength(3);
    expect(typeof ends[0]?.params.duration_ms).toBe('number');
    expect(received(h.server, 'device_power_off').map((e) => e.params.power_off_type)).toEqual([
      'shutdown',
      'shutdown',
    ]);
  });

  it('removing the flag file (a reboot clears /tmp) gives a new device_power_on', async () => {
    const before = received(h.server, 'device_power_on').length;
    fs.rmSync(dir.join('power_on_report.txt'));
    const app = await h.app();
    await app.start();
    expect(app.boot?.firstStartThisBoot).toBe(true);
    await app.session.establish();
    await app.stop();
    expect(received(h.server, 'device_power_on')).toHaveLength(before + 1);
  });
});
