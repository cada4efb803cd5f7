// Contract fixtures, written from the text of the specification (device-wifi-spec.md, "Cloud
// endpoints used by the application", "Authentication" B, B4 "Hardcoded constants") and, where the
// spec says "not shown", from docs/decisions.md ("@waved/psp-cloud"). They are kept apart from the
// package on purpose: nothing here imports the route table, the signing module or the server.

import { SPEC_CLOUD_POST_HEADERS } from '@waved/test-lab';

/** A value a request must carry: a literal, a pattern, or a named check. */
export type Matcher = string | number | boolean | RegExp | { check: (v: unknown) => boolean; means: string };

export type Base = 'cloud' | 'summary' | 'telemetry';
export type Auth = 'none' | 'factory' | 'device' | 'token';

export interface Fixture {
  name: string;
  /** Where the shape comes from. */
  source: string;
  method: 'GET' | 'POST' | 'PUT';
  /** `{cloud_url}` (or `{cloud_test_url}` with the environment flag 1), `{summary_url}`, `{telemetry_url}`. */
  base: Base;
  path: string;
  /** Exactly these query parameters (none when absent). */
  query?: Record<string, Matcher>;
  /** Headers that must be there, with their values. */
  headers: Record<string, Matcher>;
  /** Headers that must not be there. */
  absent?: string[];
  /** How the request is authenticated (decisions: "cloud signature", "authentication"). */
  auth: Auth;
  /** `none`: no body at all; `json`: exactly these fields; `bytes`: an octet-stream. */
  body: { kind: 'none' } | { kind: 'json'; fields: Record<string, Matcher> } | { kind: 'bytes' };
}

export const SERIAL = 'PSP0042';
export const FACTORY_SECRET = 'factory-secret-0042';
export const FIRMWARE_VERSION = '2.3.1';

const text = (re: RegExp, means: string): Matcher => ({
  check: (v) => typeof v === 'string' && re.test(v),
  means,
});
const unixSeconds: Matcher = {
  check: (v) => typeof v === 'number' && Number.isInteger(v) && Math.abs(v - Date.now() / 1000) < 600,
  means: 'the current Unix time in seconds',
};
const any = (type: 'string' | 'number' | 'object'): Matcher => ({
  check: (v) => typeof v === type && v !== null,
  means: `any ${type}`,
});

/** "Common request headers on every cloud POST" (spec, Endpoints B). */
export const POST_HEADERS: Record<string, Matcher> = { ...SPEC_CLOUD_POST_HEADERS };

/** "plus the signature headers" (spec, Authentication B3; names and format: decisions, "cloud signature"). */
export const SIGNATURE: Record<string, Matcher> = {
  'x-device-serial': SERIAL,
  'x-timestamp': /^\d{10}$/,
  'x-nonce': /^[a-z]{16}$/,
  'x-signature': /^[0-9a-f]{64}$/,
};

const bearer: Record<string, Matcher> = { authorization: /^Bearer [A-Za-z0-9_-]{16,128}$/ };
const signedPost = (auth: Auth, extra: Record<string, Matcher> = {}) => ({
  ...POST_HEADERS,
  ...SIGNATURE,
  ...(auth === 'token' ? bearer : {}),
  ...extra,
});

/** The spec's OTA check: "no body; headers X-Device-Serial and X-Device-Version" (firmware version on both). */
const otaCheck = (kind: 'psp_firmware' | 'psp_model'): Fixture => ({
  name: `${kind} update check`,
  source: `spec Endpoints B: GET {cloud_url}/app/v1/common/upgrade/${kind}; "no body; headers X-Device-Serial: <serial> and X-Device-Version: <firmware_version>"${kind === 'psp_model' ? ' ("same as above")' : ''}`,
  method: 'GET',
  base: 'cloud',
  path: `/app/v1/common/upgrade/${kind}`,
  headers: { 'x-device-serial': SERIAL, 'x-device-version': FIRMWARE_VERSION },
  // a plain GET: no body, no token, nothing that needs registration
  absent: ['content-type', 'content-length', 'authorization', 'x-signature', 'x-nonce', 'x-timestamp'],
  auth: 'none',
  body: { kind: 'none' },
});

export const FIXTURES: readonly Fixture[] = [
  otaCheck('psp_firmware'),
  otaCheck('psp_model'),
  {
    name: 'registration',
    source:
      'spec Endpoints B and Authentication B1: "sends the client version string, the device serial, the current Unix timestamp, and the device secret; returns device_secret and salt"; B4 client version PSP_0.3.19; path and field names: decisions',
    method: 'POST',
    base: 'summary',
    path: '/summary-service/device/secret/register',
    headers: signedPost('factory'),
    absent: ['authorization'],
    auth: 'factory',
    body: {
      kind: 'json',
      fields: {
        client_version: 'PSP_0.3.19',
        serial: SERIAL,
        timestamp: unixSeconds,
        secret: FACTORY_SECRET,
      },
    },
  },
  {
    name: 'token refresh',
    source:
      'spec Endpoints B and Authentication B2: "sends serial, timestamp, a 16-character nonce, the area URL, device_secret, salt and the device secret; returns a token"; Limits: 16 lowercase letters; path and names: decisions',
    method: 'POST',
    base: 'summary',
    path: '/summary-service/device/token/refresh',
    headers: signedPost('device'),
    absent: ['authorization'],
    auth: 'device',
    body: {
      kind: 'json',
      fields: {
        serial: SERIAL,
        timestamp: unixSeconds,
        nonce: /^[a-z]{16}$/,
        area_url: text(/^https?:\/\/\S+$/, 'the summary URL of the bound area'),
        device_secret: text(/^.{8,}$/, 'the device_secret from registration'),
        salt: text(/^.{4,}$/, 'the salt from registration'),
        secret: FACTORY_SECRET,
      },
    },
  },
  {
    name: 'password recovery: send code',
    source:
      'spec Endpoints B: {summary_url}/summary/service/device/password/recover/sendcode; method and payload: decisions (POST {serial})',
    method: 'POST',
    base: 'summary',
    path: '/summary/service/device/password/recover/sendcode',
    headers: signedPost('token'),
    auth: 'token',
    body: { kind: 'json', fields: { serial: SERIAL } },
  },
  {
    name: 'password recovery: verify code',
    source:
      'spec Endpoints B: {summary_url}/summary/service/device/password/recover/verifycode; method and payload: decisions (POST {serial, code})',
    method: 'POST',
    base: 'summary',
    path: '/summary/service/device/password/recover/verifycode',
    headers: signedPost('token'),
    auth: 'token',
    body: { kind: 'json', fields: { serial: SERIAL, code: /^\d{6}$/ } },
  },
  {
    name: 'meeting file upload: start',
    source: 'spec Endpoints B: "meeting file upload ... not shown"; decisions: resumable chunked uploads',
    method: 'POST',
    base: 'summary',
    path: '/summary-service/meeting/file/upload/start',
    headers: signedPost('token'),
    auth: 'token',
    body: {
      kind: 'json',
      fields: {
        meeting_id: any('string'),
        file_name: any('string'),
        size: any('number'),
        sha256: /^[0-9a-f]{64}$/,
      },
    },
  },
  {
    name: 'meeting file upload: chunk',
    source: 'decisions: resumable chunked uploads (PUT, octet-stream, at the offset the server holds)',
    method: 'PUT',
    base: 'summary',
    path: '/summary-service/meeting/file/upload/chunk',
    query: { upload_id: /^[A-Za-z0-9_-]{1,64}$/, offset: /^\d+$/ },
    headers: {
      ...signedPost('token'),
      'content-type': 'application/octet-stream',
      'content-length': /^\d+$/,
    },
    auth: 'token',
    body: { kind: 'bytes' },
  },
  {
    name: 'upload completion',
    source: 'spec Endpoints B: "upload completion ... not shown"; decisions: POST {meeting_id, files}',
    method: 'POST',
    base: 'summary',
    path: '/summary-service/meeting/file/complete',
    headers: signedPost('token'),
    auth: 'token',
    body: { kind: 'json', fields: { meeting_id: any('string'), files: any('object') } },
  },
  {
    name: 'transcription start',
    source:
      'spec Endpoints B: "transcription start ... not shown"; spec Events: transcription modes 0, 1, 2; decisions: POST {meeting_id, language, mode}',
    method: 'POST',
    base: 'summary',
    path: '/summary-service/meeting/transcription/start',
    headers: signedPost('token'),
    auth: 'token',
    body: {
      kind: 'json',
      fields: {
        meeting_id: any('string'),
        language: any('string'),
        mode: { check: (v) => v === 0 || v === 1 || v === 2, means: 'a transcription mode 0, 1 or 2' },
      },
    },
  },
  ...(
    [
      ['ASR notice', 'cloud_meeting_asr_notice', '/summary-service/meeting/asr/notice'],
      ['word sync', 'cloud_meeting_sync_words', '/summary-service/meeting/words/sync'],
      ['progress notice', 'cloud_meeting_dot_notice', '/summary-service/meeting/dot/notice'],
    ] as const
  ).map(
    ([name, vendor, path]): Fixture => ({
      name,
      source: `spec Events B: ${vendor} "sent to the cloud during transcription"; path and body: decisions (POST, JSON with meeting_id)`,
      method: 'POST',
      base: 'summary',
      path,
      headers: signedPost('token'),
      auth: 'token',
      body: { kind: 'json', fields: { meeting_id: any('string'), '*': any('object') } },
    }),
  ),
  {
    name: 'telemetry',
    source:
      'spec Endpoints B: {telemetry_url}, "event records"; Events B: user unique id = serial, every event carries mic_serial_number, fw_ver, evt_language, evt_timezone, evt_time; B4 analytics app id 10000022; path and body: decisions',
    method: 'POST',
    base: 'telemetry',
    path: '/analytics/v1/events',
    headers: signedPost('device'),
    auth: 'device',
    body: {
      kind: 'json',
      fields: {
        app_id: 10000022,
        user_unique_id: SERIAL,
        open_udid: /^[0-9a-f]{32}$/,
        events: {
          check: (v) =>
            Array.isArray(v) &&
            v.every((e) => {
              const p = (e as { params?: Record<string, unknown> }).params ?? {};
              return (
                typeof (e as { uuid?: unknown }).uuid === 'string' &&
                typeof (e as { event?: unknown }).event === 'string' &&
                p.mic_serial_number === SERIAL &&
                typeof p.fw_ver === 'string' &&
                typeof p.evt_language === 'string' &&
                typeof p.evt_timezone === 'string' &&
                typeof p.evt_time === 'number'
              );
            }),
          means: 'events with uuid, event and the five common fields',
        },
        device_id: {
          check: (v) => v === undefined || typeof v === 'string',
          means: 'optional analytics device id',
        },
      },
    },
  },
];

/** The package download the descriptor points at: fetched by URL, with resume (as `curl -C -` does). */
export const PACKAGE_DOWNLOAD = {
  source: 'spec Endpoints B: "curl with resume (-C -)"; path: decisions (/app/v1/common/package/:name)',
  method: 'GET',
  base: 'cloud' as Base,
  pathPrefix: '/app/v1/common/package/',
};

/** Routing: summary by country, CN / US / everything else EU; `{cloud_test_url}` with flag 1. */
export const AREAS = [
  { country: 'CN', region: 'cn' },
  { country: 'US', region: 'us' },
  { country: 'DE', region: 'eu' },
  { country: 'BR', region: 'eu' },
] as const;

export function describeMatcher(m: Matcher): string {
  if (m instanceof RegExp) return String(m);
  if (typeof m === 'object') return m.means;
  return JSON.stringify(m);
}

export function matches(m: Matcher, v: unknown): boolean {
  if (m instanceof RegExp) return typeof v === 'string' && m.test(v);
  if (typeof m === 'object') return m.check(v);
  return v === m;
}

/** The signed variant of an update check, allowed by configuration: the plain check plus the signature. */
export function signedVariant(f: Fixture): Fixture {
  return {
    ...f,
    name: `${f.name} (signed)`,
    source: `${f.source}; signed variant: decisions`,
    headers: { ...f.headers, ...SIGNATURE },
    absent: (f.absent ?? []).filter((h) => !(h in SIGNATURE)),
    auth: 'device',
  };
}
