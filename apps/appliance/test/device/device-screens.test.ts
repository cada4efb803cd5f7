// The Bluetooth and Sound and privacy screens over the device application: a press on the screen
// reaches the module (the simulated one at the far end of a serial link) or the device's state,
// and the cloud receives the telemetry event of that action.
import { createCloudServer } from '@waved/psp-cloud/server';
import { tempDir, waitFor } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StateBus } from '../../src/core/bus.js';
import {
  createScreens,
  type ScreenAction,
  type Screens,
  type ScreenView,
} from '../../src/domain/screens/view.js';
import { defaultSettings } from '../../src/domain/settings/index.js';
import { createSimDevice, type SimDevice } from '../../src/sim/device.js';
import { memoryLogger } from './helpers.js';

const actions = (v: ScreenView) => v.buttons.map((b) => b.action);
const row = (v: ScreenView, label: string) =>
  'rows' in v ? v.rows.find((r) => r.label === label)?.value : undefined;

describe('device screens', () => {
  const dir = tempDir('device-screens-');
  const server = createCloudServer({ devices: [{ serial: 'SIM0001', secret: 'sim-factory-secret' }] });
  const bus = new StateBus();
  const settings = defaultSettings();
  const logger = memoryLogger(!!process.env.DEBUG_DEVICE);
  let listening: Awaited<ReturnType<typeof server.listen>>;
  let sim: SimDevice;
  let screens: Screens;

  /** Telemetry the cloud holds for `name`, after a flush. */
  const sent = async (name: string) => {
    await sim.app.telemetry.flush();
    return server.telemetry().filter((e) => e.event === name);
  };
  const press = (action: ScreenAction) => {
    expect(actions(screens.view()), `${action} is on the screen`).toContain(action);
    screens.press(action);
  };

  beforeAll(async () => {
    listening = await server.listen({ host: '127.0.0.1', port: 0 });
    sim = await createSimDevice({
      bus,
      dir: dir.path,
      logger,
      cloudUrl: listening.url,
      settings: { current: () => settings },
    });
    screens = createScreens({
      bus,
      device: { bluetooth: () => sim.app.bluetooth, ui: () => sim.app.ui },
    });
    await sim.start();
    await sim.app.session.establish();
  });
  afterAll(async () => {
    screens?.close();
    await sim?.stop();
    await listening?.close();
    dir.remove();
  });

  it('the menu offers Bluetooth and Sound and privacy while the device application runs', () => {
    expect(actions(screens.view())).toEqual(['open-wifi', 'open-bluetooth', 'open-options']);
    const bare = createScreens({ bus });
    expect(actions(bare.view())).toEqual(['open-wifi']);
    bare.close();
  });

  it('Sound and privacy: mute switches, privacy agreement and the experience programme, each reported', async () => {
    press('open-options');
    let v = screens.view();
    expect(v.screen).toBe('options');
    expect(row(v, 'Microphone')).toBe('On');

    press('mic-mute');
    await waitFor(() => row(screens.view(), 'Microphone') === 'Muted', { what: 'the microphone muted' });
    expect(actions(screens.view())).toContain('mic-unmute');
    // a muted device records silence
    const chunks: Uint8Array[] = [];
    const onAudio = (pcm: Uint8Array) => chunks.push(pcm);
    const offAudio = sim.app.recorder.on('audio', onAudio);
    await sim.app.initRecording();
    await sim.app.recorder.start();
    await waitFor(() => chunks.length >= 2, { what: 'audio while muted' });
    await sim.app.recorder.finish();
    offAudio();
    expect(chunks.every((c) => c.every((b) => b === 0))).toBe(true);
    press('mic-unmute');
    press('speaker-mute');
    await waitFor(() => row(screens.view(), 'Speaker') === 'Muted', { what: 'the speaker muted' });

    press('privacy-agree');
    await waitFor(() => row(screens.view(), 'Privacy agreement') === 'Yes', { what: 'the agreement' });
    // agreed once: the button is gone
    expect(actions(screens.view())).not.toContain('privacy-agree');
    press('experience-join');
    await waitFor(() => row(screens.view(), 'Experience programme') === 'Yes', { what: 'joined' });
    v = screens.view();
    expect(actions(v)).toEqual(['mic-mute', 'speaker-unmute', 'back']);

    expect((await sent('toggle_mic_mute')).map((e) => e.params.state)).toEqual([true, false]);
    expect((await sent('toggle_speaker_mute')).map((e) => e.params.state)).toEqual([true]);
    expect(await sent('privacy_agreement')).toHaveLength(1);
    expect(await sent('join_user_experience')).toHaveLength(1);
    // the switches are the device's: a new screen set (a restart of the screens) shows them
    expect(sim.app.ui.uiState()).toEqual({
      micMuted: false,
      speakerMuted: true,
      privacyAgreed: true,
      experienceJoined: true,
    });
    press('back');
    expect(screens.view().screen).toBe('menu');
  });

  it('Bluetooth: the module as the screen shows it, and the name follows the device name', async () => {
    press('open-bluetooth');
    await waitFor(() => row(screens.view(), 'Address') === '02:00:5e:10:20:30', { what: 'the module info' });
    const v = screens.view();
    expect(v.screen).toBe('bluetooth');
    // the device is named `waved` (settings): the module was renamed at start (bt_set_name)
    expect(row(v, 'Name')).toBe('waved');
    expect(sim.btModule.name).toBe('waved');
    expect(row(v, 'Status')).toBe('On, no phone connected');
    expect(row(v, 'Version')).toBe('SIM-BT 1.0.3 (2026-01-15 10:30)');
    expect(actions(v)).toEqual(['bt-pair', 'bt-off', 'back']);

    settings.device.name = 'Kitchen';
    bus.send({ type: 'SettingsSaved' });
    await waitFor(() => sim.btModule.name === 'Kitchen', { what: 'the new name on the module' });
    await waitFor(() => row(screens.view(), 'Name') === 'Kitchen', { what: 'the new name on the screen' });
  });

  it('Bluetooth: a phone asks to connect; Reject turns it away, Connect connects and reports bluetooth_connect', async () => {
    press('back');
    sim.btModule.requestConnect('Stranger');
    await waitFor(
      () => screens.view().screen === 'bluetooth' && actions(screens.view()).includes('bt-reject'),
      {
        what: 'the question on the screen',
      },
    );
    const asked = screens.view();
    expect(asked.screen === 'bluetooth' && asked.confirm?.question).toBe('Stranger wants to connect');
    press('bt-reject');
    await waitFor(() => actions(screens.view()).includes('bt-pair'), { what: 'the request answered' });
    expect(sim.app.bluetooth?.connected).toBe(false);

    sim.btModule.requestConnect('Pixel of Ada');
    await waitFor(() => actions(screens.view()).includes('bt-accept'), { what: 'the second request' });
    press('bt-accept');
    await waitFor(() => row(screens.view(), 'Status') === 'Connected to Pixel of Ada', { what: 'connected' });
    expect(actions(screens.view())).toEqual(['bt-sync', 'bt-disconnect', 'bt-pair', 'bt-off', 'back']);
    const connects = await sent('bluetooth_connect');
    expect(connects.map((e) => [e.params.connected, e.params.device_name])).toEqual([[true, 'Pixel of Ada']]);
    // bt_connect_reply: [0] to the stranger, [1] to the phone (the simulated module connected only this one)
    expect(sim.btModule.received.filter((c) => c === 0x01)).toHaveLength(2);
  });

  it('Bluetooth: Sync contacts downloads the phone book, Disconnect drops the phone, Pair a new phone clears the pairing', async () => {
    press('bt-sync');
    await waitFor(() => row(screens.view(), 'Contacts') === '3', { what: 'the phone book' });
    const v = screens.view();
    expect(v.screen === 'bluetooth' && v.notice).toBe('3 contacts synced.');
    expect((await sim.app.bluetooth!.searchByNumber('+44 20 7946 0958')).map((c) => c.name)).toEqual([
      'Ada Lovelace',
    ]);

    press('bt-disconnect');
    await waitFor(() => row(screens.view(), 'Status') === 'On, no phone connected', { what: 'disconnected' });
    expect((await sent('bluetooth_connect')).map((e) => e.params.connected)).toEqual([true, false]);

    press('bt-pair');
    await waitFor(
      () => {
        const n = screens.view();
        return n.screen === 'bluetooth' && n.notice === 'Pairing cleared: pair your phone now.';
      },
      { what: 'the pairing cleared' },
    );
    expect(sim.btModule.received).toContain(0x0f);
  });

  it('Bluetooth: Turn off and Turn on switch the module', async () => {
    press('bt-off');
    await waitFor(() => row(screens.view(), 'Status') === 'Off', { what: 'off' });
    expect(sim.btModule.enabled).toBe(false);
    expect(actions(screens.view())).toEqual(['bt-on', 'back']);
    press('bt-on');
    await waitFor(() => row(screens.view(), 'Status') === 'On, no phone connected', { what: 'on' });
    expect(sim.btModule.enabled).toBe(true);
  });

  it('the device API: status bytes, reconnect switch, mode and the configuration commands 0x18..0x1e', async () => {
    const bt = sim.app.bluetooth!;
    expect(await bt.status()).toMatchObject({ status: 1, pbapStatus: 0, enabled: true, connected: false });
    await bt.setAutoReconnect(true);
    await bt.setMode(2);
    expect(sim.btModule.settings).toMatchObject({ reconnect: true, mode: 2 });
    for (const id of [0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e] as const) {
      expect([...(await bt.configure(id, Uint8Array.of(id, 7)))]).toEqual([0, id, 7]);
    }
    expect([...sim.btModule.settings.config.keys()]).toEqual([0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e]);
    // a bad argument is refused with the device's error, and nothing is sent
    const before = sim.btModule.received.length;
    await expect(bt.setName('')).rejects.toMatchObject({ code: 'DEVICE_BT' });
    await expect(bt.configure(0x17 as never)).rejects.toMatchObject({ code: 'DEVICE_BT' });
    await expect(bt.setMode(300)).rejects.toMatchObject({ code: 'DEVICE_BT' });
    expect(sim.btModule.received.length).toBe(before);
  });
});
