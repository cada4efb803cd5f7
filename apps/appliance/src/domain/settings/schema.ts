/**
 * The typed schema of `config.toml`. One table describes every field: its type, its
 * default, its limits and how the form shows it. Validation, TOML loading, the portal form and
 * docs/settings.md all follow this table.
 */

import { PIN_MAX_DIGITS, PIN_MIN_DIGITS } from '@waved/psk';
import { LOCALES, type Message, type MessageKey, message } from '../../i18n/index.js';

export interface Settings {
  device: {
    /** Shown on the device and in the cloud; 1-32 characters. */
    name: string;
    /** ISO 3166-1 alpha-2; picks the cloud region (CN, US, else EU). '' = not set (EU). */
    country: string;
    /** IANA time zone, e.g. `Europe/Berlin`. */
    timezone: string;
    /** UI language, one of LANGUAGES. */
    language: string;
  };
  audio: {
    /** 0-100 */
    volume: number;
    prompt_tones: boolean;
  };
  webhook: {
    /** https URL (http only where the device maker allows it); '' = no webhook. Write-only on the form. */
    url: string;
    /** Shared secret that signs each request (never sent); write-only on the form; '' = none. */
    secret: string;
  };
  storage: {
    auto_upload: boolean;
    /** 50-95 */
    max_usage_percent: number;
  };
  security: {
    /** A `pin1$…` record or '' (no PIN). Never the digits. */
    device_password: string;
  };
  ntp: {
    enabled: boolean;
    /** Host names or IPv4 addresses, 1-8 entries. */
    servers: string[];
  };
  wifi: {
    /** Regulatory domain: ISO 3166-1 alpha-2, or `00` (world). */
    country: string;
  };
}

export type SettingsGroup = keyof Settings;

export const DEFAULT_SETTINGS: Settings = {
  device: { name: 'waved', country: '', timezone: 'UTC', language: 'en' },
  audio: { volume: 60, prompt_tones: true },
  webhook: { url: '', secret: '' },
  storage: { auto_upload: true, max_usage_percent: 90 },
  security: { device_password: '' },
  ntp: { enabled: true, servers: ['pool.ntp.org'] },
  wifi: { country: '00' },
};

export function defaultSettings(): Settings {
  return structuredClone(DEFAULT_SETTINGS);
}

/**
 * UI languages the device has texts for (BCP 47 tag and the language's own name): exactly the
 * languages with a message catalog, so every one offered is complete.
 */
export const LANGUAGES: ReadonlyArray<readonly [tag: string, name: string]> = LOCALES.map(
  (l) => [l.tag, l.name] as const,
);

export const VOLUME_MIN = 0;
export const VOLUME_MAX = 100;
export const STORAGE_MIN_PERCENT = 50;
export const STORAGE_MAX_PERCENT = 95;
export const NAME_MAX = 32;
export const URL_MAX = 2048;
export const SECRET_MIN = 16;
export const SECRET_MAX = 256;
export const NTP_MAX_SERVERS = 8;

export type FieldKind = 'text' | 'select' | 'number' | 'boolean' | 'url' | 'secret' | 'pin' | 'hosts';

export interface FieldSpec {
  group: SettingsGroup;
  field: string;
  kind: FieldKind;
  /** The label's message (`field.<group>.<field>`); the catalogs hold the texts. */
  label: MessageKey;
  /** One line under the input. */
  hint?: Message;
  min?: number;
  max?: number;
}

/** Every settings field, in form order (the Wi-Fi network choice is the portal's, not a setting). */
export const FIELDS: readonly FieldSpec[] = [
  {
    group: 'wifi',
    field: 'country',
    kind: 'select',
    label: 'field.wifi.country',
    hint: message('field.wifi.country.hint'),
  },
  {
    group: 'device',
    field: 'name',
    kind: 'text',
    label: 'field.device.name',
    hint: message('field.device.name.hint', { max: NAME_MAX }),
  },
  {
    group: 'device',
    field: 'country',
    kind: 'select',
    label: 'field.device.country',
    hint: message('field.device.country.hint'),
  },
  { group: 'device', field: 'timezone', kind: 'select', label: 'field.device.timezone' },
  { group: 'device', field: 'language', kind: 'select', label: 'field.device.language' },
  {
    group: 'audio',
    field: 'volume',
    kind: 'number',
    label: 'field.audio.volume',
    hint: message('field.audio.volume.hint', { min: VOLUME_MIN, max: VOLUME_MAX }),
    min: VOLUME_MIN,
    max: VOLUME_MAX,
  },
  { group: 'audio', field: 'prompt_tones', kind: 'boolean', label: 'field.audio.prompt_tones' },
  {
    group: 'webhook',
    field: 'url',
    kind: 'url',
    label: 'field.webhook.url',
    hint: message('field.webhook.url.hint'),
  },
  {
    group: 'webhook',
    field: 'secret',
    kind: 'secret',
    label: 'field.webhook.secret',
    hint: message('field.webhook.secret.hint', { min: SECRET_MIN, max: SECRET_MAX }),
    min: SECRET_MIN,
    max: SECRET_MAX,
  },
  { group: 'storage', field: 'auto_upload', kind: 'boolean', label: 'field.storage.auto_upload' },
  {
    group: 'storage',
    field: 'max_usage_percent',
    kind: 'number',
    label: 'field.storage.max_usage_percent',
    hint: message('field.storage.max_usage_percent.hint', {
      min: STORAGE_MIN_PERCENT,
      max: STORAGE_MAX_PERCENT,
    }),
    min: STORAGE_MIN_PERCENT,
    max: STORAGE_MAX_PERCENT,
  },
  {
    group: 'security',
    field: 'device_password',
    kind: 'pin',
    label: 'field.security.device_password',
    hint: message('field.security.device_password.hint', { min: PIN_MIN_DIGITS, max: PIN_MAX_DIGITS }),
  },
  { group: 'ntp', field: 'enabled', kind: 'boolean', label: 'field.ntp.enabled' },
  {
    group: 'ntp',
    field: 'servers',
    kind: 'hosts',
    label: 'field.ntp.servers',
    hint: message('field.ntp.servers.hint', { max: NTP_MAX_SERVERS }),
  },
];

/** The title of each group's section on the form (`group.<group>`). */
export const GROUP_TITLES = {
  wifi: 'group.wifi',
  device: 'group.device',
  audio: 'group.audio',
  webhook: 'group.webhook',
  storage: 'group.storage',
  security: 'group.security',
  ntp: 'group.ntp',
} as const satisfies Record<SettingsGroup, MessageKey>;

/** `<group>.<field>` names of the write-only fields. */
export const SECRET_FIELDS: readonly string[] = ['webhook.secret', 'security.device_password'];
