// The one route table shared by the client and the reference server (docs/decisions.md, "cloud paths not shown").
// The vendor's known paths are kept verbatim; the others are this project's choice and can be overridden.
import { CloudError } from './errors.js';

/** Which base URL a route lives under. */
export type RouteBase = 'cloud' | 'summary' | 'telemetry';

/**
 * How a request is authenticated:
 * - `factory`: signed with the factory device secret (entry 0xe7) and an empty salt (registration only);
 * - `device`: signed with `device_secret` and `salt`;
 * - `token`: signed like `device` and carries `Authorization: Bearer <device token>`;
 * - `none`: not signed: the update checks (the vendor's plain GET with `X-Device-Serial` and
 *   `X-Device-Version`) and the package download (fetched by URL).
 */
export type RouteAuth = 'factory' | 'device' | 'token' | 'none';

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PUT';
  base: RouteBase;
  /** Path under the base URL; `:name` marks a path parameter. */
  path: string;
  auth: RouteAuth;
  /** Safe to repeat: the client retries it with backoff on network errors, 408, 429 and 5xx. */
  idempotent: boolean;
}

export const DEFAULT_ROUTES = {
  register: {
    method: 'POST',
    base: 'summary',
    path: '/summary-service/device/secret/register',
    auth: 'factory',
    idempotent: false,
  },
  refreshToken: {
    method: 'POST',
    base: 'summary',
    path: '/summary-service/device/token/refresh',
    auth: 'device',
    idempotent: false,
  },
  firmwareDescriptor: {
    method: 'GET',
    base: 'cloud',
    path: '/app/v1/common/upgrade/psp_firmware',
    auth: 'none',
    idempotent: true,
  },
  modelDescriptor: {
    method: 'GET',
    base: 'cloud',
    path: '/app/v1/common/upgrade/psp_model',
    auth: 'none',
    idempotent: true,
  },
  otaPackage: {
    method: 'GET',
    base: 'cloud',
    path: '/app/v1/common/package/:name',
    auth: 'none',
    idempotent: true,
  },
  passwordSendCode: {
    method: 'POST',
    base: 'summary',
    path: '/summary/service/device/password/recover/sendcode',
    auth: 'token',
    idempotent: false,
  },
  passwordVerifyCode: {
    method: 'POST',
    base: 'summary',
    path: '/summary/service/device/password/recover/verifycode',
    auth: 'token',
    idempotent: false,
  },
  uploadStart: {
    method: 'POST',
    base: 'summary',
    path: '/summary-service/meeting/file/upload/start',
    auth: 'token',
    // the same file (meeting, name, size, sha256) gets the same upload back, with its received offset
    idempotent: true,
  },
  uploadChunk: {
    method: 'PUT',
    base: 'summary',
    path: '/summary-service/meeting/file/upload/chunk',
    auth: 'token',
    // guarded by `offset`: a chunk the server already holds is answered 409 with the received offset
    idempotent: true,
  },
  uploadComplete: {
    method: 'POST',
    base: 'summary',
    path: '/summary-service/meeting/file/complete',
    auth: 'token',
    idempotent: true,
  },
  transcriptionStart: {
    method: 'POST',
    base: 'summary',
    path: '/summary-service/meeting/transcription/start',
    auth: 'token',
    idempotent: false,
  },
  asrNotice: {
    method: 'POST',
    base: 'summary',
    path: '/summary-service/meeting/asr/notice',
    auth: 'token',
    idempotent: false,
  },
  syncWords: {
    method: 'POST',
    base: 'summary',
    path: '/summary-service/meeting/words/sync',
    auth: 'token',
    idempotent: false,
  },
  dotNotice: {
    method: 'POST',
    base: 'summary',
    path: '/summary-service/meeting/dot/notice',
    auth: 'token',
    idempotent: false,
  },
  telemetry: {
    method: 'POST',
    base: 'telemetry',
    path: '/analytics/v1/events',
    auth: 'device',
    // each event carries a UUID and the server de-duplicates, so a batch can be resent safely
    idempotent: true,
  },
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof DEFAULT_ROUTES;
export type RouteTable = Record<RouteName, RouteSpec>;
export type RouteOverrides = Partial<Record<RouteName, Partial<RouteSpec>>>;

/** The default table with overrides merged in, route by route and field by field. */
export function resolveRoutes(overrides: RouteOverrides = {}): RouteTable {
  const out = {} as RouteTable;
  for (const name of Object.keys(DEFAULT_ROUTES) as RouteName[]) {
    const merged = { ...DEFAULT_ROUTES[name], ...overrides[name] } as RouteSpec;
    if (!merged.path.startsWith('/')) {
      throw new CloudError('CLOUD_OPTIONS', `route ${name}: path must start with "/"`);
    }
    out[name] = merged;
  }
  return out;
}

/** Fills `:name` parameters (URI-encoded). */
export function routePath(spec: RouteSpec, params: Record<string, string> = {}): string {
  return spec.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, key: string) => {
    const v = params[key];
    if (v === undefined) throw new CloudError('CLOUD_OPTIONS', `missing path parameter ${key}`);
    return encodeURIComponent(v);
  });
}
