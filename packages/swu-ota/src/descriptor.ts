import { OtaError } from './errors.js';
import { stripControls } from './text.js';
import { compareVersions } from './version.js';

// The update descriptor (what the cloud offers) and where it is fetched from.

export interface UpdateDescriptor {
  version: string;
  /** http(s) URL of the package. */
  download_url: string;
  /** MD5 of the package, lowercase 32 hex digits. */
  file_md5: string;
  /**
   * Release notes per language code (`en`, `zh`, ...). Control characters are removed from
   * `html_note` (line breaks and tabs are kept), so it can be drawn on a terminal.
   */
  descriptions: Record<string, { html_note: string }>;
  /** Install without asking the user. */
  forced: boolean;
  /** Package size in bytes, when the cloud tells it (not in B1): the download stops beyond it. */
  file_size?: number;
  /** The cloud allows installing this version over a newer one (not in B1; default false). */
  allow_downgrade?: boolean;
}

/** The two update channels, checked in this order. */
export const UPDATE_KINDS = ['psp_firmware', 'psp_model'] as const;
export type UpdateKind = (typeof UPDATE_KINDS)[number];

const MAX_VERSION = 128;
/** Largest descriptor text accepted (release notes in many languages fit easily). */
export const MAX_DESCRIPTOR_BYTES = 1024 * 1024;

function field(name: string, message: string): never {
  throw new OtaError('OTA_DESCRIPTOR_FIELD', `update descriptor: ${name} ${message}`);
}

/** JSON text, bytes or a value; text is decoded as UTF-8 (a leading BOM is dropped) and size-capped. */
function toValue(input: unknown): unknown {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) return input;
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (size > MAX_DESCRIPTOR_BYTES) {
    throw new OtaError(
      'OTA_DESCRIPTOR_JSON',
      `update descriptor is ${size} bytes, more than the ${MAX_DESCRIPTOR_BYTES} accepted`,
    );
  }
  const text = (typeof input === 'string' ? input : Buffer.from(input).toString('utf8')).replace(
    /^\uFEFF/,
    '',
  );
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new OtaError('OTA_DESCRIPTOR_JSON', 'update descriptor is not valid JSON', { cause: error });
  }
}

/**
 * Validates a descriptor given as JSON text, bytes or an already parsed value. `version`,
 * `download_url` and `file_md5` are required; `descriptions` defaults to `{}` and `forced` to
 * false; `file_size` and `allow_downgrade` are read when present; unknown fields are ignored.
 * Throws `OTA_DESCRIPTOR_JSON` or `OTA_DESCRIPTOR_FIELD`. For a check's answer, which may also say
 * "no update", use `parseUpdateResponse`.
 */
export function parseDescriptor(input: unknown): UpdateDescriptor {
  const value = toValue(input);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OtaError('OTA_DESCRIPTOR_JSON', 'update descriptor must be a JSON object');
  }
  const v = value as Record<string, unknown>;

  const version = v.version;
  if (typeof version !== 'string') field('version', 'must be a string');
  const trimmed = version.trim();
  if (trimmed === '' || trimmed.length > MAX_VERSION || stripControls(trimmed) !== trimmed) {
    field('version', `must be 1..${MAX_VERSION} printable characters`);
  }

  const url = v.download_url;
  if (typeof url !== 'string') field('download_url', 'must be a string');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    field('download_url', 'is not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') field('download_url', 'must be http(s)');

  const md5 = v.file_md5;
  if (typeof md5 !== 'string' || !/^[0-9a-fA-F]{32}$/.test(md5)) field('file_md5', 'must be 32 hex digits');

  const descriptions: Record<string, { html_note: string }> = {};
  if (v.descriptions !== undefined && v.descriptions !== null) {
    const d = v.descriptions;
    if (typeof d !== 'object' || Array.isArray(d))
      field('descriptions', 'must be an object keyed by language');
    for (const [lang, entry] of Object.entries(d as Record<string, unknown>)) {
      if (!/^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$/.test(lang)) {
        field(`descriptions[${JSON.stringify(lang.slice(0, 20))}]`, 'is not a language code');
      }
      const note = (entry as { html_note?: unknown } | null)?.html_note;
      if (typeof entry !== 'object' || entry === null || typeof note !== 'string') {
        field(`descriptions.${lang}.html_note`, 'must be a string');
      }
      descriptions[lang] = { html_note: stripControls(note, { multiline: true }) };
    }
  }

  const forced = v.forced ?? false;
  if (typeof forced !== 'boolean') field('forced', 'must be true or false');

  const result: UpdateDescriptor = {
    version: trimmed,
    download_url: parsed.href,
    file_md5: md5.toLowerCase(),
    descriptions,
    forced,
  };
  if (v.file_size !== undefined && v.file_size !== null) {
    if (typeof v.file_size !== 'number' || !Number.isSafeInteger(v.file_size) || v.file_size < 0) {
      field('file_size', 'must be a whole number of bytes');
    }
    result.file_size = v.file_size;
  }
  if (v.allow_downgrade !== undefined && v.allow_downgrade !== null) {
    if (typeof v.allow_downgrade !== 'boolean') field('allow_downgrade', 'must be true or false');
    result.allow_downgrade = v.allow_downgrade;
  }
  return result;
}

/** The fields that name a package: a descriptor without any of them offers nothing. */
const PACKAGE_FIELDS = ['version', 'download_url', 'file_md5'] as const;

/**
 * Reads the answer to an update check (JSON text, bytes or a parsed value): the descriptor, or
 * null for "no update". No update is an empty body, JSON `null`, or an object in which none of
 * `version`, `download_url` and `file_md5` is set (absent, null or ""), `{}` included: such an
 * object names no package. An object that sets some of them but not a valid set, and anything
 * that is not an object, is an error (`OTA_DESCRIPTOR_FIELD`, `OTA_DESCRIPTOR_JSON`): a broken
 * answer is reported, never mistaken for "up to date". Pass `status` when you have it: 204 is no
 * update whatever the body.
 */
export function parseUpdateResponse(
  input: unknown,
  options: { status?: number } = {},
): UpdateDescriptor | null {
  if (options.status === 204) return null;
  const value = toValue(input);
  if (value === undefined || value === null) return null;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    if (PACKAGE_FIELDS.every((k) => v[k] === undefined || v[k] === null || v[k] === '')) return null;
  }
  return parseDescriptor(value);
}

/** Production and test cloud bases; the global OTA server environment flag picks one. */
export interface CloudBases {
  cloudUrl: string;
  cloudTestUrl: string;
  /** The vendor's flag: 1 (or true) selects the test environment. */
  otaServerEnv: number | boolean;
}

/**
 * `{base}/app/v1/common/upgrade/<kind>`. `base` is a URL, or both bases and the
 * environment flag (`{cloudTestUrl}` when the flag equals 1).
 */
export function descriptorUrl(base: string | CloudBases, kind: UpdateKind): string {
  const url =
    typeof base === 'string'
      ? base
      : base.otaServerEnv === 1 || base.otaServerEnv === true
        ? base.cloudTestUrl
        : base.cloudUrl;
  return `${url.replace(/\/+$/, '')}/app/v1/common/upgrade/${kind}`;
}

/** Who asks: the serial and the FIRMWARE version, sent on both checks. */
export interface DeviceIdentity {
  serial: string;
  /** The firmware version, also on the model check (never the model's own version). */
  firmwareVersion: string;
}

function headerValue(name: string, value: string): string {
  if (typeof value !== 'string' || value === '' || /[^\x21-\x7e]/.test(value)) {
    throw new OtaError('OTA_OPTIONS', `${name} must be visible ASCII without spaces`);
  }
  return value;
}

/** The two headers of every descriptor fetch: `X-Device-Serial`, and `X-Device-Version` = the firmware version. */
export function descriptorHeaders(device: DeviceIdentity): Record<string, string> {
  return {
    'X-Device-Serial': headerValue('serial', device.serial),
    'X-Device-Version': headerValue('firmwareVersion', device.firmwareVersion),
  };
}

/**
 * The whole check request of the spec: a plain GET of `descriptorUrl(base, kind)` with
 * `descriptorHeaders(device)`, no body, the same headers for firmware and model.
 */
export function descriptorRequest(
  base: string | CloudBases,
  kind: UpdateKind,
  device: DeviceIdentity,
): { method: 'GET'; url: string; headers: Record<string, string> } {
  return { method: 'GET', url: descriptorUrl(base, kind), headers: descriptorHeaders(device) };
}

export interface UpdateCheckerOptions {
  /**
   * Fetches one descriptor (e.g. through @waved/psp-cloud, or `fetch` with `descriptorRequest`).
   * Return the body (JSON text, bytes or value) for `parseUpdateResponse`: `null`, `undefined`,
   * `''` and `{}` mean no update.
   */
  fetchDescriptor: (kind: UpdateKind) => Promise<unknown>;
  /**
   * Installed versions. The same version is no update; an older one is an error
   * (`OTA_VERSION_DOWNGRADE`) unless the descriptor or `allowDowngrade` allows it; a version that
   * cannot be compared is an error (`OTA_VERSION_INVALID`).
   */
  currentVersion?: Partial<Record<UpdateKind, string>>;
  /** Offer older versions too (default false). */
  allowDowngrade?: boolean;
}

export type UpdateCheckResult =
  | { kind: UpdateKind; status: 'available'; descriptor: UpdateDescriptor }
  | { kind: UpdateKind; status: 'none' }
  | { kind: UpdateKind; status: 'error'; error: OtaError };

export interface UpdateChecker {
  /** Checks firmware, then model. A failing channel does not stop the other. */
  check(): Promise<UpdateCheckResult[]>;
}

export function createUpdateChecker(options: UpdateCheckerOptions): UpdateChecker {
  return {
    async check() {
      const results: UpdateCheckResult[] = [];
      for (const kind of UPDATE_KINDS) {
        try {
          const descriptor = parseUpdateResponse(await options.fetchDescriptor(kind));
          const current = options.currentVersion?.[kind];
          if (!descriptor || current === descriptor.version) {
            results.push({ kind, status: 'none' });
            continue;
          }
          const order = current === undefined ? 1 : compareVersions(descriptor.version, current);
          if (order === 0) results.push({ kind, status: 'none' });
          else if (order < 0 && !descriptor.allow_downgrade && !options.allowDowngrade) {
            const error = new OtaError(
              'OTA_VERSION_DOWNGRADE',
              `the cloud offers ${descriptor.version}, older than the installed ${current}`,
            );
            results.push({ kind, status: 'error', error });
          } else results.push({ kind, status: 'available', descriptor });
        } catch (error) {
          const e =
            error instanceof OtaError
              ? error
              : new OtaError('OTA_CHECK_FAILED', `fetching the ${kind} descriptor failed`, { cause: error });
          results.push({ kind, status: 'error', error: e });
        }
      }
      return results;
    },
  };
}
