// The Bluetooth and Sound and privacy screens in every language: each state drawn by the terminal
// renderer at 44 and 24 columns fits its box and shows every text in full.

import { createEvents } from '@waved/internal';
import { waitFor } from '@waved/test-lab';
import { describe, expect, it } from 'vitest';
import { StateBus } from '../../src/core/bus.js';
import type { DeviceUiState } from '../../src/domain/device/app.js';
import type { BluetoothEvents, BluetoothStatus } from '../../src/domain/device/bluetooth/service.js';
import type { DeviceScreenPort } from '../../src/domain/screens/device.js';
import {
  createScreens,
  renderTerminal,
  type ScreenAction,
  type ScreenView,
} from '../../src/domain/screens/index.js';
import { displayWidth } from '../../src/domain/screens/text.js';
import { LOCALES } from '../../src/i18n/index.js';

/** A module that answers at once (what the screens draw is under test here, not the module). */
function fakeDevice() {
  const bt = Object.assign(createEvents<BluetoothEvents>(), {
    pendingRequest: null as string | null,
    failing: false,
    state: {
      status: 1,
      pbapStatus: 0,
      enabled: true,
      connected: false,
      deviceName: null,
      contacts: null,
    } as BluetoothStatus,
    async info() {
      if (bt.failing) throw new Error('no answer');
      return {
        version: 'BT 5.2.1',
        name: 'Meeting room 4',
        mac: '02:00:5e:10:20:30',
        buildtime: '2026-01-15 10:30',
      };
    },
    async status() {
      if (bt.failing) throw new Error('no answer');
      return { ...bt.state };
    },
    async answerConnectRequest(accept: boolean) {
      if (accept) bt.state = { ...bt.state, connected: true, deviceName: bt.pendingRequest };
      bt.pendingRequest = null;
    },
    async disconnect() {
      bt.state = { ...bt.state, connected: false, deviceName: null };
    },
    async setEnabled(on: boolean) {
      bt.state = { ...bt.state, enabled: on, connected: false, deviceName: null };
    },
    async repair() {
      bt.state = { ...bt.state, connected: false, deviceName: null };
    },
    async downloadPhoneBook() {
      bt.state = { ...bt.state, contacts: 1234 };
      return new Array(1234).fill({ name: 'x', numbers: [] });
    },
  });
  let ui: DeviceUiState = {
    micMuted: false,
    speakerMuted: false,
    privacyAgreed: false,
    experienceJoined: false,
  };
  const set = (change: Partial<DeviceUiState>) => {
    ui = { ...ui, ...change };
  };
  const port = {
    bluetooth: () => bt,
    ui: () => ({
      uiState: () => ui,
      toggleMicMute: async (m: boolean) => set({ micMuted: m }),
      toggleSpeakerMute: async (m: boolean) => set({ speakerMuted: m }),
      privacyAgreement: async () => set({ privacyAgreed: true }),
      joinUserExperience: async () => set({ experienceJoined: true }),
    }),
  } as unknown as DeviceScreenPort;
  return { bt, port };
}

const squeeze = (s: string) => s.replace(/[│┌┐└┘─\s]/gu, '');
function shownTexts(v: ScreenView): string[] {
  const out = [v.title, ...v.buttons.map((b) => b.label)];
  if (v.screen === 'bluetooth' || v.screen === 'options') {
    out.push(...v.rows.flatMap((r) => [r.label, r.value]));
    if (v.notice) out.push(v.notice);
    if (v.confirm) out.push(v.confirm.question, v.confirm.detail);
  }
  return out;
}

async function tour(lang: string): Promise<Array<{ name: string; view: ScreenView }>> {
  const { bt, port } = fakeDevice();
  const screens = createScreens({ bus: new StateBus(), language: () => lang, device: port });
  const out: Array<{ name: string; view: ScreenView }> = [];
  const snap = (name: string) => out.push({ name, view: screens.view() });
  const press = async (action: ScreenAction, until: (v: ScreenView) => boolean) => {
    screens.press(action);
    await waitFor(() => until(screens.view()), { what: `${lang}: after ${action}` });
  };
  const rowsFilled = (v: ScreenView) => v.screen === 'bluetooth' && v.rows[0]?.value === 'Meeting room 4';
  snap('menu');
  await press('open-bluetooth', rowsFilled);
  snap('bluetooth idle');
  bt.pendingRequest = 'Pixel of Ada';
  bt.emit('connectRequest', { deviceName: 'Pixel of Ada' });
  await waitFor(() => screens.view().screen === 'bluetooth' && offersAction(screens.view(), 'bt-accept'));
  snap('bluetooth connection request');
  await press('bt-accept', (v) => offersAction(v, 'bt-sync'));
  await press('bt-sync', (v) => v.screen === 'bluetooth' && v.notice !== null);
  snap('bluetooth connected, contacts synced');
  await press('bt-pair', (v) => v.screen === 'bluetooth' && v.notice !== null && !offersAction(v, 'bt-sync'));
  snap('bluetooth pairing cleared');
  await press('bt-off', (v) => offersAction(v, 'bt-on'));
  snap('bluetooth off');
  bt.failing = true;
  await press('bt-on', (v) => v.screen === 'bluetooth' && v.notice !== null);
  snap('bluetooth not answering');
  screens.press('back');
  screens.press('open-options');
  snap('options');
  for (const a of ['mic-mute', 'speaker-mute', 'privacy-agree', 'experience-join'] as const) {
    await press(a, (v) => !offersAction(v, a));
  }
  snap('options all set');
  screens.close();
  return out;
}
const offersAction = (v: ScreenView, a: ScreenAction) => v.buttons.some((b) => b.action === a);

describe('the Bluetooth and Sound and privacy screens in every language', () => {
  it.each(LOCALES.map((l) => l.tag))(
    '%s: every state fits 44 and 24 columns and loses no text',
    async (lang) => {
      const views = await tour(lang);
      expect(views.map((v) => v.name)).toHaveLength(9);
      for (const { name, view } of views) {
        expect(view.lang, name).toBe(lang);
        for (const width of [44, 24]) {
          const text = renderTerminal(view, { width });
          for (const line of text.split('\n'))
            expect(displayWidth(line), `${lang} ${width} ${name}: ${line}`).toBe(width + 4);
          for (const part of shownTexts(view))
            expect(squeeze(text), `${lang} ${width} ${name}`).toContain(squeeze(part));
        }
      }
    },
  );
});
