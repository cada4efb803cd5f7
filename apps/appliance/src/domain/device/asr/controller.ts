import type { CloudClient } from '@waved/psp-cloud';
import type { Logger } from '../../../core/log/logger.js';
import { AUDIO_FORMAT, type TranscriptionMode } from '../constants.js';
import { DeviceError } from '../errors.js';
import type { DeviceTelemetry } from '../telemetry.js';

/** What `OpenAsrFeature` takes: where the engine reads audio from, and its format. */
export interface AudioServerInfo {
  host: string;
  port: number;
  sampleRate: number;
  channels: number;
  format: 'S16_LE';
  /** The meeting the transcription belongs to (cloud notices carry it). */
  meetingId?: string | undefined;
}

/** `SwitchAsrType`: on-device (offline) or cloud (online) recognition. */
export type AsrType = 'online' | 'offline';

/** `RegisterAsrInfoNotify` payload. */
export interface AsrInfo {
  state: 'opened' | 'paused' | 'restarted' | 'closed' | 'switched' | 'error';
  type: AsrType;
  onlyTrans: boolean;
  language: string;
  message?: string;
}

/** `RegisterAsrOnlineSubtitleNotify` payload: a partial or final line of subtitles. */
export interface AsrSubtitle {
  seq: number;
  text: string;
  final: boolean;
  startMs: number;
  endMs: number;
  language: string;
}

export interface AsrEngineListener {
  info(info: Omit<AsrInfo, 'type' | 'onlyTrans' | 'language'> & Partial<AsrInfo>): void;
  subtitle(subtitle: AsrSubtitle): void;
}

export interface AsrEngineConfig {
  type: AsrType;
  onlyTrans: boolean;
  language: string;
}

/**
 * The engine port: the vendor ASR library on a device, `createSimAsrEngine` in the simulator.
 * Calls are made only in the states the controller allows.
 */
export interface AsrEngine {
  open(info: AudioServerInfo, config: AsrEngineConfig, listener: AsrEngineListener): Promise<void>;
  close(): Promise<void>;
  pause(): Promise<void>;
  restart(): Promise<void>;
  switchType(type: AsrType, language: string): Promise<void>;
  setOnlyTrans(onlyTrans: boolean): Promise<void>;
  /** PCM in AUDIO_FORMAT while open and not paused. */
  feed(pcm: Uint8Array): void;
}

export type AsrState = 'closed' | 'running' | 'paused';

export interface AsrControllerOptions {
  engine: AsrEngine;
  telemetry: Pick<DeviceTelemetry, 'track'>;
  /** Cloud meeting notices during transcription (absent: none are sent). */
  client?: Pick<CloudClient, 'sendAsrNotice' | 'syncWords' | 'sendDotNotice'>;
  logger: Logger;
  language?: string;
  type?: AsrType;
}

export interface AsrController {
  readonly state: AsrState;
  readonly mode: TranscriptionMode;
  readonly language: string;
  readonly type: AsrType;
  openAsrFeature(info: AudioServerInfo): Promise<void>;
  closeAsrFeature(): Promise<void>;
  pauseAsrFeature(): Promise<void>;
  restartAsrFeature(): Promise<void>;
  switchAsrType(type: AsrType, language?: string): Promise<void>;
  setAsrOnlyTrans(onlyTrans: boolean): Promise<void>;
  registerAsrInfoNotify(listener: (info: AsrInfo) => void): () => void;
  registerAsrOnlineSubtitleNotify(listener: (subtitle: AsrSubtitle) => void): () => void;
  /** Transcription mode 0/1/2 (telemetry `transcription_mode_set`); 1 sets only-transcribe. */
  setTranscriptionMode(mode: TranscriptionMode): Promise<void>;
  /** Telemetry `transcription_language_set`. */
  setTranscriptionLanguage(language: string): Promise<void>;
  feed(pcm: Uint8Array): void;
  /** A bookmark during transcription: a cloud dot notice. */
  dot(atMs: number): void;
  /** Resolves when every cloud notice sent so far has been answered or has failed. */
  settled(): Promise<void>;
}

/** Default audio server info: the device's local capture at AUDIO_FORMAT. */
export function localAudioServerInfo(meetingId?: string): AudioServerInfo {
  return {
    host: '127.0.0.1',
    port: 0,
    sampleRate: AUDIO_FORMAT.sampleRate,
    channels: AUDIO_FORMAT.channels,
    format: 'S16_LE',
    meetingId: meetingId || undefined,
  };
}

/**
 * The ASR feature API as a typed controller: state checks, the two
 * notify registrations, transcription mode and language telemetry, and the cloud meeting notices
 * (`cloud_meeting_asr_notice` on open/pause/restart/close, `cloud_meeting_sync_words` for every
 * final subtitle line, `cloud_meeting_dot_notice` for bookmarks) while a meeting is transcribed.
 */
export function createAsrController(options: AsrControllerOptions): AsrController {
  const { engine, telemetry, client, logger } = options;
  let state: AsrState = 'closed';
  let mode: TranscriptionMode = 0;
  let language = options.language ?? 'en';
  let type: AsrType = options.type ?? 'online';
  let meetingId: string | undefined;
  const infoListeners = new Set<(info: AsrInfo) => void>();
  const subtitleListeners = new Set<(subtitle: AsrSubtitle) => void>();
  let notices: Promise<void> = Promise.resolve();

  const notice = (what: string, send: () => Promise<void>) => {
    if (!client || !meetingId) return;
    notices = notices
      .then(send)
      .catch((error) => logger.warn?.(`asr: ${what} not sent: ${(error as Error).message}`));
  };
  const info = (partial: Partial<AsrInfo> & Pick<AsrInfo, 'state'>) => {
    const full: AsrInfo = { type, onlyTrans: mode === 1, language, ...partial };
    for (const l of infoListeners) l(full);
  };
  const listener: AsrEngineListener = {
    info: (i) => info(i),
    subtitle: (s) => {
      for (const l of subtitleListeners) l(s);
      if (s.final) {
        const id = meetingId;
        notice('sync words', () =>
          (client as NonNullable<typeof client>).syncWords({
            meeting_id: id as string,
            seq: s.seq,
            language: s.language,
            words: [{ text: s.text, start_ms: s.startMs, end_ms: s.endMs }],
          }),
        );
      }
    },
  };
  const need = (op: string, ...allowed: AsrState[]) => {
    if (!allowed.includes(state))
      throw new DeviceError('DEVICE_ASR_STATE', `cannot ${op} while ASR is ${state}`);
  };
  const engineCall = async (op: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (error) {
      info({ state: 'error', message: (error as Error).message });
      throw new DeviceError('DEVICE_ASR_ENGINE', `ASR engine ${op} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  };
  const asrNotice = (status: string) => {
    const id = meetingId;
    notice(`asr notice ${status}`, () =>
      (client as NonNullable<typeof client>).sendAsrNotice({
        meeting_id: id as string,
        status,
        type,
        mode,
        language,
      }),
    );
  };

  return {
    get state() {
      return state;
    },
    get mode() {
      return mode;
    },
    get language() {
      return language;
    },
    get type() {
      return type;
    },
    async openAsrFeature(server) {
      need('open', 'closed');
      if (server.format !== 'S16_LE' || server.sampleRate <= 0 || server.channels <= 0) {
        throw new DeviceError(
          'DEVICE_OPTIONS',
          'audio server info must describe S16_LE audio with a rate and channels',
        );
      }
      await engineCall('open', () =>
        engine.open(server, { type, onlyTrans: mode === 1, language }, listener),
      );
      state = 'running';
      meetingId = server.meetingId;
      info({ state: 'opened' });
      asrNotice('started');
    },
    async closeAsrFeature() {
      need('close', 'running', 'paused');
      await engineCall('close', () => engine.close());
      state = 'closed';
      info({ state: 'closed' });
      asrNotice('stopped');
      meetingId = undefined;
    },
    async pauseAsrFeature() {
      need('pause', 'running');
      await engineCall('pause', () => engine.pause());
      state = 'paused';
      info({ state: 'paused' });
      asrNotice('paused');
    },
    async restartAsrFeature() {
      need('restart', 'paused', 'running');
      await engineCall('restart', () => engine.restart());
      state = 'running';
      info({ state: 'restarted' });
      asrNotice('resumed');
    },
    async switchAsrType(next, nextLanguage) {
      if (next !== 'online' && next !== 'offline')
        throw new DeviceError('DEVICE_OPTIONS', `unknown ASR type ${String(next)}`);
      const lang = nextLanguage ?? language;
      if (state !== 'closed') await engineCall('switch type', () => engine.switchType(next, lang));
      type = next;
      if (lang !== language) {
        language = lang;
        await telemetry.track('transcription_language_set', { language });
      }
      info({ state: 'switched' });
    },
    async setAsrOnlyTrans(onlyTrans) {
      await this.setTranscriptionMode(onlyTrans ? 1 : 0);
    },
    registerAsrInfoNotify(l) {
      infoListeners.add(l);
      return () => infoListeners.delete(l);
    },
    registerAsrOnlineSubtitleNotify(l) {
      subtitleListeners.add(l);
      return () => subtitleListeners.delete(l);
    },
    async setTranscriptionMode(next) {
      if (next !== 0 && next !== 1 && next !== 2) {
        throw new DeviceError('DEVICE_OPTIONS', `transcription mode must be 0, 1 or 2, got ${String(next)}`);
      }
      if ((next === 1) !== (mode === 1) && state !== 'closed') {
        await engineCall('set only-trans', () => engine.setOnlyTrans(next === 1));
      }
      if (next === mode) return;
      mode = next;
      await telemetry.track('transcription_mode_set', { mode_option: mode });
    },
    async setTranscriptionLanguage(next) {
      if (!/^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$/.test(next)) {
        throw new DeviceError('DEVICE_OPTIONS', `not a language code: ${JSON.stringify(next.slice(0, 20))}`);
      }
      if (next === language) return;
      if (state !== 'closed') await engineCall('switch language', () => engine.switchType(type, next));
      language = next;
      await telemetry.track('transcription_language_set', { language });
    },
    feed(pcm) {
      if (state === 'running') engine.feed(pcm);
    },
    dot(atMs) {
      if (state === 'closed') return;
      const id = meetingId;
      notice('dot notice', () =>
        (client as NonNullable<typeof client>).sendDotNotice({ meeting_id: id as string, at_ms: atMs }),
      );
    },
    async settled() {
      let last: Promise<void>;
      do {
        last = notices;
        await last;
      } while (last !== notices);
    },
  };
}
