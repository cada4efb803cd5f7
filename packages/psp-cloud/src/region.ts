// Region by country code and production/test environment by the OTA environment flag (spec Endpoints B).

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

/** Fallback region when the country code is missing or unknown (spec B4). */
export const FALLBACK_REGION: Region = 'eu';

/** CN → cn, US → us, every other (or no) country → eu. */
export function regionForCountry(countryCode: string | undefined | null): Region {
  const c = (countryCode ?? '').trim().toUpperCase();
  if (c === 'CN') return 'cn';
  if (c === 'US') return 'us';
  return FALLBACK_REGION;
}

/** The global OTA server environment flag: 1 selects test, anything else production. */
export function environmentFromFlag(flag: number | string | undefined | null): Environment {
  return Number(flag) === 1 ? 'test' : 'production';
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
  return {
    cloud: merged.cloud.replace(/\/+$/, ''),
    summary: merged.summary.replace(/\/+$/, ''),
    telemetry: merged.telemetry.replace(/\/+$/, ''),
  };
}
