import { OTA_REFUSALS, type OtaErrorCode, type UpdateKind } from '@waved/swu-ota';
import { type Clock, systemClock } from '../../core/ports/clock.js';
import { type Message, message, type Translator, translator } from '../../i18n/index.js';
import type { OtaEvent } from '../device/ota.js';
import type { ScreenBase, ScreenButton } from './view.js';

/** Where an update is, as the Software update screen shows it. */
export type UpdatePhase =
  | 'available'
  | 'downloading'
  | 'verifying'
  | 'consent'
  | 'installing'
  | 'restarting'
  | 'failed';

export type UpdateAction = 'install' | 'later' | 'ok';

export interface UpdateProgress {
  /** Whole percent, or null while the server has not told the size. */
  percent: number | null;
  /** The percent in the language's form (`50%`, `50 %`), or null. */
  percentText: string | null;
  received: number;
  total: number | null;
  /** e.g. `128 KiB of 256 KiB` */
  bytes: string;
}

/** Software update (firmware or model), from the device application's OTA events. */
export interface UpdateView extends ScreenBase {
  screen: 'update';
  kind: UpdateKind;
  /** `Firmware` or `Model` */
  package: string;
  version: string;
  forced: boolean;
  phase: UpdatePhase;
  /** `Update available v1.1.0 (needs consent)`; `Installing update v1.1.0` (forced, or accepted); `Update v1.1.0 not installed` */
  headline: string;
  /** The release notes as plain text. */
  notes: string;
  /** While downloading (kept, full, once downloaded). */
  progress: UpdateProgress | null;
  /** What happens now, e.g. `Downloading…`, `Checking the download…`, `Restarting…`. */
  status: string;
  /** A failure in plain words. */
  error: string | null;
}

/** How long the screen says `Restarting…` when the reboot did not happen (simulator). */
export const RESTART_NOTICE_MS = 5000;

const ONE_DECIMAL = { minimumFractionDigits: 1, maximumFractionDigits: 1 } as const;

/** A size in bytes, KiB, MiB or GiB (rounded down), with the language's digits and unit symbols. */
export function formatBytes(n: number, tr: Translator = translator('en')): string {
  if (n < 1024) return tr.t('unit.bytes', { n });
  if (n < 1024 * 1024) return tr.t('unit.kibibytes', { n: Math.floor(n / 1024) });
  if (n < 1024 * 1024 * 1024)
    return tr.t('unit.mebibytes', { n: tr.number(Math.floor((n * 10) / (1024 * 1024)) / 10, ONE_DECIMAL) });
  return tr.t('unit.gibibytes', {
    n: tr.number(Math.floor((n * 10) / (1024 * 1024 * 1024)) / 10, ONE_DECIMAL),
  });
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** Release notes arrive as HTML; the screen shows text. */
export function plainNotes(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, e: string) => ENTITIES[e] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * An OTA failure code → what the user reads (the technical detail, if any, stays in English). A
 * refused package (MD5, image hash, signature, the device's policy, a malformed package) says why;
 * it is remembered and not downloaded again until the cloud offers another package.
 */
export function describeOtaFailure(code: string, stage: 'download' | 'install', detail: string): Message {
  switch (OTA_REFUSALS[code as OtaErrorCode]) {
    case 'md5':
      return message('update.error.md5');
    case 'hash':
      return message('update.error.hash');
    case 'signature':
      return message('update.error.signature');
    case 'policy':
      return message('update.error.policy');
    case 'package':
      return message('update.error.package');
    default:
  }
  switch (code) {
    case 'OTA_BATTERY_LOW':
      return message('update.error.battery');
    case 'OTA_NO_SPACE':
      return message('update.error.space');
    case 'OTA_INSTALL_FAILED':
    case 'OTA_COMMAND_FAILED':
      return message('update.error.install');
    case 'OTA_REBOOT_FAILED':
      return message('update.error.reboot');
    default:
      return stage === 'download'
        ? message('update.error.download', { detail })
        : message('update.error.other', { detail });
  }
}

interface Progress {
  percent: number | null;
  received: number;
  total: number | null;
}

/** `128 KiB of 256 KiB`, or the received size alone while the total is unknown. */
function shownBytes(p: Progress, tr: Translator = translator('en')): string {
  return p.total === null
    ? formatBytes(p.received, tr)
    : tr.t('update.bytesOf', { received: formatBytes(p.received, tr), total: formatBytes(p.total, tr) });
}

interface Current {
  kind: UpdateKind;
  version: string;
  forced: boolean;
  notes: string;
  phase: UpdatePhase;
  progress: Progress | null;
  /** The user's answer, given early (while downloading) or when asked. */
  decision: 'install' | 'later' | null;
  error: Message | null;
}

export interface UpdateModelOptions {
  /** Runs the restart notice's timer (default `systemClock`); tests pass a manual clock. */
  clock?: Clock;
  /** Called whenever the update view changes. */
  onChange: () => void;
}

/**
 * The update part of the screens: follows OTA events, answers the device application's consent
 * hook with the user's choice (forced updates never ask), and says when something changed.
 */
export function createUpdateModel(options: UpdateModelOptions) {
  const clock = options.clock ?? systemClock;
  const changed = options.onChange;
  let current: Current | null = null;
  let hidden = false;
  let pending: { kind: UpdateKind; version: string; resolve: (ok: boolean) => void } | null = null;
  let cancelRestart: (() => void) | null = null;

  function clear(): void {
    current = null;
    hidden = false;
    cancelRestart?.();
    cancelRestart = null;
  }

  function answer(ok: boolean): void {
    const p = pending;
    pending = null;
    p?.resolve(ok);
  }

  function begin(kind: UpdateKind, version: string, forced: boolean, notes: string): Current {
    if (pending) answer(false);
    clear();
    current = {
      kind,
      version,
      forced,
      notes: plainNotes(notes),
      phase: 'available',
      progress: null,
      decision: null,
      error: null,
    };
    return current;
  }

  function same(kind: UpdateKind, version?: string): Current | null {
    if (!current || current.kind !== kind) return null;
    if (version !== undefined && current.version !== version) return null;
    return current;
  }

  function onEvent(e: OtaEvent): void {
    switch (e.type) {
      case 'available':
        begin(e.kind, e.version, e.forced, e.notes);
        break;
      case 'progress': {
        const c = same(e.kind);
        if (!c) return;
        const percent = e.percent === undefined ? null : Math.min(100, Math.floor(e.percent));
        const before = c.progress;
        c.progress = { percent, received: e.received, total: e.total ?? null };
        const wasPhase = c.phase;
        if (c.phase === 'available') c.phase = 'downloading';
        // Put away with Later: the download goes on out of sight.
        if (hidden) return;
        // Progress comes every 100 ms: redraw only when what the screen shows changes.
        if (
          wasPhase === c.phase &&
          before &&
          before.percent === percent &&
          shownBytes(before) === shownBytes(c.progress)
        )
          return;
        break;
      }
      case 'downloaded': {
        const c = same(e.kind);
        if (!c) return;
        c.phase = 'verifying';
        if (c.progress) c.progress = { ...c.progress, percent: c.progress.total === null ? null : 100 };
        break;
      }
      case 'consent-required': {
        const c = same(e.kind, e.version) ?? begin(e.kind, e.version, false, e.notes);
        if (c.decision === null) c.phase = 'consent';
        break;
      }
      case 'step': {
        const c = same(e.kind);
        if (!c) return;
        if (e.step === 'verified') {
          // Forced, or already accepted: straight on; otherwise the consent hook is next.
          if (c.forced || c.decision === 'install') c.phase = 'installing';
        } else if (e.step === 'consented' || e.step === 'battery-ok') c.phase = 'installing';
        else c.phase = 'restarting';
        break;
      }
      case 'installed': {
        const c = same(e.kind, e.version);
        if (!c) return;
        c.phase = 'restarting';
        // A real device is gone by now; where the reboot is simulated the screen closes itself.
        cancelRestart?.();
        const restart = clock.setTimeout(() => {
          if (current === c) {
            clear();
            changed();
          }
        }, RESTART_NOTICE_MS);
        cancelRestart = () => clock.clearTimeout(restart);
        break;
      }
      case 'failed': {
        const c = same(e.kind);
        if (!c) return;
        if (e.code === 'OTA_CONSENT_DECLINED' || e.code === 'OTA_ABORTED') {
          // The user said Later, or the device is shutting down: nothing to report on the screen.
          clear();
          break;
        }
        c.phase = 'failed';
        c.error = describeOtaFailure(e.code, e.stage, e.message);
        if (hidden) {
          // The user sent the update away with Later; a failure of it does not come back.
          clear();
        }
        break;
      }
      default:
        // checking, up-to-date, check-failed: the device works on without the update screen.
        return;
    }
    changed();
  }

  /** The consent hook of the device application (`ota.consent`). */
  function consent(info: { kind: UpdateKind; version: string; notes: string }): Promise<boolean> {
    const c = same(info.kind, info.version) ?? begin(info.kind, info.version, false, info.notes);
    if (c.decision !== null) {
      const ok = c.decision === 'install';
      if (ok) c.phase = 'installing';
      changed();
      return Promise.resolve(ok);
    }
    if (pending) answer(false);
    c.phase = 'consent';
    hidden = false;
    changed();
    return new Promise<boolean>((resolve) => {
      pending = { kind: info.kind, version: info.version, resolve };
    });
  }

  function actions(c: Current): UpdateAction[] {
    if (c.phase === 'failed') return ['ok'];
    if (c.forced || c.decision !== null) return [];
    if (
      c.phase === 'available' ||
      c.phase === 'downloading' ||
      c.phase === 'verifying' ||
      c.phase === 'consent'
    )
      return ['install', 'later'];
    return [];
  }

  function status(c: Current, tr: Translator, percent: string | null): string {
    switch (c.phase) {
      case 'available':
        return c.forced ? tr.t('update.status.forced') : tr.t('update.status.starting');
      case 'downloading':
        return percent !== null
          ? tr.t('update.status.downloadingPercent', { percent })
          : tr.t('update.status.downloading');
      case 'verifying':
        return tr.t('update.status.verifying');
      case 'consent':
        return tr.t('update.status.consent');
      case 'installing':
        return tr.t('update.status.installing');
      case 'restarting':
        return tr.t('update.status.restarting');
      case 'failed':
        return tr.t('update.status.failed');
    }
  }

  function progressView(p: Progress, tr: Translator): UpdateProgress {
    return {
      ...p,
      percentText: p.percent === null ? null : tr.number(p.percent / 100, { style: 'percent' }),
      bytes: shownBytes(p, tr),
    };
  }

  function view(tr: Translator): UpdateView | null {
    const c = current;
    if (!c || hidden) return null;
    const installing =
      c.forced || c.decision === 'install' || c.phase === 'installing' || c.phase === 'restarting';
    const version = c.version;
    const headline =
      c.phase === 'failed'
        ? tr.t('update.headline.failed', { version })
        : installing
          ? tr.t('update.headline.installing', { version })
          : tr.t('update.headline.available', { version });
    const progress = c.progress ? progressView(c.progress, tr) : null;
    const labels: Record<UpdateAction, string> = {
      install: tr.t('screen.action.install'),
      later: tr.t('screen.action.later'),
      ok: tr.t('screen.action.ok'),
    };
    return {
      screen: 'update',
      lang: tr.lang,
      title: tr.t('update.title'),
      kind: c.kind,
      package: tr.t(c.kind === 'psp_firmware' ? 'update.firmware' : 'update.model'),
      version,
      forced: c.forced,
      phase: c.phase,
      headline,
      notes: c.notes,
      progress,
      status: status(c, tr, progress?.percentText ?? null),
      error: c.error ? tr.text(c.error) : null,
      buttons: actions(c).map((action): ScreenButton => ({ action, label: labels[action] })),
    };
  }

  /** Install, Later or OK; returns false when the button is not on the screen. */
  function press(action: UpdateAction): boolean {
    const c = current;
    if (!c || hidden) return false;
    const offered = actions(c);
    if (action === 'install' && offered.includes('install')) {
      c.decision = 'install';
      if (pending) {
        answer(true);
        c.phase = 'installing';
      }
      return true;
    }
    if (action === 'later' && offered.includes('later')) {
      c.decision = 'later';
      hidden = true;
      answer(false);
      return true;
    }
    if (action === 'ok' && offered.includes('ok')) {
      clear();
      return true;
    }
    return false;
  }

  return {
    onEvent,
    consent,
    view,
    press,
    close() {
      answer(false);
      clear();
    },
  };
}
