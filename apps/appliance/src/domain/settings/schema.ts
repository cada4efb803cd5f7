/**
 * The typed schema of `config.toml` (spec A7). One table describes every field: its type, its
 * default, its limits and how the form shows it. Validation, TOML loading, the portal form and
 * docs/settings.md all follow this table.
 */

import { LOCALES } from '../../i18n/index.js';

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
  label: string;
  /** One line under the input. */
  hint?: string;
  min?: number;
  max?: number;
}

/** Every settings field, in form order (the Wi-Fi network choice is the portal's, not a setting). */
export const FIELDS: readonly FieldSpec[] = [
  {
    group: 'wifi',
    field: 'country',
    kind: 'select',
    label: 'Wi-Fi country',
    hint: 'Sets the legal radio channels. “World” is safe everywhere.',
  },
  {
    group: 'device',
    field: 'name',
    kind: 'text',
    label: 'Device name',
    hint: `Up to ${NAME_MAX} characters.`,
  },
  {
    group: 'device',
    field: 'country',
    kind: 'select',
    label: 'Country',
    hint: 'Chooses the cloud region (China, USA, or Europe for all others).',
  },
  { group: 'device', field: 'timezone', kind: 'select', label: 'Time zone' },
  { group: 'device', field: 'language', kind: 'select', label: 'Language' },
  {
    group: 'audio',
    field: 'volume',
    kind: 'number',
    label: 'Volume',
    hint: `${VOLUME_MIN} to ${VOLUME_MAX}.`,
    min: VOLUME_MIN,
    max: VOLUME_MAX,
  },
  { group: 'audio', field: 'prompt_tones', kind: 'boolean', label: 'Play prompt tones' },
  {
    group: 'webhook',
    field: 'url',
    kind: 'url',
    label: 'Webhook URL',
    hint: 'https:// address that receives events, signed with the secret below.',
  },
  {
    group: 'webhook',
    field: 'secret',
    kind: 'secret',
    label: 'Webhook secret',
    hint: `${SECRET_MIN} to ${SECRET_MAX} characters. Requests are signed with it; it is never sent.`,
    min: SECRET_MIN,
    max: SECRET_MAX,
  },
  { group: 'storage', field: 'auto_upload', kind: 'boolean', label: 'Upload recordings automatically' },
  {
    group: 'storage',
    field: 'max_usage_percent',
    kind: 'number',
    label: 'Maximum storage use (%)',
    hint: `${STORAGE_MIN_PERCENT} to ${STORAGE_MAX_PERCENT}. Older uploaded recordings are removed above it.`,
    min: STORAGE_MIN_PERCENT,
    max: STORAGE_MAX_PERCENT,
  },
  {
    group: 'security',
    field: 'device_password',
    kind: 'pin',
    label: 'Device PIN',
    hint: '4 to 6 digits.',
  },
  { group: 'ntp', field: 'enabled', kind: 'boolean', label: 'Set the clock from time servers' },
  {
    group: 'ntp',
    field: 'servers',
    kind: 'hosts',
    label: 'Time servers',
    hint: `Host names or IPv4 addresses, separated by commas or spaces (up to ${NTP_MAX_SERVERS}).`,
  },
];

export const GROUP_TITLES: Record<SettingsGroup, string> = {
  wifi: 'Wi-Fi',
  device: 'Device',
  audio: 'Audio',
  webhook: 'Webhook',
  storage: 'Storage',
  security: 'Security',
  ntp: 'Time (NTP)',
};

/** `<group>.<field>` names of the write-only fields. */
export const SECRET_FIELDS: readonly string[] = ['webhook.secret', 'security.device_password'];
