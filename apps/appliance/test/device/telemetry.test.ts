import fs from 'node:fs';
import path from 'node:path';
import { TELEMETRY_EVENTS } from '@waved/psp-cloud';
import { createCloudServer } from '@waved/psp-cloud/server';
import { tempDir, waitFor } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { StateBus } from '../../src/core/bus.js';
import { defaultSettings } from '../../src/domain/settings/index.js';
import { buildSimPackage, createSimDevice, type SimDevice } from '../../src/sim/device.js';
import { memoryLogger } from './helpers.js';

describe('telemetry catalog', () => {
  const dir = tempDir('device-telemetry-');
  let sim: SimDevice | undefined;
  let close: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await close?.();
    dir.remove();
  });

  it('every event of the catalog reaches the cloud from its trigger, with the common fields', async () => {
    const server = createCloudServer({ devices: [{ serial: 'SIM0001', secret: 'sim-factory-secret' }] });
    server.publishUpdate('psp_firmware', {
      version: '1.1.0',
      data: await buildSimPackage(dir.path, '1.1.0'),
      forced: true,
    });
    const listening = await server.listen({ host: '127.0.0.1', port: 0 });
    close = () => listening.close();
    const bus = new StateBus();
    const settings = defaultSettings();
    settings.device.timezone = 'Europe/Berlin';
    const simDir = dir.join('sim');
    fs.mkdirSync(simDir);
    // an earlier run that crashed left its PID file
    fs.writeFileSync(path.join(simDir, 'pspapp.pid'), '4242\n');
    sim = await createSimDevice({
      bus,
      dir: simDir,
      logger: memoryLogger(),
      cloudUrl: listening.url,
      settings: { current: () => settings },
    });
    const { app, btModule } = sim;
    // the settings snapshot is taken at the first start; later saves are compared with it
    await sim.start();

    bus.publish('ConnectionDetails', {
      ssid: 'Home',
      status: 'COMPLETED',
      signal: 'good',
      rssi: -55,
      ipv4: '192.168.1.20',
    });
    bus.publish('WifiConnected', { ssid: 'Home' });
    await waitFor(() => app.versions().psp_firmware === '1.1.0', {
      timeoutMs: 15_000,
      what: 'the forced update',
    });

    await app.asr.switchAsrType('online', 'de');
    const rec = await app.initRecording({ mode: 2 });
    await app.recorder.start();
    await new Promise((r) => setTimeout(r, 200));
    await app.recorder.mark();
    await app.recorder.pause();
    await app.recorder.finish();
    await app.uploader.run();
    await app.recorder.openRecordFile(rec.id);
    await app.recorder.listenFile(rec.id);
    await app.recorder.deleteRecording(rec.id);

    btModule.connectPhone('Phone');
    btModule.answerCall();
    btModule.endCall();

    settings.device.language = 'fr';
    settings.audio.prompt_tones = false;
    settings.security.device_password = 'pin1$4$1000$c2FsdA==$aGFzaA==';
    settings.storage.auto_upload = false;
    bus.send({ type: 'SettingsSaved' });

    const ui = app.ui;
    await ui.factoryReset();
    await ui.privacyAgreement();
    await ui.joinUserExperience();
    await ui.toggleMicMute(true);
    await ui.toggleSpeakerMute(false);
    await ui.enterReverseChargingPage(70);
    await ui.reverseChargingStart(70);
    await ui.reverseChargingEnd(60, 120);
    await ui.enterUsbStorageMode();
    await ui.mechanicalHeightAdjust();
    await ui.bind();
    await ui.unbind();
    bus.publish('WifiDisconnected', { ssid: 'Home' });
    // the Bluetooth events and the settings comparison arrive asynchronously
    await waitFor(async () => {
      await app.telemetry.flush();
      const got = new Set(server.telemetry().map((e) => e.event));
      return got.has('call_end') && got.has('upload_to_cloud_toggle') && got.has('device_network_disconnect');
    });
    await sim.stop();
    sim = undefined;

    const events = server.telemetry();
    const names = new Set(events.map((e) => e.event));
    const missing = Object.keys(TELEMETRY_EVENTS).filter((n) => !names.has(n as never));
    expect(missing).toEqual([]);
    for (const e of events) {
      expect(e.params).toMatchObject({ mic_serial_number: 'SIM0001', evt_timezone: 'Europe/Berlin' });
      expect(typeof e.params.evt_time).toBe('number');
    }
    const one = (n: string) => events.find((e) => e.event === n)?.params;
    expect(one('device_network_connect')).toMatchObject({
      ssid: 'Home',
      signal_dbm: -55,
      ipv4: '192.168.1.20',
    });
    expect(one('set_language_region')).toMatchObject({ language: 'fr' });
    expect(one('prompt_tone_setting')).toMatchObject({ enabled: false });
    expect(one('password_lock_toggle')).toMatchObject({ state: true });
    expect(one('system_crash')).toMatchObject({ reason: 'pspapp crash' });
    expect(one('transcription_mode_set')).toMatchObject({ mode_option: 2 });
    expect(one('transcription_language_set')).toMatchObject({ language: 'de' });
    expect(one('reverse_charging_end')).toMatchObject({ battery: 60, duration_s: 120 });
    expect(events.filter((e) => e.event === 'device_power_on')).toHaveLength(1);
    // firmware version moves with the install
    expect(events.find((e) => e.event === 'device_power_off')?.params.fw_ver).toBe('1.1.0');
    expect(new Set(events.map((e) => e.uuid)).size).toBe(events.length);
  });
});
