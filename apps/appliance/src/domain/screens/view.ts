import type { UpdateKind } from '@waved/swu-ota';
import type { ConnectionDetails, ProvisioningState, SignalClass, StateBus } from '../../core/bus.js';
import type { OtaEvent } from '../device/ota.js';
import { formatWifiQr } from './qr.js';
import { createUpdateModel, type UpdateView } from './update.js';
import { createVerifyModel, type VerificationPort, type VerifyView } from './verify.js';

/** Spec Limits: `PROV_TIMEOUT`. */
export const SETUP_SESSION_SECONDS = 300;

export interface MenuView {
  screen: 'menu';
  title: 'Menu';
  items: readonly string[];
}

export interface ConfirmDialog {
  question: 'Change network?';
  detail: string;
  yes: 'Change network';
  no: 'Stay connected';
}

/** Menu > Wi-Fi (spec States C). */
export interface WifiView {
  screen: 'wifi';
  title: 'Wi-Fi';
  name: string | null;
  connected: boolean;
  /** Human status, e.g. `Connected`, `Not connected`, `Connecting`. */
  status: string;
  signal: SignalClass | null;
  /** Status with the signal class, e.g. `Connected · Good signal`. */
  statusLine: string;
  ipv4: string | null;
  button: 'Set up Wi-Fi' | 'Change network';
  confirm: ConfirmDialog | null;
  /** A one-off note, e.g. why the setup screen closed. */
  notice: string | null;
}

export type SetupAction = 'Try again' | 'Cancel' | 'Done';

/** Set up Wi-Fi (spec States C, A5). */
export interface SetupView {
  screen: 'setup';
  title: 'Set up Wi-Fi';
  phase: ProvisioningState['state'];
  /** The A5 payload to draw as a QR code, while the setup network is up. */
  qr: string | null;
  /** Manual fallback under the QR. */
  ssid: string | null;
  passphrase: string | null;
  /** The setup address without scheme, e.g. `192.168.2.1`. */
  address: string | null;
  /** e.g. `Connecting to Home…` */
  progress: string;
  /** A failure the user can act on. */
  error: string | null;
  actions: SetupAction[];
  remainingSeconds: number | null;
  /** `m:ss` */
  countdown: string | null;
}

/** Wi-Fi screens, with the update and PC Link verification pages shown over them. */
export type ScreenView = MenuView | WifiView | SetupView | UpdateView | VerifyView;

export type PinDigit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';

export type ScreenAction =
  | 'open-wifi'
  | 'back'
  /** The Wi-Fi screen button (`Set up Wi-Fi` or `Change network`). */
  | 'wifi-button'
  | 'confirm'
  | 'dismiss'
  | 'try-again'
  | 'cancel'
  | 'done'
  /** Software update: accept (also ahead, while it downloads), put off, acknowledge a failure. */
  | 'install'
  | 'later'
  | 'ok'
  /** PC Link verification page: a digit, delete the last one, check, give up. */
  | `pin-${PinDigit}`
  | 'pin-delete'
  | 'pin-submit'
  | 'pin-cancel';

/** Every action, for renderers that take actions from outside (the emulator page). */
export const SCREEN_ACTIONS: readonly ScreenAction[] = [
  'open-wifi',
  'back',
  'wifi-button',
  'confirm',
  'dismiss',
  'try-again',
  'cancel',
  'done',
  'install',
  'later',
  'ok',
  ...(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'] as const).map((d) => `pin-${d}` as const),
  'pin-delete',
  'pin-submit',
  'pin-cancel',
];

export interface ScreensClock {
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const realClock: ScreensClock = {
  now: () => Date.now(),
  setInterval: (fn, ms) => {
    const t = setInterval(fn, ms);
    t.unref?.();
    return t;
  },
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
};

export interface ScreensOptions {
  bus: StateBus;
  clock?: ScreensClock;
  /** The screen shown first (default `menu`). */
  initial?: 'menu' | 'wifi';
  /** The PIN check and the way back to the PC Link, for its verification page. */
  verification?: VerificationPort;
}

export interface Screens {
  view(): ScreenView;
  press(action: ScreenAction): void;
  /** Called on every change of the view (and every second while a countdown runs). */
  subscribe(listener: (view: ScreenView) => void): () => void;
  /** The device application's OTA events (`onOtaEvent`). */
  otaEvent(event: OtaEvent): void;
  /** The device application's consent hook (`ota.consent`): resolves with Install (true) or Later. */
  consent(info: { kind: UpdateKind; version: string; notes: string }): Promise<boolean>;
  /** The device application's `showVerificationPage` (PC Link, empty password). */
  showVerificationPage(): void;
  /** Stops the timers; a pending consent is answered Later and an open verification is cancelled. */
  close(): void;
}

const SIGNAL_WORDS: Record<SignalClass, string> = {
  excellent: 'Excellent signal',
  good: 'Good signal',
  fair: 'Fair signal',
  weak: 'Weak signal',
};

/** `wpa_state` (or a plain word) → what the Wi-Fi screen says. */
export function describeStatus(status: string): { text: string; connected: boolean } {
  const s = status.trim().toUpperCase();
  if (s === 'COMPLETED' || s === 'CONNECTED') return { text: 'Connected', connected: true };
  if (
    [
      'ASSOCIATING',
      'ASSOCIATED',
      'AUTHENTICATING',
      '4WAY_HANDSHAKE',
      'GROUP_HANDSHAKE',
      'CONNECTING',
    ].includes(s)
  )
    return { text: 'Connecting', connected: false };
  if (s === 'SCANNING') return { text: 'Searching for networks', connected: false };
  if (s === 'INTERFACE_DISABLED') return { text: 'Wi-Fi is off', connected: false };
  if (s === '') return { text: 'Unknown', connected: false };
  return { text: 'Not connected', connected: false };
}

const FAILURES: Record<string, string> = {
  'wrong-password': 'The Wi-Fi password was not accepted.',
  'network-not-found': 'The network was not found.',
  'no-address': 'The router gave the device no address.',
  'association-timeout': 'The device could not join the network in time.',
  'ap-failed': 'The setup network could not start.',
};

export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function addressOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The device screens as a view model built from the bus. Renderers (terminal, web emulator, the
 * real display) draw `view()` and turn buttons into `press()`; actions become bus commands.
 */
export function createScreens(options: ScreensOptions): Screens {
  const { bus } = options;
  const clock = options.clock ?? realClock;
  const listeners = new Set<(view: ScreenView) => void>();
  let screen: ScreenView['screen'] = options.initial ?? 'menu';
  let confirming = false;
  let notice: string | null = null;
  let state: ProvisioningState = bus.last('ProvisioningState') ?? { state: 'Idle' };
  let details: ConnectionDetails | undefined = bus.last('ConnectionDetails');
  /** The AP credentials of this session, kept for Failed (the AP comes back for Try again). */
  let ap: Extract<ProvisioningState, { state: 'ApActive' }> | null =
    state.state === 'ApActive' ? state : null;
  let lastSsid: string | null = null;
  let deadline: number | null = null;
  /** We asked for a session and have not seen it start yet: an Idle then is the old state. */
  let starting = false;
  let ticker: unknown = null;

  /** One-shot timers on the clock's interval (the clock has no setTimeout). */
  const after = (ms: number, fn: () => void): (() => void) => {
    let handle: unknown = null;
    handle = clock.setInterval(() => {
      clock.clearInterval(handle);
      handle = null;
      fn();
    }, ms);
    return () => {
      if (handle !== null) clock.clearInterval(handle);
      handle = null;
    };
  };
  const update = createUpdateModel({ after }, () => emit());
  const verify = createVerifyModel(
    options.verification,
    { now: clock.now, after },
    () => emit(),
    formatCountdown,
  );

  function emit(): void {
    syncTicker();
    const v = view();
    for (const l of listeners) l(v);
  }

  function syncTicker(): void {
    const want = (screen === 'setup' && deadline !== null) || verify.ticking();
    if (want && ticker === null) ticker = clock.setInterval(() => emit(), 1000);
    else if (!want && ticker !== null) {
      clock.clearInterval(ticker);
      ticker = null;
    }
  }

  function startSession(): void {
    deadline = clock.now() + SETUP_SESSION_SECONDS * 1000;
    starting = true;
    notice = null;
  }

  const offs = [
    bus.on('command', (command) => {
      // A session opened by another part of the device (CLI, a button) starts its countdown too.
      if (
        command.type === 'OpenWifiProvisioning' &&
        !starting &&
        (state.state === 'Idle' || state.state === 'Connected')
      )
        startSession();
    }),
    bus.on('ConnectionDetails', (d) => {
      details = d;
      emit();
    }),
    bus.on('ProvisioningState', (next) => {
      const previous = state;
      state = next;
      if (next.state === 'ApActive') ap = next;
      if (next.state === 'Connecting' || next.state === 'Connected') lastSsid = next.ssid;
      if (next.state !== 'Idle') {
        if (previous.state === 'Idle' && !starting && deadline === null) startSession();
        starting = false;
        // A session started elsewhere (CLI, button) still shows its QR on the device.
        if (screen !== 'setup' && (next.state === 'Scanning' || next.state === 'ApActive')) {
          screen = 'setup';
          confirming = false;
        }
      } else if (!starting) {
        const timedOut = deadline !== null && clock.now() >= deadline;
        const was = previous.state;
        deadline = null;
        ap = null;
        if (screen === 'setup') {
          screen = 'wifi';
          if (was === 'Connected') notice = null;
          else if (timedOut)
            notice = 'Setup closed after 5 minutes. The device went back to its saved networks.';
          else notice = 'Setup closed. The device went back to its saved networks.';
        }
      }
      emit();
    }),
  ];

  function wifiView(): WifiView {
    const status = describeStatus(details?.status ?? '');
    const connected = status.connected && !!details?.ssid;
    const signal = connected ? (details?.signal ?? null) : null;
    return {
      screen: 'wifi',
      title: 'Wi-Fi',
      name: details?.ssid ?? null,
      connected,
      status: status.text,
      signal,
      statusLine: signal ? `${status.text} · ${SIGNAL_WORDS[signal]}` : status.text,
      ipv4: connected ? (details?.ipv4 ?? null) : null,
      button: connected ? 'Change network' : 'Set up Wi-Fi',
      confirm:
        confirming && connected
          ? {
              question: 'Change network?',
              detail: `The device leaves “${details?.ssid}” while the setup network is open.`,
              yes: 'Change network',
              no: 'Stay connected',
            }
          : null,
      notice,
    };
  }

  function setupView(): SetupView {
    const remaining = deadline === null ? null : Math.max(0, (deadline - clock.now()) / 1000);
    const showAp = ap !== null && (state.state === 'ApActive' || state.state === 'Failed');
    let progress: string;
    let error: string | null = null;
    let actions: SetupAction[] = ['Cancel'];
    switch (state.state) {
      case 'Scanning':
        progress = 'Looking for networks…';
        break;
      case 'ApActive':
        progress = 'Scan the code with your phone camera, or join the network above and open the address.';
        break;
      case 'Connecting':
        progress = `Connecting to ${state.ssid}…`;
        break;
      case 'Connected':
        progress = `Connected to ${state.ssid}.`;
        actions = ['Done'];
        break;
      case 'Failed':
        error = FAILURES[state.reason] ?? 'Connecting failed.';
        progress = lastSsid ? `Could not connect to ${lastSsid}.` : 'Could not connect.';
        actions = ['Try again', 'Cancel'];
        break;
      default:
        progress = 'Starting the setup network…';
    }
    return {
      screen: 'setup',
      title: 'Set up Wi-Fi',
      phase: state.state,
      qr: showAp && ap ? formatWifiQr({ ssid: ap.ssid, passphrase: ap.passphrase }) : null,
      ssid: showAp && ap ? ap.ssid : null,
      passphrase: showAp && ap ? ap.passphrase : null,
      address: showAp && ap ? addressOf(ap.url) : null,
      progress,
      error,
      actions,
      remainingSeconds: remaining === null ? null : Math.ceil(remaining),
      countdown: remaining === null || state.state === 'Connected' ? null : formatCountdown(remaining),
    };
  }

  function view(): ScreenView {
    const over = verify.view() ?? update.view();
    if (over) return over;
    if (screen === 'menu') return { screen: 'menu', title: 'Menu', items: ['Wi-Fi'] };
    if (screen === 'wifi') return wifiView();
    return setupView();
  }

  function openSetup(): void {
    screen = 'setup';
    confirming = false;
    startSession();
    bus.send({ type: 'OpenWifiProvisioning' });
  }

  function press(action: ScreenAction): void {
    if (verify.press(action)) {
      emit();
      return;
    }
    if (action === 'install' || action === 'later' || action === 'ok') {
      if (update.press(action)) emit();
      return;
    }
    const current = view();
    // The Wi-Fi buttons are under the update or verification page: not reachable now.
    if (current.screen === 'update' || current.screen === 'verify') return;
    switch (action) {
      case 'open-wifi':
        if (screen === 'menu') {
          // Opening Menu > Wi-Fi neither stops station mode nor starts the AP.
          screen = 'wifi';
          notice = null;
        }
        break;
      case 'back':
        if (screen === 'wifi') {
          screen = 'menu';
          confirming = false;
        }
        break;
      case 'wifi-button':
        if (current.screen !== 'wifi') break;
        if (current.connected) confirming = true;
        else openSetup();
        break;
      case 'confirm':
        if (current.screen === 'wifi' && current.confirm) openSetup();
        break;
      case 'dismiss':
        confirming = false;
        break;
      case 'try-again':
        if (current.screen === 'setup' && current.actions.includes('Try again')) {
          // After a failed connect the setup network is back and the same session (and its 300 s)
          // goes on; only when the setup network itself failed does a new session start.
          const sameSession = ap !== null && state.state === 'Failed' && state.reason !== 'ap-failed';
          if (!sameSession) startSession();
          bus.send({ type: 'OpenWifiProvisioning' });
        }
        break;
      case 'cancel':
        if (current.screen === 'setup' && current.actions.includes('Cancel')) {
          starting = false;
          deadline = null;
          ap = null;
          screen = 'wifi';
          notice = null;
          bus.send({ type: 'CancelProvisioning' });
        }
        break;
      case 'done':
        if (current.screen === 'setup' && current.actions.includes('Done')) {
          deadline = null;
          screen = 'wifi';
        }
        break;
    }
    emit();
  }

  return {
    view,
    press,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    otaEvent: (event) => update.onEvent(event),
    consent: (info) => update.consent(info),
    showVerificationPage: () => verify.show(),
    close() {
      update.close();
      verify.close();
      for (const off of offs) off();
      listeners.clear();
      if (ticker !== null) clock.clearInterval(ticker);
      ticker = null;
    },
  };
}
