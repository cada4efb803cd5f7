import { isValidPin, PIN_MAX_DIGITS, PIN_MIN_DIGITS } from '@waved/psk';
import { type Message, message } from '../../i18n/index.js';
import { type WebhookHttp, webhookUrlProblem } from '../webhook.js';
import {
  FIELDS,
  type FieldSpec,
  LANGUAGES,
  NAME_MAX,
  NTP_MAX_SERVERS,
  SECRET_MAX,
  SECRET_MIN,
  type Settings,
  URL_MAX,
} from './schema.js';

const englishRegions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** Region codes that name something other than a country (EU, UN, private use, ...). */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'QO', 'UN', 'XA', 'XB', 'ZZ', 'AC', 'CP', 'DG', 'EA', 'IC', 'TA']);

const countryCache = new Map<string, ReadonlyArray<readonly [string, string]>>();

/**
 * ISO 3166-1 alpha-2 codes with their names in `lang` (English by default), sorted by name in that
 * language, from the ICU data in Node (Intl.DisplayNames, Intl.Collator).
 */
export function countries(lang = 'en'): ReadonlyArray<readonly [code: string, name: string]> {
  let list = countryCache.get(lang);
  if (!list) {
    const names = new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' });
    const found: Array<[string, string]> = [];
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        // The set of codes is the same in every language: English decides which codes are countries.
        if (NOT_COUNTRIES.has(code) || !englishRegions.of(code)) continue;
        found.push([code, names.of(code) ?? code]);
      }
    }
    const collator = new Intl.Collator(lang);
    found.sort((x, y) => collator.compare(x[1], y[1]));
    list = found;
    countryCache.set(lang, list);
  }
  return list;
}

export function isCountryCode(value: string): boolean {
  return /^[A-Z]{2}$/.test(value) && countries().some(([code]) => code === value);
}

let zoneCache: readonly string[] | undefined;

/** IANA time zones known to the runtime, plus `UTC`. */
export function timeZones(): readonly string[] {
  zoneCache ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
  return zoneCache;
}

/** RFC 1123 host name (letters, digits, hyphens; labels of 1-63; at most 253) or a dotted-quad IPv4. */
export function isHostName(value: string): boolean {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(value)) return value.split('.').every((o) => Number(o) <= 255);
  if (value.length < 1 || value.length > 253) return false;
  const labels = value.replace(/\.$/, '').split('.');
  if (labels.every((l) => /^\d+$/.test(l))) return false;
  return labels.every((l) => /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l));
}

/**
 * A time server the device may ask: a host name or a public IPv4 address. Loopback, `localhost`,
 * 0.0.0.0/8, link-local, multicast, reserved and broadcast addresses, and the setup network
 * (192.168.2.0/24, where only a phone on the AP lives) are refused.
 */
export function isNtpServer(value: string): boolean {
  if (!isHostName(value)) return false;
  const name = value.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return false;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  if (!m) return true;
  const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (a === 0 || a === 127 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  if (a === 192 && b === 168 && c === 2) return false;
  return true;
}

export function isWebhookUrl(value: string): boolean {
  if (value.length > URL_MAX) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  // No credentials in the URL: `https://user:pw@…` and `https://:pw@…` alike.
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === ''
  );
}

/**
 * Characters a name must not hold: controls, and the format characters that hide or reorder text
 * (direction overrides such as U+202E, zero-width spaces, line and paragraph separators). ZWJ and
 * ZWNJ stay: emoji and some scripts need them.
 */
const INVISIBLE = /[\p{Cc}\p{Zl}\p{Zp}]|(?![\u200c\u200d])\p{Cf}/u;

const TRUE = new Set(['true', 'on', '1', 'yes']);
const FALSE = new Set(['false', 'off', '0', 'no', '']);

/** What is wrong with each field: a message the portal shows in the reader's language. */
export type ValidateResult =
  | {
      ok: true;
      /** The new settings, except a new PIN: see `pin`. */
      settings: Settings;
      /**
       * The digits of a new PIN, not yet hashed: the caller hashes them (asynchronously, after
       * every other check passed) into `settings.security.device_password`.
       */
      pin?: string | undefined;
      /** Secrets this input removed as a consequence (`webhook.secret` when the URL changed). */
      cleared: string[];
    }
  | { ok: false; errors: Record<string, Message> };

export interface ValidateOptions {
  /** Plain-http webhook URLs the device maker allows (default `never`: https only). */
  webhookHttp?: WebhookHttp;
  /** Reading config.toml field by field: no rule that ties one field to another applies. */
  fromFile?: boolean;
}

/**
 * Validates form input (`<group>.<field>` → string) against the schema, on top of `current`.
 * A field that is absent keeps its current value; an empty write-only field (a secret, the PIN,
 * the webhook URL, which the form never shows whole) keeps the stored value, and `<field>_clear`
 * set to a true value removes it. A new webhook URL without a new secret removes the stored
 * secret: a secret is never kept for an address its owner did not enter it for. Keys that name no
 * setting are ignored (the portal reads its Wi-Fi connect fields itself). Messages say what to
 * change and never quote a secret.
 */
export function validateSettings(
  current: Settings,
  input: Record<string, string>,
  options: ValidateOptions = {},
): ValidateResult {
  const next = structuredClone(current);
  const errors: Record<string, Message> = {};
  let pin: string | undefined;
  for (const spec of FIELDS) {
    const key = `${spec.group}.${spec.field}`;
    const raw = input[key];
    const clear = TRUE.has((input[`${key}_clear`] ?? '').toLowerCase());
    if (raw === undefined && !clear) continue;
    const result = validateField(spec, (raw ?? '').trim(), raw ?? '', clear, options);
    if ('error' in result) errors[key] = result.error;
    else if ('pin' in result) pin = result.pin;
    else if (result.set) (next[spec.group] as Record<string, unknown>)[spec.field] = result.value;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const cleared: string[] = [];
  if (
    !options.fromFile &&
    next.webhook.url !== current.webhook.url &&
    next.webhook.secret !== '' &&
    (input['webhook.secret'] ?? '') === ''
  ) {
    next.webhook.secret = '';
    cleared.push('webhook.secret');
  }
  return { ok: true, settings: next, pin, cleared };
}

type FieldResult = { error: Message } | { set: true; value: unknown } | { set: false } | { pin: string };

function validateField(
  spec: FieldSpec,
  value: string,
  rawValue: string,
  clear: boolean,
  options: ValidateOptions,
): FieldResult {
  const key = `${spec.group}.${spec.field}`;
  switch (key) {
    case 'device.name':
      if (value === '') return { error: message('error.device.name.empty') };
      if ([...value].length > NAME_MAX)
        return { error: message('error.device.name.long', { max: NAME_MAX }) };
      if (INVISIBLE.test(value)) return { error: message('error.device.name.chars') };
      return { set: true, value };
    case 'device.country':
      if (value === '') return { set: true, value: '' };
      if (!isCountryCode(value.toUpperCase())) return { error: message('error.country') };
      return { set: true, value: value.toUpperCase() };
    case 'wifi.country':
      if (value === '00') return { set: true, value };
      if (!isCountryCode(value.toUpperCase())) return { error: message('error.wifi.country') };
      return { set: true, value: value.toUpperCase() };
    case 'device.timezone':
      if (!timeZones().includes(value)) return { error: message('error.timezone') };
      return { set: true, value };
    case 'device.language':
      if (!LANGUAGES.some(([tag]) => tag === value)) return { error: message('error.language') };
      return { set: true, value };
    case 'webhook.url': {
      // The form never shows the whole URL (its path can be a credential): empty keeps it.
      if (value === '') return clear || options.fromFile ? { set: true, value: '' } : { set: false };
      if (!isWebhookUrl(value)) return { error: message('error.webhook.url') };
      const problem = webhookUrlProblem(value, options.webhookHttp);
      if (problem === 'http-not-allowed') return { error: message('error.webhook.http') };
      if (problem) return { error: message('error.webhook.url') };
      return { set: true, value: new URL(value).href };
    }
    case 'webhook.secret':
      if (rawValue === '') return clear ? { set: true, value: '' } : { set: false };
      if (rawValue.length < SECRET_MIN || rawValue.length > SECRET_MAX || !/^[\x21-\x7e]+$/.test(rawValue))
        return { error: message('error.webhook.secret', { min: SECRET_MIN, max: SECRET_MAX }) };
      return { set: true, value: rawValue };
    case 'security.device_password':
      if (value === '') return clear ? { set: true, value: '' } : { set: false };
      if (!isValidPin(value))
        return { error: message('error.pin', { min: PIN_MIN_DIGITS, max: PIN_MAX_DIGITS }) };
      return { pin: value };
    case 'ntp.servers': {
      const servers = value.split(/[\s,]+/).filter((s) => s !== '');
      if (servers.length === 0) return { error: message('error.ntp.none') };
      if (servers.length > NTP_MAX_SERVERS)
        return { error: message('error.ntp.many', { max: NTP_MAX_SERVERS }) };
      const bad = servers.find((s) => !isNtpServer(s));
      if (bad !== undefined) {
        const name = bad.slice(0, 64);
        return {
          error: isHostName(bad)
            ? message('error.ntp.reserved', { name })
            : message('error.ntp.host', { name }),
        };
      }
      return { set: true, value: [...new Set(servers.map((s) => s.toLowerCase()))] };
    }
    default:
      break;
  }
  if (spec.kind === 'boolean') {
    const v = value.toLowerCase();
    if (TRUE.has(v)) return { set: true, value: true };
    if (FALSE.has(v)) return { set: true, value: false };
    return { error: message('error.boolean') };
  }
  if (spec.kind === 'number') {
    const min = spec.min ?? 0;
    const max = spec.max ?? 100;
    if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max)
      return { error: message('error.number', { min, max }) };
    return { set: true, value: Number(value) };
  }
  return { error: message('error.unknown') };
}
