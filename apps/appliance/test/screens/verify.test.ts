import { createPinRecord } from '@waved/psk';
import { manualClock, tempDir } from '@waved/test-lab';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceApp, UiVerificationOutcome } from '../../src/domain/device/app.js';
import {
  createScreens,
  renderTerminal,
  type ScreenAction,
  type Screens,
  type VerifyView,
} from '../../src/domain/screens/index.js';
import { VERIFIED_NOTICE_MS, VERIFY_TIMEOUT_SECONDS } from '../../src/domain/screens/verify.js';
import { type Harness, startHarness } from '../device/helpers.js';

// The page checks the PIN with the device application's own check (verifyPin of @waved/psk, the
// one the PC Link uses) and hands the result back through the application.
describe('PC Link verification page', () => {
  const dir = tempDir('screens-verify-');
  let h: Harness;
  let app: DeviceApp;
  let outcomes: UiVerificationOutcome[];
  let clock: ReturnType<typeof manualClock>;
  let screens: Screens;

  beforeAll(async () => {
    h = await startHarness(dir.path);
    outcomes = [];
    app = await h.app({
      showVerificationPage: () => screens.showVerificationPage(),
      onUiVerification: (o) => outcomes.push(o),
    });
  });
  afterAll(async () => {
    await app.stop();
    await h.close();
    dir.remove();
  });
  beforeEach(() => {
    outcomes.length = 0;
    h.settings.security.device_password = createPinRecord('2468', { iterations: 1000 });
    clock = manualClock();
    screens = createScreens({
      bus: h.bus,
      clock,
      verification: {
        verify: (pin) => app.verifyDevicePassword(pin),
        report: (outcome) => app.reportUiVerification(outcome),
      },
    });
  });
  afterEach(() => screens.close());

  const page = () => screens.view() as VerifyView;
  const type = (digits: string) => {
    for (const d of digits) screens.press(`pin-${d}` as ScreenAction);
  };

  it('an empty password from the PC opens the page; the right PIN answers 1 to the PC Link', async () => {
    expect(await app.verifyDevicePassword('')).toEqual({ result: 0, uiVerification: true });
    expect(page()).toMatchObject({
      screen: 'verify',
      prompt: 'Enter the device password on the device',
      phase: 'entry',
      entered: 0,
      buttons: [
        { action: 'pin-submit', label: 'OK' },
        { action: 'pin-delete', label: 'Delete' },
        { action: 'pin-cancel', label: 'Cancel' },
      ],
      countdown: '01:00',
    });
    type('24689');
    screens.press('pin-delete');
    expect(page()).toMatchObject({ entered: 4, masked: '••••' });
    // the view never carries the digits
    expect(JSON.stringify(screens.view())).not.toMatch(/2468/);
    expect(renderTerminal(screens.view())).toContain('Password: ••••__');
    screens.press('pin-submit');
    // The check runs off the event loop; the page answers when it is done.
    await vi.waitFor(() => expect(outcomes).toEqual([{ result: 1 }]));
    expect(page()).toMatchObject({ phase: 'verified', buttons: [], countdown: null });
    expect(h.logger.lines.join('\n')).toContain('pclink: UI verification result 1');
    expect(h.logger.lines.join('\n')).not.toContain('2468');
    clock.advanceSync(VERIFIED_NOTICE_MS);
    expect(screens.view().screen).toBe('menu');
    expect(clock.pending).toBe(0);
  });

  it('a wrong PIN may be tried again; the third tells the PC Link 0', async () => {
    screens.showVerificationPage();
    type('1111');
    screens.press('pin-submit');
    await vi.waitFor(() =>
      expect(page()).toMatchObject({ phase: 'entry', entered: 0, error: 'Wrong password. 2 tries left.' }),
    );
    expect(outcomes).toEqual([]);
    type('1234');
    screens.press('pin-submit');
    await vi.waitFor(() => expect(page().error).toBe('Wrong password. 1 try left.'));
    type('9999');
    screens.press('pin-submit');
    await vi.waitFor(() => expect(outcomes).toEqual([{ result: 0, reason: 'wrong-password' }]));
    expect(page()).toMatchObject({ phase: 'refused', buttons: [{ action: 'ok', label: 'OK' }] });
    screens.press('ok');
    expect(screens.view().screen).toBe('menu');
  });

  it('too few digits are not checked', () => {
    screens.showVerificationPage();
    type('24');
    screens.press('pin-submit');
    expect(page()).toMatchObject({
      phase: 'entry',
      entered: 2,
      error: 'Enter 4 to 6 digits.',
      attemptsLeft: 3,
    });
    expect(outcomes).toEqual([]);
  });

  it('Cancel, the timeout and closing the screens tell the PC Link 0', () => {
    screens.showVerificationPage();
    screens.press('cancel');
    expect(outcomes).toEqual([{ result: 0, reason: 'cancelled' }]);
    expect(screens.view().screen).toBe('menu');

    screens.showVerificationPage();
    type('24');
    clock.advanceSync(30_000);
    expect(page().countdown).toBe('00:30');
    clock.advanceSync(VERIFY_TIMEOUT_SECONDS * 1000 - 30_000);
    expect(outcomes.at(-1)).toEqual({ result: 0, reason: 'timeout' });
    expect(screens.view().screen).toBe('menu');
    expect(clock.pending).toBe(0);

    screens.showVerificationPage();
    screens.close();
    expect(outcomes.at(-1)).toEqual({ result: 0, reason: 'cancelled' });
  });

  it('with no device password set the page says so and answers 0', async () => {
    h.settings.security.device_password = '';
    screens.showVerificationPage();
    type('2468');
    screens.press('pin-submit');
    await vi.waitFor(() => expect(outcomes).toEqual([{ result: 0, reason: 'no-password-set' }]));
    expect(page()).toMatchObject({ phase: 'refused' });
    expect(page().error).toMatch(/No device password is set/);
  });

  it('the page is shown over an update and the Wi-Fi screens', () => {
    screens.press('open-wifi');
    screens.otaEvent({ type: 'available', kind: 'psp_firmware', version: '1.1.0', forced: true, notes: '' });
    screens.showVerificationPage();
    expect(screens.view().screen).toBe('verify');
    screens.press('pin-cancel');
    expect(screens.view().screen).toBe('update');
  });
});
