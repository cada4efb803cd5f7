import { parse, TomlError } from 'smol-toml';
import {
  CLOUD_ENVIRONMENTS,
  CLOUD_SERVICES,
  type CloudEnvironment,
  type CloudHosts,
  type DeviceProfile,
  defaultProfile,
  PROFILE_KEYS,
  type ProfileKey,
  REGIONS,
  type Region,
} from './schema.js';

/** One problem with one key (`section.key`), said so that the fix is clear. */
export interface ProfileIssue {
  key: string;
  message: string;
}

export interface ParsedProfile {
  profile: DeviceProfile;
  /** One entry per bad or unknown key; empty when the profile is valid. */
  errors: ProfileIssue[];
}

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value.slice(0, 40)}${value.length > 40 ? '…' : ''}"`;
  if (Array.isArray(value)) return 'an array';
  if (isTable(value)) return 'a table';
  return String(value);
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const u = new URL(value);
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && !u.search && !u.hash;
}

/** Checks one value against its key; returns the value to store or a message. */
function check(spec: ProfileKey, value: unknown): { value: unknown } | { error: string } {
  const want = (what: string) => ({ error: `must be ${what}, got ${describe(value)}` });
  switch (spec.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? { value } : want('true or false');
    case 'int':
    case 'port': {
      const min = spec.min ?? 0;
      const max = spec.max ?? 65_535;
      const n = typeof value === 'bigint' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max)
        return want(`a whole number from ${min} to ${max}`);
      return { value: n };
    }
    default:
      break;
  }
  if (typeof value !== 'string') return want('a string');
  if (spec.kind === 'webhook-http') {
    return value === 'never' || value === 'loopback' || value === 'always'
      ? { value }
      : want('"never", "loopback" or "always"');
  }
  const v = value.trim();
  if (/\p{Cc}/u.test(v)) return { error: 'must not contain control characters' };
  if (v === '') return { value: '' };
  switch (spec.kind) {
    case 'path':
      return v.startsWith('/') ? { value: v } : want('an absolute path');
    case 'file-name':
      return /^[A-Za-z0-9._-]+$/.test(v) && v !== '.' && v !== '..'
        ? { value: v }
        : want('a single directory name (letters, digits, . _ -)');
    case 'url':
      return isHttpUrl(v) ? { value: v.replace(/\/+$/, '') } : want('an http:// or https:// base URL');
    case 'environment':
      return v === 'production' || v === 'test' ? { value: v } : want('"production" or "test"');
    case 'hardware':
      return /^[^:\s]+:[^:\s]+$/.test(v) ? { value: v } : want('"board:revision"');
    case 'version':
      return /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/.test(v) ? { value: v } : want('a version such as "1.4.2"');
    case 'ipv4':
      return IPV4.test(v) ? { value: v } : want('an IPv4 address');
    case 'iface':
      return /^[A-Za-z0-9_.:-]{1,15}$/.test(v)
        ? { value: v }
        : want('an interface name (up to 15 characters)');
    case 'battery':
      return v === 'mains' || v.startsWith('/')
        ? { value: v }
        : want('a /sys/class/power_supply/<name> path or "mains"');
    default:
      return { value: v };
  }
}

function parseHosts(cloud: Table, errors: ProfileIssue[]): DeviceProfile['cloud']['hosts'] {
  const hosts: DeviceProfile['cloud']['hosts'] = {};
  for (const env of CLOUD_ENVIRONMENTS) {
    const envTable = cloud[env];
    if (envTable === undefined) continue;
    if (!isTable(envTable)) {
      errors.push({ key: `cloud.${env}`, message: 'must be a table of regions ([cloud.production.eu] …)' });
      continue;
    }
    for (const [region, value] of Object.entries(envTable)) {
      const key = `cloud.${env}.${region}`;
      if (!REGIONS.includes(region as Region)) {
        errors.push({ key, message: `unknown region; use ${REGIONS.join(', ')}` });
        continue;
      }
      if (!isTable(value)) {
        errors.push({ key, message: 'must be a table with cloud, summary and telemetry URLs' });
        continue;
      }
      const urls: Partial<CloudHosts> = {};
      for (const [service, url] of Object.entries(value)) {
        const k = `${key}.${service}`;
        if (!CLOUD_SERVICES.includes(service as keyof CloudHosts)) {
          errors.push({ key: k, message: `unknown key; use ${CLOUD_SERVICES.join(', ')}` });
          continue;
        }
        const r = check({ section: 'cloud', key: service, kind: 'url', doc: '' }, url);
        if ('error' in r) errors.push({ key: k, message: r.error });
        else urls[service as keyof CloudHosts] = r.value as string;
      }
      const missing = CLOUD_SERVICES.filter((s) => !urls[s]);
      for (const s of missing) {
        if (value[s] === undefined) errors.push({ key: `${key}.${s}`, message: 'is missing' });
      }
      if (missing.length === 0) {
        const perEnv = hosts[env as CloudEnvironment] ?? {};
        perEnv[region as Region] = urls as CloudHosts;
        hosts[env as CloudEnvironment] = perEnv;
      }
    }
  }
  return hosts;
}

/**
 * Parses a profile. Every problem is reported once, against its key: a value of the wrong type or
 * out of range, and a key or table the profile does not know. Keys with a problem keep their
 * defaults; the caller refuses to start when `errors` is not empty.
 */
export function parseProfile(text: string): ParsedProfile {
  const profile = defaultProfile();
  const errors: ProfileIssue[] = [];
  let doc: Table;
  try {
    doc = parse(text) as Table;
  } catch (error) {
    const where = error instanceof TomlError ? `line ${error.line}, column ${error.column}` : 'the file';
    const first = error instanceof Error ? (error.message.split('\n')[0] ?? '') : '';
    return { profile, errors: [{ key: where, message: `not valid TOML: ${first}` }] };
  }
  const sections = new Map<string, ProfileKey[]>();
  for (const spec of PROFILE_KEYS) {
    if (!sections.has(spec.section)) sections.set(spec.section, []);
    sections.get(spec.section)!.push(spec);
  }
  for (const [section, value] of Object.entries(doc)) {
    const specs = sections.get(section);
    if (!specs) {
      errors.push({
        key: section,
        message: `unknown table; the profile has ${[...sections.keys()].join(', ')}`,
      });
      continue;
    }
    if (!isTable(value)) {
      errors.push({ key: section, message: `must be a table ([${section}])` });
      continue;
    }
    for (const [key, v] of Object.entries(value)) {
      if (section === 'cloud' && CLOUD_ENVIRONMENTS.includes(key as CloudEnvironment)) continue;
      const spec = specs.find((s) => s.key === key);
      if (!spec) {
        errors.push({ key: `${section}.${key}`, message: 'unknown key' });
        continue;
      }
      const r = check(spec, v);
      if ('error' in r) errors.push({ key: `${section}.${key}`, message: r.error });
      else (profile[spec.section] as Record<string, unknown>)[key] = r.value;
    }
    if (section === 'cloud') profile.cloud.hosts = parseHosts(value, errors);
  }
  if (profile.identity.serial && profile.identity.serial_file) {
    errors.push({
      key: 'identity.serial_file',
      message: 'give either identity.serial or identity.serial_file',
    });
  }
  return { profile, errors };
}
