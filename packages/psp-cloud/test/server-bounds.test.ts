// Attacks on the reference server's state: every table it keeps has a bound, and at the bound it
// refuses (or drops the oldest) instead of growing or forgetting what keeps it safe.
import crypto from 'node:crypto';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  createCloudClient,
  createMemoryCredentialStore,
  createNonce,
  sha256Hex,
  signRequest,
} from '../src/index.js';
import { type CloudServerOptions, createCloudServer } from '../src/server.js';

const SECRET = 'd'.repeat(64);
const SALT = 'e'.repeat(32);
const device = (serial: string) => ({
  serial,
  secret: `factory-${serial}`,
  deviceSecret: SECRET,
  salt: SALT,
});

/** The server in-process, and a signer for registered test devices. */
function harness(options: CloudServerOptions) {
  const server = createCloudServer(options);
  const request = (
    serial: string,
    method: string,
    path: string,
    body = '',
    over: {
      nonce?: string;
      token?: string;
      key?: string;
      salt?: string;
      headers?: Record<string, string>;
    } = {},
  ) => {
    const s = signRequest({
      serial,
      deviceSecret: over.key ?? SECRET,
      salt: over.salt ?? SALT,
      method,
      pathAndQuery: path,
      bodySha256: sha256Hex(body),
      timestamp: Math.floor(Date.now() / 1000),
      nonce: over.nonce ?? createNonce(),
    });
    const headers: Record<string, string> = { ...s.headers, ...over.headers };
    if (over.token) headers.authorization = `Bearer ${over.token}`;
    return server.fetch(
      new Request(`http://cloud.test${path}`, { method, headers, ...(method === 'GET' ? {} : { body }) }),
    );
  };
  const telemetry = (serial: string, events: unknown[] = [], over = {}) =>
    request(
      serial,
      'POST',
      '/analytics/v1/events',
      JSON.stringify({ app_id: 10000022, user_unique_id: serial, open_udid: 'u', events }),
      over,
    );
  const token = async (serial: string) => {
    const r = await request(
      serial,
      'POST',
      '/summary-service/device/token/refresh',
      JSON.stringify({
        serial,
        timestamp: Math.floor(Date.now() / 1000),
        nonce: createNonce(),
        area_url: 'https://x.invalid',
        device_secret: SECRET,
        salt: SALT,
        secret: `factory-${serial}`,
      }),
    );
    expect(r.status).toBe(200);
    return ((await r.json()) as { token: string }).token;
  };
  return { server, request, telemetry, token };
}
const code = async (r: Response) => ((await r.json()) as { error: { code: string } }).error.code;

describe('the nonce cache never forgets an unexpired nonce', () => {
  it('answers 503 when full, and a replay of its oldest nonce is still refused', async () => {
    const h = harness({ devices: [device('S1')], limits: { nonces: 20, noncesPerSerial: 20 } });
    const first = createNonce();
    expect((await h.telemetry('S1', [], { nonce: first })).status).toBe(200);
    for (let i = 1; i < 20; i++) expect((await h.telemetry('S1')).status).toBe(200);
    const full = await h.telemetry('S1');
    expect(full.status).toBe(503);
    expect(await code(full)).toBe('NONCE_CACHE_FULL');
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    // the attack: with eviction, the flood pushes the first nonce out and its request can be replayed
    const replay = await h.telemetry('S1', [], { nonce: first });
    expect([replay.status, await code(replay)]).toEqual([401, 'NONCE_REPLAY']);
  });

  it('gives each device a share, so one flooding device cannot lock the others out', async () => {
    const h = harness({
      devices: [device('FLOOD'), device('OTHER')],
      limits: { nonces: 100, noncesPerSerial: 10 },
    });
    for (let i = 0; i < 10; i++) expect((await h.telemetry('FLOOD')).status).toBe(200);
    const limited = await h.telemetry('FLOOD');
    expect([limited.status, await code(limited)]).toEqual([429, 'NONCE_RATE_LIMITED']);
    expect((await h.telemetry('OTHER')).status).toBe(200);
  });
});

describe('registration needs an enrolment key unless the server is opened', () => {
  const register = (serial: string, key?: string) => ({
    serial,
    body: JSON.stringify({
      client_version: 'PSP_0.3.19',
      serial,
      timestamp: Math.floor(Date.now() / 1000),
      secret: `factory-${serial}`,
    }),
    over: { key: `factory-${serial}`, salt: '', ...(key ? { headers: { 'x-enrolment-key': key } } : {}) },
  });
  const send = (h: ReturnType<typeof harness>, r: ReturnType<typeof register>) =>
    h.request(r.serial, 'POST', '/summary-service/device/secret/register', r.body, r.over);

  it('refuses an unknown serial by default: anyone could otherwise enrol a device', async () => {
    const h = harness({});
    const r = await send(h, register('STRANGER'));
    expect([r.status, await code(r)]).toEqual([403, 'ENROLMENT_REQUIRED']);
    expect(h.server.devices()).toEqual([]);
  });

  it('admits an unknown serial with the enrolment key, not with a wrong one', async () => {
    const h = harness({ enrolmentKey: 'fleet-key-2024' });
    const wrong = await send(h, register('NEW1', 'fleet-key-2023'));
    expect([wrong.status, await code(wrong)]).toEqual([403, 'ENROLMENT_REQUIRED']);
    expect((await send(h, register('NEW1', 'fleet-key-2024'))).status).toBe(200);
    // and the client sends the key it was given
    const client = createCloudClient({
      credentials: createMemoryCredentialStore({ serial: 'NEW2', registrationSecret: 'f2' }),
      enrolmentKey: 'fleet-key-2024',
      fetch: (input, init) => h.server.fetch(new Request(input as string, init)),
      baseUrl: 'http://cloud.test',
    });
    await client.register();
    expect(h.server.devices().map((d) => d.serial)).toEqual(['NEW1', 'NEW2']);
  });

  it('admits known serials without a key, and anyone when explicitly opened', async () => {
    const known = harness({ devices: [{ serial: 'K1', secret: 'factory-K1' }] });
    expect((await send(known, register('K1'))).status).toBe(200);
    const opened = harness({ openRegistration: true });
    expect((await send(opened, register('ANY'))).status).toBe(200);
  });

  it('holds at most limits.devices devices', async () => {
    const h = harness({ openRegistration: true, limits: { devices: 3 } });
    for (const s of ['A', 'B', 'C']) expect((await send(h, register(s))).status).toBe(200);
    const full = await send(h, register('D'));
    expect([full.status, await code(full)]).toEqual([503, 'SERVER_FULL']);
    // a known device registering again is not refused
    expect((await send(h, register('A'))).status).toBe(200);
    expect(h.server.devices()).toHaveLength(3);
  });
});

describe('bounded state', () => {
  it('keeps at most limits.tokensPerDevice live tokens: refreshing again revokes the oldest', async () => {
    const h = harness({ devices: [device('S1')], limits: { tokensPerDevice: 2 } });
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) tokens.push(await h.token('S1'));
    expect(h.server.devices()[0]!.tokens).toBe(2);
    const notice = (token: string) =>
      h.request('S1', 'POST', '/summary-service/meeting/dot/notice', '{"meeting_id":"m"}', { token });
    const old = await notice(tokens[0]!);
    expect([old.status, await code(old)]).toEqual([401, 'TOKEN_INVALID']);
    expect((await notice(tokens[5]!)).status).toBe(200);
  });

  it('keeps the newest limits.telemetryEvents events and counts what it dropped', async () => {
    const h = harness({ devices: [device('S1')], limits: { telemetryEvents: 100, nonces: 1000 } });
    for (let b = 0; b < 6; b++) {
      const events = Array.from({ length: 50 }, (_, i) => ({
        uuid: `e-${b}-${i}`,
        event: 'check_update',
        params: { evt_time: 1 },
      }));
      expect((await h.telemetry('S1', events)).status).toBe(200);
    }
    expect(h.server.telemetry()).toHaveLength(100);
    expect(h.server.telemetry()[0]!.uuid).toBe('e-4-0');
    expect(h.server.telemetryStats()).toMatchObject({ received: 300, dropped: 200 });
    // an event id longer than 64 characters is refused rather than remembered
    const long = await h.telemetry('S1', [{ uuid: 'x'.repeat(65), event: 'e', params: {} }]);
    expect(long.status).toBe(400);
  });

  it('keeps the newest limits.notices notices', async () => {
    const h = harness({ devices: [device('S1')], limits: { notices: 5 } });
    const token = await h.token('S1');
    for (let i = 0; i < 12; i++) {
      const body = JSON.stringify({ meeting_id: `m${i}` });
      expect(
        (await h.request('S1', 'POST', '/summary-service/meeting/asr/notice', body, { token })).status,
      ).toBe(200);
    }
    expect(h.server.notices().map((n) => n.body.meeting_id)).toEqual(['m7', 'm8', 'm9', 'm10', 'm11']);
  });

  it('bounds uploads: open ones, the size of one, and the bytes held', async () => {
    const h = harness({
      devices: [device('S1')],
      limits: { openUploads: 2, uploadBytes: 4000, storedUploadBytes: 6000, chunkBytes: 4000 },
    });
    const token = await h.token('S1');
    const start = (name: string, size: number, data = crypto.randomBytes(size)) =>
      h.request(
        'S1',
        'POST',
        '/summary-service/meeting/file/upload/start',
        JSON.stringify({ meeting_id: 'm', file_name: name, size, sha256: sha256Hex(data) }),
        { token },
      );
    const big = await start('big', 4001);
    expect([big.status, await code(big)]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const a = crypto.randomBytes(3000);
    const startA = (await (await start('a', 3000, a)).json()) as { upload_id: string };
    expect((await start('b', 3000)).status).toBe(200);
    const third = await start('c', 10);
    expect([third.status, await code(third)]).toEqual([503, 'UPLOAD_CAPACITY']);
    // finish a: the bytes it holds count against storedUploadBytes
    const path = `/summary-service/meeting/file/upload/chunk?upload_id=${startA.upload_id}&offset=0`;
    const chunk = await h.server.fetch(
      new Request(`http://cloud.test${path}`, {
        method: 'PUT',
        headers: {
          ...signRequest({
            serial: 'S1',
            deviceSecret: SECRET,
            salt: SALT,
            method: 'PUT',
            pathAndQuery: path,
            bodySha256: sha256Hex(a),
            timestamp: Math.floor(Date.now() / 1000),
            nonce: createNonce(),
          }).headers,
          authorization: `Bearer ${token}`,
        },
        body: a,
      }),
    );
    expect(await chunk.json()).toMatchObject({ complete: true, size: 3000 });
    // 3000 finished + 3000 reserved by b: a new 3000-byte file makes the oldest finished one go
    expect((await start('d', 3000)).status).toBe(200);
    expect(h.server.uploads()).toEqual([]);
    expect(h.server.uploadStats().open).toBe(2);
  });

  it('allows five guesses of a password recovery code', async () => {
    const h = harness({ devices: [device('S1')] });
    const token = await h.token('S1');
    const post = (path: string, body: unknown) =>
      h.request('S1', 'POST', `/summary/service/device/password/recover/${path}`, JSON.stringify(body), {
        token,
      });
    await post('sendcode', { serial: 'S1' });
    const right = h.server.passwordCode('S1')!;
    const wrong = right === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++)
      expect(await (await post('verifycode', { serial: 'S1', code: wrong })).json()).toEqual({
        verified: false,
      });
    // the code is gone: walking a million codes is not possible
    expect(await (await post('verifycode', { serial: 'S1', code: right })).json()).toEqual({
      verified: false,
    });
  });

  it('accepts at most limits.connections connections per listener', async () => {
    const server = createCloudServer({ limits: { connections: 2 } });
    const l = await server.listen();
    const open: net.Socket[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const s = net.connect(l.port, '127.0.0.1');
        await new Promise((r) => s.once('connect', r));
        open.push(s);
      }
      const extra = net.connect(l.port, '127.0.0.1');
      open.push(extra);
      // the third one is closed by the server without an answer
      await new Promise<void>((resolve) => extra.once('close', () => resolve()));
      expect(extra.bytesRead).toBe(0);
    } finally {
      for (const s of open) s.destroy();
      await server.close();
      await server.close();
    }
  });
});
