import { PIN_MAX_DIGITS, PIN_MIN_DIGITS } from '@waved/psk';
import { type Clock, systemClock } from '../../core/ports/clock.js';
import { type Message, message, type Translator } from '../../i18n/index.js';
import type { UiVerificationOutcome } from '../device/app.js';
import type { ScreenBase, ScreenButton } from './view.js';

/** PIN lengths of the device password (`@waved/psk`). */
export const PIN_DIGITS = { min: PIN_MIN_DIGITS, max: PIN_MAX_DIGITS } as const;
/** Wrong PINs before the computer is told the verification failed. */
export const VERIFY_ATTEMPTS = 3;
/** The page closes (result 0) when nobody finishes it in this time. */
export const VERIFY_TIMEOUT_SECONDS = 60;
/** How long `Verified` stays on the screen. */
export const VERIFIED_NOTICE_MS = 2000;

export type VerifyAction = 'pin-submit' | 'pin-delete' | 'pin-cancel' | 'ok';

/** The UI verification page of PC Link (`slave_verify_dev_passwd` with an empty password). */
export interface VerifyView extends ScreenBase {
  screen: 'verify';
  /** `Enter the device password on the device` */
  prompt: string;
  detail: string;
  phase: 'entry' | 'verified' | 'refused';
  /** How many digits are typed; the digits themselves never leave the view model. */
  entered: number;
  /** e.g. `3 digits entered`, for a screen reader. */
  enteredText: string;
  /** The label of the masked entry: `Password`. */
  entryLabel: string;
  /** One dot per typed digit. */
  masked: string;
  minDigits: number;
  maxDigits: number;
  attemptsLeft: number;
  error: string | null;
  remainingSeconds: number | null;
  countdown: string | null;
  /** e.g. `Closes in 00:42` */
  countdownText: string | null;
}

/**
 * What the page needs from the device application: the one shared PIN check
 * (`app.verifyDevicePassword`, which uses `verifyPin` of @waved/psk) and the way back to the
 * PC Link (`app.reportUiVerification`).
 */
export interface VerificationPort {
  /**
   * The PIN check (asynchronous on the device: the hash runs off the event loop, and the shared
   * failed-attempt counter may refuse it with `reason: 'locked'` and `retryAfterMs`).
   */
  verify(
    pin: string,
  ):
    | { result: 0 | 1; reason?: string; retryAfterMs?: number }
    | Promise<{ result: 0 | 1; reason?: string; retryAfterMs?: number }>;
  report(outcome: UiVerificationOutcome): void;
}

export interface VerifyModelOptions {
  /** Where a PIN is checked and the outcome reported; without it the page cannot open. */
  port?: VerificationPort | undefined;
  /** The entry deadline and the retry waits (default `systemClock`); tests pass a manual clock. */
  clock?: Clock;
  /** Called whenever the verification view changes. */
  onChange: () => void;
}

export function createVerifyModel(options: VerifyModelOptions) {
  const { port } = options;
  const clock = options.clock ?? systemClock;
  const changed = options.onChange;
  let open = false;
  let phase: VerifyView['phase'] = 'entry';
  let pin = '';
  let attemptsLeft = VERIFY_ATTEMPTS;
  let error: Message | null = null;
  let deadline: number | null = null;
  let cancelTimer: (() => void) | null = null;
  /** A check is running: keys wait for its answer. */
  let checking = false;
  /** Changes whenever the page opens or closes, so a late answer is not applied to another page. */
  let generation = 0;

  function schedule(ms: number, fn: () => void): void {
    cancelTimer?.();
    const handle = clock.setTimeout(fn, ms);
    cancelTimer = () => clock.clearTimeout(handle);
  }

  function close(): void {
    generation += 1;
    checking = false;
    open = false;
    pin = '';
    error = null;
    deadline = null;
    cancelTimer?.();
    cancelTimer = null;
  }

  function finish(outcome: UiVerificationOutcome): void {
    try {
      port?.report(outcome);
    } catch {
      // the PC Link may be gone; the page still closes
    }
  }

  function show(): void {
    generation += 1;
    checking = false;
    open = true;
    phase = 'entry';
    pin = '';
    attemptsLeft = VERIFY_ATTEMPTS;
    error = port ? null : message('verify.error.unavailable');
    if (!port) phase = 'refused';
    deadline = clock.now() + VERIFY_TIMEOUT_SECONDS * 1000;
    schedule(VERIFY_TIMEOUT_SECONDS * 1000, () => {
      if (open && phase === 'entry') {
        finish({ result: 0, reason: 'timeout' });
        close();
        changed();
      }
    });
    changed();
  }

  function submit(): void {
    if (!port || checking) return;
    if (pin.length < PIN_DIGITS.min) {
      error = message('verify.error.length', { min: PIN_DIGITS.min, max: PIN_DIGITS.max });
      return;
    }
    const typed = pin;
    pin = '';
    let answer: ReturnType<VerificationPort['verify']>;
    try {
      answer = port.verify(typed);
    } catch {
      answer = { result: 0, reason: 'wrong-password' };
    }
    if (!(answer instanceof Promise)) {
      settle(answer);
      return;
    }
    checking = true;
    const asked = generation;
    answer
      .catch(() => ({ result: 0 as const, reason: 'wrong-password' }))
      .then((r) => {
        checking = false;
        if (asked !== generation || !open || phase !== 'entry') return;
        settle(r);
        changed();
      });
  }

  function settle(r: { result: 0 | 1; reason?: string; retryAfterMs?: number }): void {
    if (r.result === 1) {
      phase = 'verified';
      error = null;
      deadline = null;
      finish({ result: 1 });
      schedule(VERIFIED_NOTICE_MS, () => {
        close();
        changed();
      });
      return;
    }
    if (r.reason === 'no-password-set') {
      phase = 'refused';
      deadline = null;
      cancelTimer?.();
      error = message('verify.error.noPassword');
      finish({ result: 0, reason: 'no-password-set' });
      return;
    }
    if (r.reason === 'locked') {
      // The shared counter holds every PIN check for a while (too many wrong PINs anywhere).
      const seconds = Math.ceil((r.retryAfterMs ?? 0) / 1000);
      error = message('verify.error.locked', { wait: seconds });
      return;
    }
    attemptsLeft -= 1;
    if (attemptsLeft > 0) {
      error = message('verify.error.wrong', { left: attemptsLeft });
      return;
    }
    phase = 'refused';
    deadline = null;
    cancelTimer?.();
    error = message('verify.error.refused');
    finish({ result: 0, reason: 'wrong-password' });
  }

  /** Returns false when the page is not open or the key does nothing here. */
  function press(action: string): boolean {
    if (!open) return false;
    if (phase === 'entry') {
      const digit = /^pin-([0-9])$/.exec(action)?.[1];
      if (digit !== undefined) {
        if (pin.length < PIN_DIGITS.max) pin += digit;
        error = null;
        return true;
      }
      if (action === 'pin-delete') {
        pin = pin.slice(0, -1);
        return true;
      }
      if (action === 'pin-submit') {
        submit();
        return true;
      }
      if (action === 'pin-cancel' || action === 'cancel') {
        finish({ result: 0, reason: 'cancelled' });
        close();
        return true;
      }
      return false;
    }
    if (
      phase === 'refused' &&
      (action === 'pin-submit' || action === 'ok' || action === 'pin-cancel' || action === 'cancel')
    ) {
      close();
      return true;
    }
    return false;
  }

  function buttons(tr: Translator): ScreenButton[] {
    if (phase === 'entry')
      return [
        { action: 'pin-submit', label: tr.t('screen.action.ok') },
        { action: 'pin-delete', label: tr.t('screen.action.delete') },
        { action: 'pin-cancel', label: tr.t('screen.action.cancel') },
      ];
    return phase === 'refused' ? [{ action: 'ok', label: tr.t('screen.action.ok') }] : [];
  }

  function view(tr: Translator): VerifyView | null {
    if (!open) return null;
    const remaining = deadline === null ? null : Math.max(0, (deadline - clock.now()) / 1000);
    const countdown = remaining === null ? null : tr.countdown(remaining);
    return {
      screen: 'verify',
      lang: tr.lang,
      title: tr.t('verify.title'),
      prompt: tr.t('verify.prompt'),
      detail: phase === 'verified' ? tr.t('verify.verified') : tr.t('verify.detail'),
      phase,
      entered: pin.length,
      enteredText: tr.t('verify.entered', { count: pin.length }),
      entryLabel: tr.t('verify.password'),
      masked: '•'.repeat(pin.length),
      minDigits: PIN_DIGITS.min,
      maxDigits: PIN_DIGITS.max,
      attemptsLeft,
      error: error ? tr.text(error) : null,
      remainingSeconds: remaining === null ? null : Math.ceil(remaining),
      countdown,
      countdownText: countdown === null ? null : tr.t('verify.closesIn', { time: countdown }),
      buttons: buttons(tr),
    };
  }

  return {
    show,
    press,
    view,
    /** A countdown runs while the page waits for the PIN. */
    ticking: () => open && deadline !== null,
    close() {
      if (open && phase === 'entry') finish({ result: 0, reason: 'cancelled' });
      close();
    },
  };
}
