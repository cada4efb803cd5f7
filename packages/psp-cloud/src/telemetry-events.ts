// The telemetry event catalog as typed definitions with their extra fields.
import type { TranscriptionMode } from './constants.js';
import { CloudError } from './errors.js';

type FieldType = 'string' | 'number' | 'boolean';
/** `?` suffix marks an optional field. */
type FieldSpec = Record<string, FieldType | `${FieldType}?`>;

const none = {} as const;
const fileDetails = { file_name: 'string', file_size: 'number?', duration_s: 'number?' } as const;
const chargingDetails = { battery: 'number?', duration_s: 'number?' } as const;
const otaDetails = {
  package: 'string',
  version: 'string',
  result: 'string',
  duration_ms: 'number?',
  error: 'string?',
} as const;

/** Every event of the vendor's catalog with the fields of its extra data (this project's names where the vendor says only "details"). */
export const TELEMETRY_EVENTS = {
  device_power_on: { storage_total_mb: 'number', storage_free_mb: 'number' },
  device_power_off: { battery: 'number', power_off_type: 'string' },
  device_network_connect: { ssid: 'string', signal_dbm: 'number?', ipv4: 'string?' },
  device_network_disconnect: none,
  ai_record_start: { record_id: 'string', transcription_mode: 'number?', language: 'string?' },
  ai_record_end: { record_id: 'string?', duration_s: 'number', file_size: 'number' },
  ai_record_pause: none,
  ai_record_mark: { record_id: 'string' },
  firmware_download: otaDetails,
  firmware_install: otaDetails,
  system_crash: { reason: 'string' },
  check_update: none,
  factory_reset: none,
  init_start: { uptime_ms: 'number' },
  init_end: { uptime_ms: 'number', duration_ms: 'number?' },
  privacy_agreement: none,
  join_user_experience: none,
  set_language_region: { language: 'string', region: 'string?' },
  toggle_mic_mute: { state: 'boolean' },
  toggle_speaker_mute: { state: 'boolean' },
  prompt_tone_setting: { enabled: 'boolean', volume: 'number?' },
  call_answer: none,
  call_end: none,
  password_lock_toggle: { state: 'boolean' },
  bluetooth_connect: { connected: 'boolean', device_name: 'string?', profile: 'string?' },
  enter_reverse_charging_page: chargingDetails,
  reverse_charging_start: chargingDetails,
  reverse_charging_end: chargingDetails,
  enter_usb_storage_mode: none,
  mechanical_height_adjust: none,
  transcription_mode_set: { mode_option: 'number' },
  transcription_language_set: { language: 'string' },
  bind_id: none,
  unbind_id: none,
  open_record_file: fileDetails,
  listen_file: fileDetails,
  delete_file: fileDetails,
  upload_cloud_file: none,
  upload_to_cloud_toggle: none,
} as const satisfies Record<string, FieldSpec>;

export type TelemetryEventName = keyof typeof TELEMETRY_EVENTS;

type Base<T extends string> = T extends `${infer B}?` ? B : T;
type TypeOf<T extends string> =
  Base<T> extends 'string' ? string : Base<T> extends 'number' ? number : boolean;
type RequiredKeys<S> = { [K in keyof S]: S[K] extends `${string}?` ? never : K }[keyof S];
type OptionalKeys<S> = { [K in keyof S]: S[K] extends `${string}?` ? K : never }[keyof S];
type Params<S> = { [K in RequiredKeys<S>]: TypeOf<S[K] & string> } & {
  [K in OptionalKeys<S>]?: TypeOf<S[K] & string> | undefined;
};

/** Extra fields of each event, typed from the catalog. */
export type TelemetryParams = {
  [N in TelemetryEventName]: Params<(typeof TELEMETRY_EVENTS)[N]> &
    (N extends 'transcription_mode_set' ? { mode_option: TranscriptionMode } : unknown);
};

/** Fields every event carries. */
export interface TelemetryCommonFields {
  mic_serial_number: string;
  fw_ver: string;
  evt_language: string;
  evt_timezone: string;
  /** Unix time of the event in milliseconds */
  evt_time: number;
}

/** One event as queued and sent. */
export interface TelemetryEvent {
  /** UUID v4, the de-duplication key */
  uuid: string;
  event: TelemetryEventName;
  params: TelemetryCommonFields & Record<string, string | number | boolean>;
}

/** The body of one telemetry POST. */
export interface TelemetryBatch {
  app_id: number;
  /** the device serial */
  user_unique_id: string;
  /** derived from the MAC (`openUdidFromMac`) */
  open_udid: string;
  /** id the analytics service assigned earlier, if any */
  device_id?: string;
  events: TelemetryEvent[];
}

/** The server's answer to a batch. */
export interface TelemetryAck {
  accepted: number;
  duplicates: number;
  /** analytics device id, reported to `onDeviceId` */
  device_id?: string;
}

export function isTelemetryEventName(name: string): name is TelemetryEventName {
  return Object.hasOwn(TELEMETRY_EVENTS, name);
}

/** Checks an event's extra fields against the catalog; throws `CLOUD_TELEMETRY_EVENT`. */
export function validateTelemetryParams(name: string, params: Record<string, unknown>): void {
  if (!isTelemetryEventName(name))
    throw new CloudError('CLOUD_TELEMETRY_EVENT', `unknown telemetry event "${name}"`);
  const spec = TELEMETRY_EVENTS[name] as FieldSpec;
  for (const [field, type] of Object.entries(spec)) {
    const optional = type.endsWith('?');
    const base = optional ? type.slice(0, -1) : type;
    const v = params[field];
    if (v === undefined) {
      if (!optional) throw new CloudError('CLOUD_TELEMETRY_EVENT', `${name}: field ${field} is required`);
      continue;
    }
    if (typeof v !== base || (base === 'number' && !Number.isFinite(v))) {
      throw new CloudError('CLOUD_TELEMETRY_EVENT', `${name}: field ${field} must be a ${base}`);
    }
  }
  for (const field of Object.keys(params)) {
    if (!Object.hasOwn(spec, field)) {
      throw new CloudError('CLOUD_TELEMETRY_EVENT', `${name}: field ${field} is not in the catalog`);
    }
  }
  if (name === 'transcription_mode_set' && ![0, 1, 2].includes(params.mode_option as number)) {
    throw new CloudError('CLOUD_TELEMETRY_EVENT', 'transcription_mode_set: mode_option must be 0, 1 or 2');
  }
}
