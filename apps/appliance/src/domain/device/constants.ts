/** The vendor application's hard-coded constants, in one place. */
export const CLIENT_VERSION = 'PSP_0.3.19';
export const USER_AGENT = 'PSP_DEVICE';
export const ANALYTICS_APP_ID = '10000022';
export const PID_FILE = '/tmp/pspapp.pid';
export const POWER_ON_FLAG_FILE = '/tmp/power_on_report.txt';
export const PHONE_BOOK_PATH = '/tmp/PHONE_BOOK.bin';
export const ANALYTICS_DB_DIR = '/data/common_settings/finder/finder_sdk_dir';
export const APP_STATION_CONFIG_PATH = '/tmp/wpa_supplicant.conf';
export const FALLBACK_REGION = 'EU';
export const CRASH_REASON = 'pspapp crash';
/** The device serial lives in key-store slot 0, the factory secret in database entry 0xe7. */
export const SERIAL_SLOT = 0;
export const FACTORY_SECRET_ENTRY = 0xe7;
/** `/mnt/udisk/misc/data/<system_dir>/software.swu` */
export function firmwarePackagePath(systemDir: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(systemDir) || systemDir === '.' || systemDir === '..') {
    throw new Error(`system_dir must be a single path segment, got ${JSON.stringify(systemDir)}`);
  }
  return `/mnt/udisk/misc/data/${systemDir}/software.swu`;
}
/** Transcription mode values reported by telemetry. */
export const TRANSCRIPTION_MODES = { record_transcribe: 0, only_transcribe: 1, other_transcribe: 2 } as const;
export type TranscriptionModeName = keyof typeof TRANSCRIPTION_MODES;
/** 0 record and transcribe, 1 transcribe only (no audio file is kept), 2 other (translation). */
export type TranscriptionMode = (typeof TRANSCRIPTION_MODES)[TranscriptionModeName];

/** Audio format of meeting recordings and of the ASR feed: `arecord -t raw -f S16_LE -r 16000 -c 1`. */
export const AUDIO_FORMAT = { sampleRate: 16_000, channels: 1, bitsPerSample: 16 } as const;
/** Bytes of one second of audio in AUDIO_FORMAT. */
export const AUDIO_BYTES_PER_SECOND =
  AUDIO_FORMAT.sampleRate * AUDIO_FORMAT.channels * (AUDIO_FORMAT.bitsPerSample / 8);

/**
 * `power_off_type` of `device_power_off` (spec Events B gives the field, not its values):
 * `shutdown` SIGTERM (systemd stopping the service or the machine), `user` SIGINT or the
 * simulator's quit key, `ota_reboot` the reboot after an installed update.
 */
export const POWER_OFF_TYPES = ['shutdown', 'user', 'ota_reboot'] as const;
export type PowerOffType = (typeof POWER_OFF_TYPES)[number];
