import { OtaError } from './errors.js';

// The update descriptor (what the cloud offers) and where it is fetched from.

export interface UpdateDescriptor {
  version: string;
  /** http(s) URL of the package. */
  download_url: string;
  /** MD5 of the package, lowercase 32 hex digits. */
  file_md5: string;
  /** Release notes per language code (`en`, `zh`, ...). */
  descriptions: Record<string, { html_note: string }>;
  /** Install without asking the user. */
  forced: boolean;
}

/** The two update channels, checked in this order. */
export const UPDATE_KINDS = ['psp_firmware', 'psp_model'] as const;
export type UpdateKind = (typeof UPDATE_KINDS)[number];

const MAX_VERSION = 128;

function field(name: string, message: string): never {
  throw new OtaError('OTA_DESCRIPTOR_FIELD', `update descriptor: ${name} ${message}`);
}

/**
 * Validates a descriptor given as JSON text, bytes or an already parsed value. `version`,
 * `download_url` and `file_md5` are required; `descriptions` defaults to `{}` and `forced` to
 * false; unknown fields are ignored. Throws `OTA_DESCRIPTOR_JSON` or `OTA_DESCRIPTOR_FIELD`.
 */
export function parseDescriptor(input: unknown): UpdateDescriptor {
  let value = input;
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new OtaError('OTA_DESCRIPTOR_JSON', 'update descriptor is not valid JSON', { cause: error });
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OtaError('OTA_DESCRIPTOR_JSON', 'update descriptor must be a JSON object');
  }
  const v = value as Record<string, unknown>;

  const version = v.version;
  if (typeof version !== 'string') field('version', 'must be a string');
  const trimmed = version.trim();
  if (trimmed === '' || trimmed.length > MAX_VERSION || /[\p{Cc}]/u.test(trimmed)) {
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
      descriptions[lang] = { html_note: note };
    }
  }

  const forced = v.forced ?? false;
  if (typeof forced !== 'boolean') field('forced', 'must be true or false');

  return { version: trimmed, download_url: parsed.href, file_md5: md5.toLowerCase(), descriptions, forced };
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

/** The two headers every descriptor fetch carries. */
export function descriptorHeaders(serial: string, version: string): Record<string, string> {
  return { 'X-Device-Serial': serial, 'X-Device-Version': version };
}

export interface UpdateCheckerOptions {
  /**
   * Fetches one descriptor (e.g. through @waved/psp-cloud, with `descriptorUrl` and
   * `descriptorHeaders`; the test-environment flag picks the base URL there). Return the JSON text or
   * value, or `null`/`undefined`/`''`/`{}` when there is no update.
   */
  fetchDescriptor: (kind: UpdateKind) => Promise<unknown>;
  /** Installed versions: a descriptor with the same version is no update. */
  currentVersion?: Partial<Record<UpdateKind, string>>;
}

export type UpdateCheckResult =
  | { kind: UpdateKind; status: 'available'; descriptor: UpdateDescriptor }
  | { kind: UpdateKind; status: 'none' }
  | { kind: UpdateKind; status: 'error'; error: OtaError };

export interface UpdateChecker {
  /** Checks firmware, then model. A failing channel does not stop the other. */
  check(): Promise<UpdateCheckResult[]>;
}

function isEmpty(raw: unknown): boolean {
  if (raw === null || raw === undefined) return true;
  if (typeof raw === 'string') return raw.trim() === '' || raw.trim() === '{}';
  if (raw instanceof Uint8Array) return isEmpty(Buffer.from(raw).toString('utf8'));
  return typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).length === 0;
}

export function createUpdateChecker(options: UpdateCheckerOptions): UpdateChecker {
  return {
    async check() {
      const results: UpdateCheckResult[] = [];
      for (const kind of UPDATE_KINDS) {
        try {
          const raw = await options.fetchDescriptor(kind);
          if (isEmpty(raw)) {
            results.push({ kind, status: 'none' });
            continue;
          }
          const descriptor = parseDescriptor(raw);
          if (options.currentVersion?.[kind] === descriptor.version) results.push({ kind, status: 'none' });
          else results.push({ kind, status: 'available', descriptor });
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
