import { describe, expect, it } from 'vitest';
import {
  COMMON_HEADERS,
  createCloudClient,
  createMemoryCredentialStore,
  DEFAULT_BASE_URLS,
  DEFAULT_ROUTES,
  environmentFromFlag,
  regionForCountry,
  resolveRoutes,
} from '../src/index.js';
import { createCloudServer } from '../src/server.js';

describe('region and environment', () => {
  it.each([
    ['CN', 'cn'],
    ['cn', 'cn'],
    ['US', 'us'],
    ['DE', 'eu'],
    ['JP', 'eu'],
    ['', 'eu'],
    [undefined, 'eu'],
    ['XX', 'eu'],
  ] as const)('country %s → %s', (code, region) => {
    expect(regionForCountry(code)).toBe(region);
  });

  it.each([
    [1, 'test'],
    ['1', 'test'],
    [0, 'production'],
    [2, 'production'],
    [undefined, 'production'],
  ] as const)('OTA environment flag %s → %s', (flag, env) => {
    expect(environmentFromFlag(flag)).toBe(env);
  });

  // the whole matrix, observed on the wire: every request goes to the host of its region and environment
  for (const country of ['CN', 'US', 'FR'] as const) {
    for (const flag of [0, 1]) {
      it(`sends ${country} / flag ${flag} requests to the matching hosts`, async () => {
        const seen: string[] = [];
        const credentials = createMemoryCredentialStore({ serial: 'S1', registrationSecret: 'f' });
        const client = createCloudClient({
          countryCode: country,
          environment: flag,
          firmwareVersion: '1.0.0',
          credentials,
          fetch: async (input) => {
            seen.push(String(input instanceof Request ? input.url : input));
            return new Response('{"device_secret":"d","salt":"s"}', {
              headers: { 'content-type': 'application/json' },
            });
          },
        });
        await client.register();
        await client.getUpdateDescriptor('psp_firmware').catch(() => undefined);
        await client
          .sendTelemetry({ app_id: 10000022, user_unique_id: 'S1', open_udid: 'x', events: [] })
          .catch(() => undefined);
        const region = regionForCountry(country);
        const env = flag === 1 ? 'test' : 'production';
        const hosts = DEFAULT_BASE_URLS[env][region];
        expect(client.region).toBe(region);
        expect(client.environment).toBe(env);
        expect(seen).toEqual([
          `${hosts.summary}/summary-service/device/secret/register`,
          `${hosts.cloud}/app/v1/common/upgrade/psp_firmware`,
          `${hosts.telemetry}/analytics/v1/events`,
        ]);
        // each cell has its own hosts
        expect(new Set(Object.values(hosts)).size).toBe(3);
        expect(hosts.cloud).toContain(region);
        expect(hosts.cloud.includes('-test')).toBe(env === 'test');
      });
    }
  }
});

describe('route table', () => {
  it('keeps the paths the spec shows', () => {
    expect(DEFAULT_ROUTES.firmwareDescriptor).toMatchObject({
      method: 'GET',
      path: '/app/v1/common/upgrade/psp_firmware',
    });
    expect(DEFAULT_ROUTES.modelDescriptor.path).toBe('/app/v1/common/upgrade/psp_model');
    expect(DEFAULT_ROUTES.passwordSendCode.path).toBe('/summary/service/device/password/recover/sendcode');
    expect(DEFAULT_ROUTES.passwordVerifyCode.path).toBe(
      '/summary/service/device/password/recover/verifycode',
    );
  });

  it('one override moves a route on both the client and the server', async () => {
    const routes = { asrNotice: { path: '/v9/asr' } };
    expect(resolveRoutes(routes).asrNotice).toMatchObject({ method: 'POST', path: '/v9/asr', auth: 'token' });
    expect(() => resolveRoutes({ asrNotice: { path: 'v9' } })).toThrow(/must start/);
    const server = createCloudServer({ routes, openRegistration: true });
    const l = await server.listen();
    try {
      const client = createCloudClient({
        baseUrl: l.url,
        routes,
        credentials: createMemoryCredentialStore({ serial: 'S', registrationSecret: 'f' }),
      });
      await client.register();
      await client.sendAsrNotice({ meeting_id: 'm' });
      expect(server.notices()).toMatchObject([{ route: 'asrNotice', body: { meeting_id: 'm' } }]);
      const old = await fetch(new URL(DEFAULT_ROUTES.asrNotice.path, l.url), { method: 'POST' });
      expect(old.status).toBe(404);
      await client.close();
    } finally {
      await l.close();
    }
  });
});

describe('request headers', () => {
  it('sends the spec common headers, User-Agent PSP_DEVICE and the signature on every POST', async () => {
    const got: Headers[] = [];
    const server = createCloudServer({
      openRegistration: true,
      intercept: ({ headers }) => {
        got.push(new Headers(headers));
        return undefined;
      },
    });
    const l = await server.listen();
    const client = createCloudClient({
      baseUrl: l.url,
      firmwareVersion: '3.1.4',
      credentials: createMemoryCredentialStore({ serial: 'S', registrationSecret: 'f' }),
    });
    await client.register();
    await client.getUpdateDescriptor('psp_model');
    await client.sendDotNotice({ meeting_id: 'm' });
    await client.close();
    await l.close();
    expect(got.length).toBe(4); // register, descriptor, token refresh, notice
    const [register, check, refresh, notice] = got as [Headers, Headers, Headers, Headers];
    for (const h of [register, refresh, notice]) {
      expect(h.get('user-agent')).toBe('PSP_DEVICE');
      expect(h.get('accept')).toBe('*/*');
      expect(h.get('cache-control')).toBe('no-cache');
      expect(h.get('accept-encoding')).toBe('gzip, deflate, br');
      expect(h.get('content-type')).toBe('application/json');
      expect(h.get('x-signature')).toMatch(/^[0-9a-f]{64}$/);
      expect(h.get('x-nonce')).toMatch(/^[a-z]{16}$/);
      expect(h.get('x-device-serial')).toBe('S');
      expect(h.get('connection')).toBe('keep-alive');
    }
    // the update check is the spec's plain GET
    expect(check.get('x-device-serial')).toBe('S');
    expect(check.get('x-device-version')).toBe('3.1.4');
    expect(check.get('x-signature')).toBeNull();
    expect(check.get('content-type')).toBeNull();
    expect(notice.get('authorization')).toMatch(/^Bearer /);
    expect(COMMON_HEADERS.connection).toBe('keep-alive');
  });
});
