import type { Translator } from '../../i18n/index.js';
import type { DeviceUiEvents } from '../device/app.js';
import type { BluetoothService, BluetoothStatus, ModuleInfo } from '../device/bluetooth/service.js';
import type { ConfirmDialog, ScreenBase, ScreenButton, ScreenRow } from './view.js';

/** What the Bluetooth and options screens use of the device application (absent: not running). */
export interface DeviceScreenPort {
  bluetooth(): Pick<
    BluetoothService,
    | 'info'
    | 'status'
    | 'pendingRequest'
    | 'answerConnectRequest'
    | 'disconnect'
    | 'setEnabled'
    | 'repair'
    | 'downloadPhoneBook'
    | 'on'
  > | null;
  ui(): Pick<
    DeviceUiEvents,
    'uiState' | 'toggleMicMute' | 'toggleSpeakerMute' | 'privacyAgreement' | 'joinUserExperience'
  > | null;
}

/** Menu > Bluetooth: the module, the phone, pairing and the phone book. */
export interface BluetoothView extends ScreenBase {
  screen: 'bluetooth';
  rows: ScreenRow[];
  /** A phone asks to connect: Connect or Reject. */
  confirm: ConfirmDialog | null;
  notice: string | null;
}

/** Menu > Sound and privacy: the mute switches, the privacy agreement, the experience programme. */
export interface OptionsView extends ScreenBase {
  screen: 'options';
  rows: ScreenRow[];
  confirm: null;
  notice: string | null;
}

export type DeviceScreenAction =
  | 'bt-accept'
  | 'bt-reject'
  | 'bt-sync'
  | 'bt-disconnect'
  | 'bt-pair'
  | 'bt-off'
  | 'bt-on'
  | 'mic-mute'
  | 'mic-unmute'
  | 'speaker-mute'
  | 'speaker-unmute'
  | 'privacy-agree'
  | 'experience-join';

export const DEVICE_SCREEN_ACTIONS: readonly DeviceScreenAction[] = [
  'bt-accept',
  'bt-reject',
  'bt-sync',
  'bt-disconnect',
  'bt-pair',
  'bt-off',
  'bt-on',
  'mic-mute',
  'mic-unmute',
  'speaker-mute',
  'speaker-unmute',
  'privacy-agree',
  'experience-join',
];

const NONE = '—';

/**
 * The Bluetooth and options screens. The module is asked (info, status bytes) when the screen
 * opens and after every action or module event; the view draws the last answer.
 */
export interface DeviceScreenModelOptions {
  /** The device application; absent on a device without one (the screens say so). */
  port?: DeviceScreenPort | undefined;
  /** Something the view draws changed. */
  onChange: () => void;
  /** A phone asks to connect: the screens show the Bluetooth screen with the question. */
  onRequest: () => void;
}

export function createDeviceScreenModel({ port, onChange: changed, onRequest }: DeviceScreenModelOptions) {
  let info: ModuleInfo | null = null;
  let status: BluetoothStatus | null = null;
  let failed = false;
  let notice: ((tr: Translator) => string) | null = null;
  let watched: ReturnType<DeviceScreenPort['bluetooth']> = null;
  /** Unsubscribes from `watched`. */
  const unwatch: (() => void)[] = [];
  const onEvent = () => void refresh();
  const onConnectRequest = () => {
    onRequest();
    void refresh();
  };

  async function refresh(): Promise<void> {
    const bt = port?.bluetooth();
    if (!bt) return;
    try {
      info = await bt.info();
      status = await bt.status();
      failed = false;
    } catch {
      failed = true;
    }
    changed();
  }

  /** Follows the module's events while a screen shows it (and for a connection request anywhere). */
  function watch(): void {
    const bt = port?.bluetooth() ?? null;
    if (bt === watched) return;
    for (const off of unwatch.splice(0)) off();
    watched = bt;
    if (!bt) return;
    for (const e of ['connected', 'disconnected', 'changed', 'closed'] as const)
      unwatch.push(bt.on(e, onEvent));
    unwatch.push(bt.on('connectRequest', onConnectRequest));
  }

  const run = (what: () => Promise<((tr: Translator) => string) | undefined>) => {
    notice = null;
    void what()
      .then((done) => {
        notice = done ?? null;
      })
      .catch(() => {
        notice = (tr) => tr.t('screen.bt.unavailable');
      })
      .finally(() => void refresh());
  };

  return {
    available: {
      bluetooth: () => !!port?.bluetooth(),
      options: () => !!port?.ui(),
    },
    /** The Bluetooth screen opens: ask the module. */
    open(): void {
      watch();
      notice = null;
      void refresh();
    },
    /** A phone asks to connect (whatever screen is up). */
    requestPending: () => !!port?.bluetooth()?.pendingRequest,
    watch,
    bluetoothView(tr: Translator): BluetoothView {
      const bt = port?.bluetooth();
      const request = bt?.pendingRequest ?? null;
      const connected = !!status?.connected;
      const enabled = status?.enabled ?? true;
      const state = !enabled
        ? tr.t('screen.bt.off')
        : connected
          ? tr.t('screen.bt.connectedTo', { name: status?.deviceName || NONE })
          : tr.t('screen.bt.idle');
      const buttons: ScreenButton[] = request
        ? [
            { action: 'bt-accept', label: tr.t('screen.action.btAccept') },
            { action: 'bt-reject', label: tr.t('screen.action.btReject') },
          ]
        : [
            ...(connected
              ? ([
                  { action: 'bt-sync', label: tr.t('screen.action.btSync') },
                  { action: 'bt-disconnect', label: tr.t('screen.action.btDisconnect') },
                ] as ScreenButton[])
              : []),
            ...(enabled
              ? ([
                  { action: 'bt-pair', label: tr.t('screen.action.btPair') },
                  { action: 'bt-off', label: tr.t('screen.action.btOff') },
                ] as ScreenButton[])
              : ([{ action: 'bt-on', label: tr.t('screen.action.btOn') }] as ScreenButton[])),
            { action: 'back', label: tr.t('screen.action.back') },
          ];
      return {
        screen: 'bluetooth',
        lang: tr.lang,
        title: tr.t('screen.bt.title'),
        rows: [
          { label: tr.t('screen.bt.name'), value: info?.name || NONE },
          { label: tr.t('screen.bt.status'), value: state },
          {
            label: tr.t('screen.bt.contacts'),
            value: status?.contacts == null ? NONE : tr.number(status.contacts),
          },
          { label: tr.t('screen.bt.address'), value: info?.mac || NONE },
          { label: tr.t('screen.bt.version'), value: info ? `${info.version} (${info.buildtime})` : NONE },
        ],
        confirm: request
          ? {
              question: tr.t('screen.bt.request', { name: request || NONE }),
              detail: tr.t('screen.bt.requestDetail'),
            }
          : null,
        notice: failed ? tr.t('screen.bt.unavailable') : notice ? notice(tr) : null,
        buttons,
      };
    },
    optionsView(tr: Translator): OptionsView {
      const s = port?.ui()?.uiState() ?? {
        micMuted: false,
        speakerMuted: false,
        privacyAgreed: false,
        experienceJoined: false,
      };
      const onOff = (muted: boolean) => tr.t(muted ? 'screen.options.muted' : 'screen.options.on');
      const yesNo = (yes: boolean) => tr.t(yes ? 'screen.options.yes' : 'screen.options.no');
      return {
        screen: 'options',
        lang: tr.lang,
        title: tr.t('screen.options.title'),
        rows: [
          { label: tr.t('screen.options.mic'), value: onOff(s.micMuted) },
          { label: tr.t('screen.options.speaker'), value: onOff(s.speakerMuted) },
          { label: tr.t('screen.options.privacy'), value: yesNo(s.privacyAgreed) },
          { label: tr.t('screen.options.experience'), value: yesNo(s.experienceJoined) },
        ],
        confirm: null,
        notice: null,
        buttons: [
          s.micMuted
            ? { action: 'mic-unmute', label: tr.t('screen.action.unmuteMic') }
            : { action: 'mic-mute', label: tr.t('screen.action.muteMic') },
          s.speakerMuted
            ? { action: 'speaker-unmute', label: tr.t('screen.action.unmuteSpeaker') }
            : { action: 'speaker-mute', label: tr.t('screen.action.muteSpeaker') },
          ...(s.privacyAgreed
            ? []
            : ([{ action: 'privacy-agree', label: tr.t('screen.action.agreePrivacy') }] as ScreenButton[])),
          ...(s.experienceJoined
            ? []
            : ([
                { action: 'experience-join', label: tr.t('screen.action.joinExperience') },
              ] as ScreenButton[])),
          { action: 'back', label: tr.t('screen.action.back') },
        ],
      };
    },
    /** A press on the Bluetooth or options screen (the caller checked the button is shown). */
    press(action: DeviceScreenAction): void {
      const bt = port?.bluetooth();
      const ui = port?.ui();
      const after = (p: Promise<unknown> | undefined) => void p?.catch(() => {}).finally(() => changed());
      switch (action) {
        case 'bt-accept':
        case 'bt-reject':
          if (bt) run(() => bt.answerConnectRequest(action === 'bt-accept').then(() => undefined));
          break;
        case 'bt-sync':
          if (bt)
            run(async () => {
              const list = await bt.downloadPhoneBook();
              return (tr) => tr.t('screen.bt.synced', { count: list.length });
            });
          break;
        case 'bt-disconnect':
          if (bt) run(() => bt.disconnect().then(() => undefined));
          break;
        case 'bt-pair':
          if (bt)
            run(async () => {
              await bt.repair();
              return (tr) => tr.t('screen.bt.paired');
            });
          break;
        case 'bt-off':
        case 'bt-on':
          if (bt) run(() => bt.setEnabled(action === 'bt-on').then(() => undefined));
          break;
        case 'mic-mute':
        case 'mic-unmute':
          after(ui?.toggleMicMute(action === 'mic-mute'));
          break;
        case 'speaker-mute':
        case 'speaker-unmute':
          after(ui?.toggleSpeakerMute(action === 'speaker-mute'));
          break;
        case 'privacy-agree':
          after(ui?.privacyAgreement());
          break;
        case 'experience-join':
          after(ui?.joinUserExperience());
          break;
      }
    },
    close(): void {
      for (const off of unwatch.splice(0)) off();
      watched = null;
    },
  };
}
