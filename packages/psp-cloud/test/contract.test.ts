// The client and the reference server, each held against contract fixtures written from the
// specification's text (test/contract/fixtures.ts), not against each other.
import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BaseUrlOverrides,
  bytesUploadSource,
  createCloudClient,
  createMemoryCredentialStore,
  createMemoryTelemetryStore,
  createTelemetryQueue,
  openUdidFromMac,
} from '../src/index.js';
import { type CloudServer, createCloudServer, type ListeningServer } from '../src/server.js';
import {
  baseUrlFor,
  checkRequest,
  hmacSignature,
  type SeenRequest,
  startFakeCloud,
} from './contract/check.js';
import {
  AREAS,
  FACTORY_SECRET,
  FIRMWARE_VERSION,
  FIXTURES,
  type Fixture,
  PACKAGE_DOWNLOAD,
  POST_HEADERS,
  SERIAL,
} from './contract/fixtures.js';

const fixture = (name: string) => FIXTURES.find((f) => f.name === name)!;

function hostTable(url: string): BaseUrlOverrides {
  const table: BaseUrlOverrides = {};
  for (const env of ['production', 'test'] as const) {
    table[env] = {};
    for (const region of ['cn', 'us', 'eu'] as const) {
      table[env]![region] = {
        cloud: baseUrlFor(url, env, region, 'cloud'),
        summary: baseUrlFor(url, env, region, 'summary'),
        telemetry: baseUrlFor(url, env, region, 'telemetry'),
      };
    }
  }
  return table;
}

describe('the client, against the fixtures on a fake cloud', () => {
  let fake: Awaited<ReturnType<typeof startFakeCloud>>;
  beforeAll(async () => {
    fake = await startFakeCloud();
  });
  afterAll(() => fake.close());

  it('sends every request the spec shows, and the ones our decisions add, as the fixtures say', async () => {
    fake.seen.length = 0;
    const credentials = createMemoryCredentialStore({ serial: SERIAL, registrationSecret: FACTORY_SECRET });
    const client = createCloudClient({
      credentials,
      countryCode: 'DE',
      environment: 0,
      baseUrls: hostTable(fake.url),
      firmwareVersion: FIRMWARE_VERSION,
      upload: { chunkBytes: 100_000 },
    });
    // the update checks need neither registration nor a token
    expect(await client.getUpdateDescriptor('psp_firmware')).toMatchObject({ version: '2.4.0' });
    expect(await client.getUpdateDescriptor('psp_model')).toBeNull();
    await client.register();
    await client.refreshToken();
    expect(await client.sendPasswordRecoveryCode()).toEqual({ sent: true });
    expect(await client.verifyPasswordRecoveryCode('123456')).toEqual({ verified: true });
    const data = crypto.randomBytes(150_000);
    const up = await client.uploadMeetingFile({
      meetingId: 'm1',
      fileName: 'a.wav',
      source: bytesUploadSource(data),
    });
    expect(up).toMatchObject({
      size: 150_000,
      sha256: crypto.createHash('sha256').update(data).digest('hex'),
    });
    // the fake asked for 64 KiB chunks: the client follows the smaller size
    expect(fake.seen.filter((s) => s.fixture === 'meeting file upload: chunk')).toHaveLength(3);
    expect(Buffer.concat([...fake.uploads.values()]).equals(data)).toBe(true);
    await client.completeUpload({ meetingId: 'm1', files: ['a.wav'] });
    await client.startTranscription({ meetingId: 'm1', language: 'en', mode: 1 });
    await client.sendAsrNotice({ meeting_id: 'm1', status: 'started' });
    await client.syncWords({ meeting_id: 'm1', words: ['hello'] });
    await client.sendDotNotice({ meeting_id: 'm1', progress: 40 });
    const queue = createTelemetryQueue({
      store: createMemoryTelemetryStore(),
      send: (batch) => client.sendTelemetry(batch),
      serial: SERIAL,
      openUdid: openUdidFromMac('02:00:00:00:00:42'),
      common: { fw_ver: FIRMWARE_VERSION, evt_language: 'en', evt_timezone: 'UTC' },
      autoStart: false,
    });
    await queue.track('check_update', {});
    await queue.flush();
    await queue.close();
    await client.close();

    expect(fake.problems).toEqual([]);
    expect(new Set(fake.seen.map((s) => s.fixture))).toEqual(new Set(FIXTURES.map((f) => f.name)));
    expect(new Set(fake.seen.map((s) => `${s.environment}-${s.region}`))).toEqual(new Set(['production-eu']));
  });

  for (const { country, region } of AREAS) {
    for (const flag of [0, 1]) {
      const env = flag === 1 ? 'test' : 'production';
      it(`routes a device in ${country} with the environment flag ${flag} to ${env}-${region}`, async () => {
        fake.seen.length = 0;
        const credentials = createMemoryCredentialStore({
          serial: SERIAL,
          registrationSecret: FACTORY_SECRET,
        });
        const client = createCloudClient({
          credentials,
          countryCode: country,
          environment: flag,
          baseUrls: hostTable(fake.url),
          firmwareVersion: FIRMWARE_VERSION,
        });
        await client.getUpdateDescriptor('psp_firmware');
        await client.getUpdateDescriptor('psp_model');
        await client.register();
        await client.refreshToken();
        await client.sendTelemetry({
          app_id: 10000022,
          user_unique_id: SERIAL,
          open_udid: 'a'.repeat(32),
          events: [],
        });
        await client.close();
        expect(fake.problems).toEqual([]);
        expect(fake.seen.map((s) => `${s.fixture} → ${s.environment}-${s.region}`)).toEqual(
          [
            'psp_firmware update check',
            'psp_model update check',
            'registration',
            'token refresh',
            'telemetry',
          ].map((f) => `${f} → ${env}-${region}`),
        );
        // the area URL in the refresh is the summary URL of the bound area
        const refresh = fake.seen.find((s) => s.fixture === 'token refresh')!;
        expect(JSON.parse(refresh.request.body.toString()).area_url).toBe(
          baseUrlFor(fake.url, env, region, 'summary'),
        );
      });
    }
  }

  it('sends the signed variant of the update checks only when configured, and it verifies', async () => {
    fake.seen.length = 0;
    const credentials = createMemoryCredentialStore({ serial: SERIAL, registrationSecret: FACTORY_SECRET });
    const client = createCloudClient({
      credentials,
      countryCode: 'DE',
      baseUrls: hostTable(fake.url),
      firmwareVersion: FIRMWARE_VERSION,
      signedUpdateChecks: true,
    });
    await client.register();
    fake.seen.length = 0;
    fake.acceptSignedChecks = true;
    try {
      await client.getUpdateDescriptor('psp_model');
    } finally {
      fake.acceptSignedChecks = false;
      await client.close();
    }
    expect(fake.problems).toEqual([]);
    const [check] = fake.seen;
    expect(check!.fixture).toBe('psp_model update check (signed)');
    // against the plain fixture, the signature is all that differs
    const path = check!.request.pathAndQuery.replace(/^\/[^/]+/, '');
    expect(checkRequest(fixture('psp_model update check'), check!.request, path, fake.keys)).toEqual([
      'psp_model update check: header x-signature must not be sent',
      'psp_model update check: header x-nonce must not be sent',
      'psp_model update check: header x-timestamp must not be sent',
    ]);
  });
});

/** Sends exactly these bytes with node:http, nothing added but Host. */
function send(
  url: string,
  r: SeenRequest,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(r.pathAndQuery, url),
      { method: r.method, headers: r.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

describe('the reference server, against the same fixtures', () => {
  let server: CloudServer;
  let listening: ListeningServer;
  const pkg = crypto.randomBytes(4096);
  const keys = { device: { secret: '', salt: '' }, tokens: new Set<string>() };
  beforeAll(async () => {
    server = createCloudServer({
      devices: [{ serial: SERIAL, secret: FACTORY_SECRET }],
      ota: { psp_firmware: { version: '2.4.0', data: pkg } },
      limits: { chunkBytes: 65_536 },
    });
    listening = await server.listen();
  });
  afterAll(() => listening.close());

  /** A request built from its fixture alone, signed by this test's own HMAC. */
  function build(
    f: Fixture,
    input: { json?: unknown; bytes?: Buffer; query?: Record<string, string> } = {},
  ): SeenRequest {
    const path = f.path + (input.query ? `?${new URLSearchParams(input.query)}` : '');
    const body =
      input.bytes ?? (input.json === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(input.json)));
    const headers: Record<string, string> = {};
    if (f.method === 'GET')
      Object.assign(headers, { 'x-device-serial': SERIAL, 'x-device-version': FIRMWARE_VERSION });
    else Object.assign(headers, POST_HEADERS);
    if (input.bytes) headers['content-type'] = 'application/octet-stream';
    if (body.length > 0) headers['content-length'] = String(body.length);
    if (f.auth !== 'none') {
      const ts = String(Math.floor(Date.now() / 1000));
      const nonce = Array.from(crypto.randomBytes(16), (b) => String.fromCharCode(97 + (b % 26))).join('');
      const key = f.auth === 'factory' ? FACTORY_SECRET : keys.device.secret;
      const salt = f.auth === 'factory' ? '' : keys.device.salt;
      const r = { method: f.method, pathAndQuery: path, body };
      Object.assign(headers, {
        'x-device-serial': SERIAL,
        'x-timestamp': ts,
        'x-nonce': nonce,
        'x-signature': hmacSignature(key, salt, r, ts, nonce),
      });
    }
    if (f.auth === 'token') headers.authorization = `Bearer ${[...keys.tokens].at(-1)}`;
    const request = { method: f.method, pathAndQuery: path, headers, body };
    // the example is itself held against the fixture before the server sees it
    expect(checkRequest(f, request, path, keys)).toEqual([]);
    return request;
  }
  const call = async (name: string, input?: Parameters<typeof build>[1]) => {
    const r = await send(listening.url, build(fixture(name), input));
    const text = r.body.toString('utf8');
    return { status: r.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  };

  it('answers the plain update checks (two headers, nothing signed) with a B1 descriptor or 204', async () => {
    const fw = await call('psp_firmware update check');
    expect(fw.status).toBe(200);
    expect(Object.keys(fw.json!).sort()).toEqual([
      'descriptions',
      'download_url',
      'file_md5',
      'forced',
      'version',
    ]);
    expect(fw.json).toMatchObject({
      version: '2.4.0',
      file_md5: crypto.createHash('md5').update(pkg).digest('hex'),
      forced: false,
    });
    expect((await call('psp_model update check')).status).toBe(204);
    // the package it points at resumes from an offset (spec: "curl with resume (-C -)")
    const url = new URL(fw.json!.download_url as string);
    expect(url.pathname.startsWith(PACKAGE_DOWNLOAD.pathPrefix)).toBe(true);
    const part = await send(listening.url, {
      method: 'GET',
      pathAndQuery: url.pathname,
      headers: { range: 'bytes=1000-' },
      body: Buffer.alloc(0),
    });
    expect(part.status).toBe(206);
    expect(part.body.equals(pkg.subarray(1000))).toBe(true);
  });

  it('answers each signed request of the fixtures in order, as the decisions say', async () => {
    const reg = await call('registration', {
      json: {
        client_version: 'PSP_0.3.19',
        serial: SERIAL,
        timestamp: Math.floor(Date.now() / 1000),
        secret: FACTORY_SECRET,
      },
    });
    expect(reg.status).toBe(200);
    expect(Object.keys(reg.json!).sort()).toEqual(['device_secret', 'salt']);
    keys.device = { secret: reg.json!.device_secret as string, salt: reg.json!.salt as string };

    const refresh = await call('token refresh', {
      json: {
        serial: SERIAL,
        timestamp: Math.floor(Date.now() / 1000),
        nonce: 'abcdefghijklmnop',
        area_url: 'https://summary.eu.example',
        device_secret: keys.device.secret,
        salt: keys.device.salt,
        secret: FACTORY_SECRET,
      },
    });
    expect(refresh.status).toBe(200);
    expect(refresh.json).toMatchObject({ token: expect.any(String), expires_in: 3600 });
    keys.tokens.add(refresh.json!.token as string);

    expect(await call('password recovery: send code', { json: { serial: SERIAL } })).toMatchObject({
      status: 200,
      json: { sent: true },
    });
    const code = server.passwordCode(SERIAL)!;
    expect(await call('password recovery: verify code', { json: { serial: SERIAL, code } })).toMatchObject({
      status: 200,
      json: { verified: true },
    });

    const data = crypto.randomBytes(100_000);
    const sha256 = crypto.createHash('sha256').update(data).digest('hex');
    const start = await call('meeting file upload: start', {
      json: { meeting_id: 'm1', file_name: 'a.wav', size: data.length, sha256 },
    });
    expect(start).toMatchObject({ status: 200, json: { received: 0, chunk_bytes: 65_536 } });
    const id = start.json!.upload_id as string;
    const first = await call('meeting file upload: chunk', {
      bytes: data.subarray(0, 65_536),
      query: { upload_id: id, offset: '0' },
    });
    expect(first).toMatchObject({ status: 200, json: { received: 65_536 } });
    // the same chunk again: refused, with the offset the server holds
    const again = await call('meeting file upload: chunk', {
      bytes: data.subarray(0, 65_536),
      query: { upload_id: id, offset: '0' },
    });
    expect(again).toMatchObject({
      status: 409,
      json: { error: { code: 'OFFSET_MISMATCH', received: 65_536 } },
    });
    const last = await call('meeting file upload: chunk', {
      bytes: data.subarray(65_536),
      query: { upload_id: id, offset: '65536' },
    });
    expect(last).toMatchObject({
      status: 200,
      json: { received: data.length, complete: true, file_id: 'm1/a.wav', size: data.length, sha256 },
    });
    expect(Buffer.from(server.uploads()[0]!.data!).equals(data)).toBe(true);

    expect(await call('upload completion', { json: { meeting_id: 'm1', files: ['a.wav'] } })).toMatchObject({
      status: 200,
      json: { ok: true },
    });
    expect(
      await call('transcription start', { json: { meeting_id: 'm1', language: 'en', mode: 2 } }),
    ).toMatchObject({ status: 200, json: { task_id: expect.any(String) } });
    for (const name of ['ASR notice', 'word sync', 'progress notice']) {
      expect(await call(name, { json: { meeting_id: 'm1', detail: { n: 1 } } })).toMatchObject({
        status: 200,
      });
    }
    const t = await call('telemetry', {
      json: {
        app_id: 10000022,
        user_unique_id: SERIAL,
        open_udid: 'b'.repeat(32),
        events: [
          {
            uuid: crypto.randomUUID(),
            event: 'check_update',
            params: {
              mic_serial_number: SERIAL,
              fw_ver: FIRMWARE_VERSION,
              evt_language: 'en',
              evt_timezone: 'UTC',
              evt_time: Date.now(),
            },
          },
        ],
      },
    });
    expect(t).toMatchObject({ status: 200, json: { accepted: 1, duplicates: 0 } });
    // the one refusal was the repeated chunk
    expect(server.rejections()).toEqual({ OFFSET_MISMATCH: 1 });
  });
});
