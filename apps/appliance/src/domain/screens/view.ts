import type { UpdateKind } from '@waved/swu-ota';
import type { ConnectionDetails, ProvisioningState, SignalClass, StateBus } from '../../core/bus.js';
import { formatFailure } from '../../core/messages.js';
import { type Clock, systemClock } from '../../core/ports/clock.js';
import { type Message, type MessageKey, message, type Translator, translator } from '../../i18n/index.js';
import type { OtaEvent } from '../device/ota.js';
import {
  type BluetoothView,
  createDeviceScreenModel,
  DEVICE_SCREEN_ACTIONS,
  type DeviceScreenAction,
  type DeviceScreenPort,
  type OptionsView,
} from './device.js';
import { formatWifiQr } from './qr.js';
import { createUpdateModel, type UpdateView } from './update.js';
import { createVerifyModel, type VerificationPort, type VerifyView } from './verify.js';

/** `PROV_TIMEOUT`. */
export const SETUP_SESSION_SECONDS = 300;

/**
 * What every screen has. The texts are in the device's language (`lang`), so a renderer only
 * draws them; the buttons carry the action a press sends, whatever their label says.
 */
export interface ScreenBase {
  /** BCP 47 tag of the texts (for `lang` attributes and line breaking). */
  lang: string;
  title: string;
  /** In order; the first is the main one. */
  buttons: ScreenButton[];
}

export interface ScreenButton {
  action: ScreenAction;
  label: string;
}

/** A labelled value, e.g. `Network` and the SSID. */
export interface ScreenRow {
  label: string;
  value: string;
  /** The value is a secret (the setup passphrase): hidden where the screen may be seen by others. */
  secret?: boolean;
}

export interface MenuView extends ScreenBase {
  screen: 'menu';
}

export interface ConfirmDialog {
  /** `Change network?` */
  question: string;
  detail: string;
}

/** Menu > Wi-Fi. */
export interface WifiView extends ScreenBase {
  screen: 'wifi';
  name: string | null;
  connected: boolean;
  /** Human status, e.g. `Connected`, `Not connected`, `Connecting`. */
  status: string;
  signal: SignalClass | null;
  /** Status with the signal class, e.g. `Connected · Good signal`. */
  statusLine: string;
  ipv4: string | null;
  /** Network, status line and IPv4 with their labels (`—` for none). */
  rows: ScreenRow[];
  /** Shown with the buttons Change network and Stay connected. */
  confirm: ConfirmDialog | null;
  /** A one-off note, e.g. why the setup screen closed. */
  notice: string | null;
}

/** Set up Wi-Fi (with the setup QR code). */
export interface SetupView extends ScreenBase {
  screen: 'setup';
  phase: ProvisioningState['state'];
  /** The A5 payload to draw as a QR code, while the setup network is up. */
  qr: string | null;
  /** What the QR code is, for a screen reader. */
  qrLabel: string;
  /** Manual fallback under the QR. */
  ssid: string | null;
  passphrase: string | null;
  /** The setup address without scheme, e.g. `192.168.2.1`. */
  address: string | null;
  /** Network, password and address with their labels, while the setup network is up. */
  rows: ScreenRow[];
  /** e.g. `Connecting to Home…` */
  progress: string;
  /** A failure the user can act on. */
  error: string | null;
  remainingSeconds: number | null;
  /** The time left in the language's digital form, e.g. `04:35`. */
  countdown: string | null;
  /** e.g. `Setup closes in 04:35` */
  countdownText: string | null;
}

/** Wi-Fi screens, with the update and PC Link verification pages shown over them. */
export type ScreenView =
  | MenuView
  | WifiView
  | SetupView
  | BluetoothView
  | OptionsView
  | UpdateView
  | VerifyView;

export type PinDigit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';

export type ScreenAction =
  | 'open-wifi'
  /** Menu > Bluetooth and Menu > Sound and privacy (shown while the device application runs). */
  | 'open-bluetooth'
  | 'open-options'
  | DeviceScreenAction
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
  'open-bluetooth',
  'open-options',
  ...DEVICE_SCREEN_ACTIONS,
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

export interface ScreensOptions {
  bus: StateBus;
  /** The setup countdown, the verification deadline and the update notice (default `systemClock`). */
  clock?: Clock;
  /**
   * The device's language setting (`device.language`), read for every view; English by default.
   * The screens redraw when the portal saves settings, so a new language shows at once; after any
   * other change of the setting, call `refresh()`.
   */
  language?: () => string;
  /** The screen shown first (default `menu`). */
  initial?: 'menu' | 'wifi';
  /** The PIN check and the way back to the PC Link, for its verification page. */
  verification?: VerificationPort;
  /** The device application for the Bluetooth and options screens (their menu entries show while it runs). */
  device?: DeviceScreenPort;
}

export interface Screens {
  view(): ScreenView;
  press(action: ScreenAction): void;
  /** Tells the subscribers the view again, e.g. after the device language changed. */
  refresh(): void;
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

const SIGNAL_WORDS = {
  excellent: 'screen.signal.excellent',
  good: 'screen.signal.good',
  fair: 'screen.signal.fair',
  weak: 'screen.signal.weak',
} as const satisfies Record<SignalClass, MessageKey>;

export type WifiStatus = 'connected' | 'connecting' | 'scanning' | 'off' | 'unknown' | 'disconnected';

const STATUS_WORDS = {
  connected: 'screen.status.connected',
  connecting: 'screen.status.connecting',
  scanning: 'screen.status.scanning',
  off: 'screen.status.off',
  unknown: 'screen.status.unknown',
  disconnected: 'screen.status.disconnected',
} as const satisfies Record<WifiStatus, MessageKey>;

/** `wpa_state` (or a plain word) → what the Wi-Fi screen says (`screen.status.<status>`). */
export function describeStatus(status: string): { status: WifiStatus; connected: boolean } {
  const s = status.trim().toUpperCase();
  if (s === 'COMPLETED' || s === 'CONNECTED') return { status: 'connected', connected: true };
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
    return { status: 'connecting', connected: false };
  if (s === 'SCANNING') return { status: 'scanning', connected: false };
  if (s === 'INTERFACE_DISABLED') return { status: 'off', connected: false };
  if (s === '') return { status: 'unknown', connected: false };
  return { status: 'disconnected', connected: false };
}

/** Seconds left as the screens show them, in the language's digital form through Intl.DurationFormat. */
export function formatCountdown(seconds: number, lang = 'en'): string {
  return translator(lang).countdown(seconds);
}

/** Shown for a value the device does not have (no network, no address). */
const NONE = '—';

/** Whether a screen shows the button for `action`. */
export function offers(view: ScreenView, action: ScreenAction): boolean {
  return view.buttons.some((b) => b.action === action);
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
  const clock = options.clock ?? systemClock;
  const language = options.language ?? (() => 'en');
  const listeners = new Set<(view: ScreenView) => void>();
  let screen: ScreenView['screen'] = options.initial ?? 'menu';
  let confirming = false;
  let notice: Message | null = null;
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

  const update = createUpdateModel({ clock, onChange: () => emit() });
  const verify = createVerifyModel({ port: options.verification, clock, onChange: () => emit() });
  const device = createDeviceScreenModel({
    port: options.device,
    onChange: () => emit(),
    onRequest: () => {
      // a phone asks to connect: the question shows over the menus (not over setup or an update)
      if (screen === 'menu' || screen === 'wifi' || screen === 'options') {
        screen = 'bluetooth';
        confirming = false;
      }
    },
  });

  function emit(): void {
    syncTicker();
    const v = view();
    for (const l of listeners) l(v);
  }

  function syncTicker(): void {
    const want = (screen === 'setup' && deadline !== null) || verify.ticking();
    // One tick a second while a countdown shows; each tick's emit() arms the next while wanted.
    if (want && ticker === null) {
      ticker = clock.setTimeout(() => {
        ticker = null;
        emit();
      }, 1000);
    } else if (!want && ticker !== null) {
      clock.clearTimeout(ticker);
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
      // The portal saved the settings: the language may have changed, and shows at once.
      if (command.type === 'SettingsSaved') emit();
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
            notice = message('screen.notice.timedOut', { minutes: Math.round(SETUP_SESSION_SECONDS / 60) });
          else notice = message('screen.notice.closed');
        }
      }
      emit();
    }),
  ];

  function wifiView(tr: Translator): WifiView {
    const { status, connected: associated } = describeStatus(details?.status ?? '');
    const connected = associated && !!details?.ssid;
    const signal = connected ? (details?.signal ?? null) : null;
    const statusText = tr.t(STATUS_WORDS[status]);
    const statusLine = signal
      ? tr.t('screen.wifi.statusLine', { status: statusText, signal: tr.t(SIGNAL_WORDS[signal]) })
      : statusText;
    const name = details?.ssid ?? null;
    const ipv4 = connected ? (details?.ipv4 ?? null) : null;
    const confirm =
      confirming && connected
        ? {
            question: tr.t('screen.confirm.question'),
            detail: tr.t('screen.confirm.detail', { ssid: name ?? '' }),
          }
        : null;
    return {
      screen: 'wifi',
      lang: tr.lang,
      title: tr.t('screen.wifi.title'),
      name,
      connected,
      status: statusText,
      signal,
      statusLine,
      ipv4,
      rows: [
        { label: tr.t('screen.wifi.network'), value: name ?? NONE },
        { label: tr.t('screen.wifi.status'), value: statusLine },
        { label: tr.t('screen.wifi.ipv4'), value: ipv4 ?? NONE },
      ],
      confirm,
      notice: notice ? tr.text(notice) : null,
      buttons: confirm
        ? [
            { action: 'confirm', label: tr.t('screen.action.changeNetwork') },
            { action: 'dismiss', label: tr.t('screen.action.stayConnected') },
          ]
        : [
            {
              action: 'wifi-button',
              label: tr.t(connected ? 'screen.action.changeNetwork' : 'screen.action.setUpWifi'),
            },
            { action: 'back', label: tr.t('screen.action.back') },
          ],
    };
  }

  function setupView(tr: Translator): SetupView {
    const remaining = deadline === null ? null : Math.max(0, (deadline - clock.now()) / 1000);
    const showAp = ap !== null && (state.state === 'ApActive' || state.state === 'Failed');
    let progress: string;
    let error: string | null = null;
    let actions: Array<'try-again' | 'cancel' | 'done'> = ['cancel'];
    switch (state.state) {
      case 'Scanning':
        progress = tr.t('screen.setup.scanning');
        break;
      case 'ApActive':
        progress = tr.t('screen.setup.ready');
        break;
      case 'Connecting':
        progress = tr.t('screen.setup.connecting', { ssid: state.ssid });
        break;
      case 'Connected':
        progress = tr.t('screen.setup.connected', { ssid: state.ssid });
        actions = ['done'];
        break;
      case 'Failed':
        error = formatFailure(state.reason, tr);
        progress = lastSsid ? tr.t('screen.setup.failedTo', { ssid: lastSsid }) : tr.t('screen.setup.failed');
        actions = ['try-again', 'cancel'];
        break;
      default:
        progress = tr.t('screen.setup.starting');
    }
    const labels = {
      'try-again': tr.t('screen.action.tryAgain'),
      cancel: tr.t('screen.action.cancel'),
      done: tr.t('screen.action.done'),
    };
    const countdown = remaining === null || state.state === 'Connected' ? null : tr.countdown(remaining);
    const shown = showAp && ap ? ap : null;
    return {
      screen: 'setup',
      lang: tr.lang,
      title: tr.t('screen.setup.title'),
      phase: state.state,
      qr: shown ? formatWifiQr({ ssid: shown.ssid, passphrase: shown.passphrase }) : null,
      qrLabel: tr.t('screen.setup.qr'),
      ssid: shown ? shown.ssid : null,
      passphrase: shown ? shown.passphrase : null,
      address: shown ? addressOf(shown.url) : null,
      rows: shown
        ? [
            { label: tr.t('screen.setup.network'), value: shown.ssid },
            { label: tr.t('screen.setup.password'), value: shown.passphrase, secret: true },
            { label: tr.t('screen.setup.address'), value: addressOf(shown.url) },
          ]
        : [],
      progress,
      error,
      remainingSeconds: remaining === null ? null : Math.ceil(remaining),
      countdown,
      countdownText: countdown === null ? null : tr.t('screen.setup.closesIn', { time: countdown }),
      buttons: actions.map((action) => ({ action, label: labels[action] })),
    };
  }

  function view(): ScreenView {
    const tr = translator(language());
    device.watch();
    const over = verify.view(tr) ?? update.view(tr);
    if (over) return over;
    if (screen === 'menu')
      return {
        screen: 'menu',
        lang: tr.lang,
        title: tr.t('screen.menu.title'),
        buttons: [
          { action: 'open-wifi', label: tr.t('screen.menu.wifi') },
          ...(device.available.bluetooth()
            ? [{ action: 'open-bluetooth' as const, label: tr.t('screen.menu.bluetooth') }]
            : []),
          ...(device.available.options()
            ? [{ action: 'open-options' as const, label: tr.t('screen.menu.options') }]
            : []),
        ],
      };
    if (screen === 'wifi') return wifiView(tr);
    if (screen === 'bluetooth') return device.bluetoothView(tr);
    if (screen === 'options') return device.optionsView(tr);
    return setupView(tr);
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
    if ((current.screen === 'bluetooth' || current.screen === 'options') && action !== 'back') {
      if (offers(current, action)) device.press(action as DeviceScreenAction);
      emit();
      return;
    }
    switch (action) {
      case 'open-bluetooth':
        if (current.screen === 'menu' && offers(current, action)) {
          screen = 'bluetooth';
          device.open();
        }
        break;
      case 'open-options':
        if (current.screen === 'menu' && offers(current, action)) screen = 'options';
        break;
      case 'open-wifi':
        if (screen === 'menu') {
          // Opening Menu > Wi-Fi neither stops station mode nor starts the AP.
          screen = 'wifi';
          notice = null;
        }
        break;
      case 'back':
        if (screen === 'bluetooth' || screen === 'options') screen = 'menu';
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
        if (current.screen === 'setup' && offers(current, 'try-again')) {
          // After a failed connect the setup network is back and the same session (and its 300 s)
          // goes on; only when the setup network itself failed does a new session start.
          const sameSession = ap !== null && state.state === 'Failed' && state.reason !== 'ap-failed';
          if (!sameSession) startSession();
          bus.send({ type: 'OpenWifiProvisioning' });
        }
        break;
      case 'cancel':
        if (current.screen === 'setup' && offers(current, 'cancel')) {
          starting = false;
          deadline = null;
          ap = null;
          screen = 'wifi';
          notice = null;
          bus.send({ type: 'CancelProvisioning' });
        }
        break;
      case 'done':
        if (current.screen === 'setup' && offers(current, 'done')) {
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
    refresh: () => emit(),
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
      device.close();
      for (const off of offs) off();
      listeners.clear();
      if (ticker !== null) clock.clearTimeout(ticker);
      ticker = null;
    },
  };
}
