import { manualClock } from '@waved/test-lab';
import { StateBus } from '../../src/core/bus.js';
import {
  createScreens,
  type ScreenAction,
  type Screens,
  type ScreenView,
} from '../../src/domain/screens/index.js';

const AP = {
  state: 'ApActive',
  ssid: 'Device-3F2A',
  passphrase: '4f9a01c7',
  url: 'http://192.168.2.1/',
} as const;

const CONNECTED = {
  ssid: 'Home',
  status: 'COMPLETED',
  signal: 'good',
  rssi: -55,
  ipv4: '10.0.0.23',
} as const;

export interface Tour {
  bus: StateBus;
  screens: Screens;
  /** Moves through every screen and state, calling `at` with a name for each. */
  run(at: (name: string, view: ScreenView) => void | Promise<void>): Promise<void>;
  close(): void;
}

/**
 * Every screen in every state a user can meet, on a hand-moved clock, in one language: Menu, the
 * Wi-Fi screen (connected, asking to change, not connected, after a timeout), Set up Wi-Fi through
 * all provisioning states and every failure reason, the software update (offered with progress,
 * forced, failed) and the PC Link verification (entry, wrong PIN, refused, no password).
 */
export function screenTour(lang: string): Tour {
  const bus = new StateBus();
  const clock = manualClock();
  let pinSet = true;
  const screens = createScreens({
    bus,
    clock,
    language: () => lang,
    verification: {
      verify: (pin) =>
        !pinSet ? { result: 0, reason: 'no-password-set' } : pin === '2468' ? { result: 1 } : { result: 0 },
      report: () => {},
    },
  });
  const press = (...actions: ScreenAction[]) => {
    for (const a of actions) screens.press(a);
  };

  async function run(at: (name: string, view: ScreenView) => void | Promise<void>): Promise<void> {
    const snap = (name: string) => at(name, screens.view());
    await snap('menu');
    bus.publish('ConnectionDetails', CONNECTED);
    press('open-wifi');
    await snap('wifi connected');
    press('wifi-button');
    await snap('wifi change network?');
    press('confirm');
    await snap('setup starting');
    bus.publish('ProvisioningState', { state: 'Scanning' });
    await snap('setup scanning');
    bus.publish('ProvisioningState', AP);
    clock.advanceSync(15_000);
    await snap('setup ready');
    bus.publish('ProvisioningState', { state: 'Connecting', ssid: 'Büro 2.4 GHz' });
    await snap('setup connecting');
    for (const reason of [
      'wrong-password',
      'network-not-found',
      'no-address',
      'association-timeout',
      'ap-failed',
    ] as const) {
      bus.publish('ProvisioningState', { state: 'Failed', reason, message: '' });
      await snap(`setup failed ${reason}`);
    }
    bus.publish('ProvisioningState', { state: 'Connected', ssid: 'Büro 2.4 GHz' });
    await snap('setup connected');
    press('done');
    bus.publish('ConnectionDetails', {
      ...CONNECTED,
      ssid: null,
      status: 'DISCONNECTED',
      signal: null,
      ipv4: null,
    });
    await snap('wifi not connected');
    press('wifi-button');
    bus.publish('ProvisioningState', AP);
    clock.advanceSync(300_000);
    bus.publish('ProvisioningState', { state: 'Idle' });
    await snap('wifi after the setup timeout');

    screens.otaEvent({ type: 'available', kind: 'psp_firmware', version: '1.4.0', forced: false, notes: '' });
    screens.otaEvent({
      type: 'progress',
      kind: 'psp_firmware',
      received: 1536 * 1024,
      total: 3 * 1024 * 1024,
      percent: 50,
      bar: '',
    });
    await snap('update offered, downloading');
    screens.otaEvent({ type: 'downloaded', kind: 'psp_firmware', size: 3 * 1024 * 1024, resumedBytes: 0 });
    await snap('update checking the download');
    screens.otaEvent({
      type: 'failed',
      kind: 'psp_firmware',
      stage: 'install',
      code: 'OTA_BATTERY_LOW',
      message: '',
    });
    await snap('update failed, battery low');
    press('ok');
    screens.otaEvent({ type: 'available', kind: 'psp_model', version: '2.0.1', forced: true, notes: '' });
    await snap('update forced');
    screens.otaEvent({
      type: 'failed',
      kind: 'psp_model',
      stage: 'download',
      code: 'OTA_DOWNLOAD_HTTP',
      message: 'HTTP 503',
    });
    await snap('update download stopped');
    press('ok');

    screens.showVerificationPage();
    press('pin-1', 'pin-2');
    await snap('verify entry');
    press('pin-3', 'pin-4', 'pin-submit');
    await snap('verify wrong PIN');
    press('pin-1', 'pin-submit');
    await snap('verify too few digits');
    press(
      'pin-delete',
      'pin-1',
      'pin-1',
      'pin-1',
      'pin-1',
      'pin-submit',
      'pin-1',
      'pin-1',
      'pin-1',
      'pin-1',
      'pin-submit',
    );
    await snap('verify refused');
    press('ok');
    screens.showVerificationPage();
    press('pin-2', 'pin-4', 'pin-6', 'pin-8', 'pin-submit');
    await snap('verify verified');
    clock.advanceSync(5_000);
    pinSet = false;
    screens.showVerificationPage();
    press('pin-1', 'pin-2', 'pin-3', 'pin-4', 'pin-submit');
    await snap('verify no password set');
    press('ok');
  }

  return { bus, screens, run, close: () => screens.close() };
}
