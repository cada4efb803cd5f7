import type { UpdateKind } from '@waved/swu-ota';
import type { OtaEvent } from '../device/ota.js';

/** Where an update is, as the Software update screen shows it. */
export type UpdatePhase =
  | 'available'
  | 'downloading'
  | 'verifying'
  | 'consent'
  | 'installing'
  | 'restarting'
  | 'failed';

export type UpdateAction = 'Install' | 'Later' | 'OK';

export interface UpdateProgress {
  /** Whole percent, or null while the server has not told the size. */
  percent: number | null;
  received: number;
  total: number | null;
  /** e.g. `128 KiB of 256 KiB` */
  bytes: string;
}

/** Software update (firmware or model), from the device application's OTA events. */
export interface UpdateView {
  screen: 'update';
  title: 'Software update';
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
  actions: UpdateAction[];
}

/** How long the screen says `Restarting…` when the reboot did not happen (simulator). */
export const RESTART_NOTICE_MS = 5000;

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.floor(n / 1024)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(Math.floor((n * 10) / (1024 * 1024)) / 10).toFixed(1)} MiB`;
  return `${(Math.floor((n * 10) / (1024 * 1024 * 1024)) / 10).toFixed(1)} GiB`;
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

/** An OTA failure code → what the user reads. */
export function describeOtaFailure(code: string, stage: 'download' | 'install', message: string): string {
  switch (code) {
    case 'OTA_MD5_MISMATCH':
      return 'The downloaded update was damaged (MD5 mismatch) and was deleted. It downloads again at the next check.';
    case 'OTA_BATTERY_LOW':
      return 'Battery too low to install the update. Charge the device; the update installs at the next check.';
    case 'OTA_NO_SPACE':
      return 'Not enough storage for the update. Free some space; it downloads again at the next check.';
    case 'OTA_INSTALL_FAILED':
    case 'OTA_COMMAND_FAILED':
      return 'The update could not be installed. The device keeps its current version.';
    case 'OTA_REBOOT_FAILED':
      return 'The update is installed but the device could not restart. Turn it off and on again.';
    default:
      if (code.startsWith('OTA_SWU_') || code.startsWith('OTA_CPIO_') || code === 'OTA_LIBCONFIG_SYNTAX')
        return 'The update package failed its checks and was not installed.';
      return stage === 'download'
        ? `The download stopped (${message}). It resumes at the next check.`
        : `The update was not installed (${message}).`;
  }
}

interface Current {
  kind: UpdateKind;
  version: string;
  forced: boolean;
  notes: string;
  phase: UpdatePhase;
  progress: UpdateProgress | null;
  /** The user's answer, given early (while downloading) or when asked. */
  decision: 'install' | 'later' | null;
  error: string | null;
}

export interface UpdateTimers {
  /** Runs `fn` once after `ms`; returns a cancel function. */
  after(ms: number, fn: () => void): () => void;
}

/**
 * The update part of the screens: follows OTA events, answers the device application's consent
 * hook with the user's choice (forced updates never ask), and says when something changed.
 */
export function createUpdateModel(timers: UpdateTimers, changed: () => void) {
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
        const bytes =
          e.total === undefined
            ? formatBytes(e.received)
            : `${formatBytes(e.received)} of ${formatBytes(e.total)}`;
        const before = c.progress;
        c.progress = { percent, received: e.received, total: e.total ?? null, bytes };
        const wasPhase = c.phase;
        if (c.phase === 'available') c.phase = 'downloading';
        // Put away with Later: the download goes on out of sight.
        if (hidden) return;
        // Progress comes every 100 ms: redraw only when what the screen shows changes.
        if (wasPhase === c.phase && before && before.percent === percent && before.bytes === bytes) return;
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
        cancelRestart = timers.after(RESTART_NOTICE_MS, () => {
          if (current === c) {
            clear();
            changed();
          }
        });
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
    if (c.phase === 'failed') return ['OK'];
    if (c.forced || c.decision !== null) return [];
    if (
      c.phase === 'available' ||
      c.phase === 'downloading' ||
      c.phase === 'verifying' ||
      c.phase === 'consent'
    )
      return ['Install', 'Later'];
    return [];
  }

  function status(c: Current): string {
    switch (c.phase) {
      case 'available':
        return c.forced
          ? 'Required update (forced): it downloads and installs without asking.'
          : 'Starting the download…';
      case 'downloading':
        return c.progress?.percent != null ? `Downloading… ${c.progress.percent}%` : 'Downloading…';
      case 'verifying':
        return 'Checking the download…';
      case 'consent':
        return 'Ready to install. The device restarts when it is done.';
      case 'installing':
        return 'Installing… Do not turn the device off.';
      case 'restarting':
        return 'Restarting…';
      case 'failed':
        return 'The update was not installed.';
    }
  }

  function view(): UpdateView | null {
    const c = current;
    if (!c || hidden) return null;
    const installing =
      c.forced || c.decision === 'install' || c.phase === 'installing' || c.phase === 'restarting';
    const headline =
      c.phase === 'failed'
        ? `Update v${c.version} not installed`
        : installing
          ? `Installing update v${c.version}`
          : `Update available v${c.version} (needs consent)`;
    return {
      screen: 'update',
      title: 'Software update',
      kind: c.kind,
      package: c.kind === 'psp_firmware' ? 'Firmware' : 'Model',
      version: c.version,
      forced: c.forced,
      phase: c.phase,
      headline,
      notes: c.notes,
      progress: c.progress,
      status: status(c),
      error: c.error,
      actions: actions(c),
    };
  }

  /** Install, Later or OK; returns false when the button is not on the screen. */
  function press(action: 'install' | 'later' | 'ok'): boolean {
    const v = view();
    const c = current;
    if (!v || !c) return false;
    if (action === 'install' && v.actions.includes('Install')) {
      c.decision = 'install';
      if (pending) {
        answer(true);
        c.phase = 'installing';
      }
      return true;
    }
    if (action === 'later' && v.actions.includes('Later')) {
      c.decision = 'later';
      hidden = true;
      answer(false);
      return true;
    }
    if (action === 'ok' && v.actions.includes('OK')) {
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
