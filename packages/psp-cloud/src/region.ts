// Region by country code and production/test environment by the OTA environment flag.
import { CloudError } from './errors.js';

export type Region = 'cn' | 'us' | 'eu';
export type Environment = 'production' | 'test';

/** Base URLs of the three cloud services (no trailing slash). */
export interface BaseUrls {
  /** `{cloud_url}`: OTA descriptors and packages */
  cloud: string;
  /** `{summary_url}`: registration, tokens, meetings, password recovery */
  summary: string;
  /** `{telemetry_url}`: analytics events */
  telemetry: string;
}

export type BaseUrlTable = Record<Environment, Record<Region, BaseUrls>>;
export type BaseUrlOverrides = Partial<Record<Environment, Partial<Record<Region, Partial<BaseUrls>>>>>;

/** Fallback region when the country code is missing or unknown. */
export const FALLBACK_REGION: Region = 'eu';

/** CN → cn, US → us, every other (or no) country → eu. */
export function regionForCountry(countryCode: string | undefined | null): Region {
  const c = (countryCode ?? '').trim().toUpperCase();
  if (c === 'CN') return 'cn';
  if (c === 'US') return 'us';
  return FALLBACK_REGION;
}

/** The global OTA server environment flag: 1 (or `true`) selects test, anything else production. */
export function environmentFromFlag(flag: number | string | boolean | undefined | null): Environment {
  return flag === true || Number(flag) === 1 ? 'test' : 'production';
}

// The vendor's host names are not part of the specification: these placeholders live under the
// reserved `.invalid` TLD so nothing reaches a real host by accident. Deployments pass their own.
function hosts(env: Environment, region: Region): BaseUrls {
  const suffix = env === 'test' ? '-test' : '';
  return {
    cloud: `https://cloud${suffix}.${region}.psp-device.invalid`,
    summary: `https://summary${suffix}.${region}.psp-device.invalid`,
    telemetry: `https://analytics${suffix}.${region}.psp-device.invalid`,
  };
}

export const DEFAULT_BASE_URLS: BaseUrlTable = {
  production: { cn: hosts('production', 'cn'), us: hosts('production', 'us'), eu: hosts('production', 'eu') },
  test: { cn: hosts('test', 'cn'), us: hosts('test', 'us'), eu: hosts('test', 'eu') },
};

/** The base URLs for one region and environment, with overrides applied. */
export function resolveBaseUrls(
  region: Region,
  environment: Environment,
  overrides: BaseUrlOverrides = {},
): BaseUrls {
  const merged = { ...DEFAULT_BASE_URLS[environment][region], ...overrides[environment]?.[region] };
  const url = (service: keyof BaseUrls) => {
    const v = merged[service];
    const parsed = typeof v === 'string' && URL.canParse(v) ? new URL(v) : undefined;
    if (
      !parsed ||
      (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') ||
      parsed.search ||
      parsed.hash
    ) {
      throw new CloudError('CLOUD_OPTIONS', `${environment}.${region}.${service}: not an http(s) base URL`);
    }
    return v.replace(/\/+$/, '');
  };
  return { cloud: url('cloud'), summary: url('summary'), telemetry: url('telemetry') };
}

/** Where one device's requests go: its region, its environment and the three base URLs. */
export interface CloudArea {
  region: Region;
  environment: Environment;
  urls: BaseUrls;
}

export interface CloudAreaOptions {
  /** The device's country, ISO 3166 alpha-2: CN → cn, US → us, every other (or none) → eu. */
  country?: string | null | undefined;
  /** Overrides `country`. */
  region?: Region;
  /**
   * The global OTA server environment flag (`1` or `true` = test), or the environment by name.
   * Default production.
   */
  environment?: Environment | number | boolean | null | undefined;
  /** The deployment's hosts, per environment and region, merged over `DEFAULT_BASE_URLS`. */
  hosts?: BaseUrlOverrides | undefined;
  /** One URL for all three services (the reference server); wins over `hosts`. */
  baseUrl?: string | undefined;
}

/**
 * Routes a device: country → region, flag → environment, and the base URLs of that cell. The
 * telemetry URL follows the region like the summary URL does. Call it again when the country or the
 * flag changes, and build a new client from the result.
 */
export function resolveCloudArea(options: CloudAreaOptions = {}): CloudArea {
  const region = options.region ?? regionForCountry(options.country);
  if (region !== 'cn' && region !== 'us' && region !== 'eu') {
    throw new CloudError('CLOUD_OPTIONS', `unknown region ${String(region)}`);
  }
  const env = options.environment;
  if (typeof env === 'string' && env !== 'production' && env !== 'test') {
    throw new CloudError('CLOUD_OPTIONS', `unknown environment ${env}`);
  }
  const environment = env === 'production' || env === 'test' ? env : environmentFromFlag(env);
  const overrides: BaseUrlOverrides = options.baseUrl
    ? {
        [environment]: {
          [region]: { cloud: options.baseUrl, summary: options.baseUrl, telemetry: options.baseUrl },
        },
      }
    : (options.hosts ?? {});
  return { region, environment, urls: resolveBaseUrls(region, environment, overrides) };
}
