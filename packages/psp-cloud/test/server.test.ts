import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNonce, parseRange, parseUpdateDescriptor, sha256Hex, signRequest } from '../src/index.js';
import { type CloudServer, createCloudServer, type ListeningServer } from '../src/server.js';

const SECRET = 'b'.repeat(64);
const SALT = 'c'.repeat(32);

describe('reference server over HTTP', () => {
  const now = 1_750_000_000_000;
  let server: CloudServer;
  let l: ListeningServer;
  const pkg = crypto.randomBytes(10_000);
  beforeAll(async () => {
    server = createCloudServer({
      clock: { now: () => now },
      devices: [{ serial: 'S1', secret: 'f', deviceSecret: SECRET, salt: SALT }],
      requireSignedUpdateChecks: true,
      limits: { jsonBytes: 1024, nonces: 1000 },
    });
    server.publishUpdate('psp_model', { version: '2.0.0', data: pkg, fileName: 'model.swu' });
    l = await server.listen();
  });
  afterAll(() => l.close());

  function signed(
    method: string,
    path: string,
    body = '',
    over: { ts?: number; nonce?: string; secret?: string } = {},
  ) {
    const s = signRequest({
      serial: 'S1',
      deviceSecret: over.secret ?? SECRET,
      salt: SALT,
      method,
      pathAndQuery: path,
      bodySha256: sha256Hex(body),
      timestamp: over.ts ?? Math.floor(now / 1000),
      nonce: over.nonce ?? createNonce(),
    });
    return fetch(l.url.slice(0, -1) + path, {
      method,
      headers: s.headers,
      ...(method === 'GET' ? {} : { body }),
    });
  }
  const code = async (r: Response) => ((await r.json()) as { error: { code: string } }).error.code;

  it('accepts a fresh request and rejects the same bytes replayed', async () => {
    const nonce = createNonce();
    const path = '/app/v1/common/upgrade/psp_model';
    expect((await signed('GET', path, '', { nonce })).status).toBe(200);
    const replay = await signed('GET', path, '', { nonce });
    expect(replay.status).toBe(401);
    expect(await code(replay)).toBe('NONCE_REPLAY');
  });

  it('rejects requests more than 300 s old or ahead, with the server time in the answer', async () => {
    const path = '/app/v1/common/upgrade/psp_model';
    for (const skew of [-301, 301]) {
      const r = await signed('GET', path, '', { ts: Math.floor(now / 1000) + skew });
      expect(r.status).toBe(401);
      const body = (await r.json()) as { error: { code: string; server_time: number } };
      expect(body.error).toMatchObject({ code: 'TIMESTAMP_SKEW', server_time: Math.floor(now / 1000) });
    }
    for (const skew of [-299, 299]) {
      expect((await signed('GET', path, '', { ts: Math.floor(now / 1000) + skew })).status).toBe(200);
    }
  });

  it('rejects unsigned, wrongly keyed and unknown-device requests', async () => {
    const path = '/app/v1/common/upgrade/psp_model';
    const bare = await fetch(l.url.slice(0, -1) + path);
    expect([bare.status, await code(bare)]).toEqual([401, 'SIGNATURE_MISSING']);
    const wrong = await signed('GET', path, '', { secret: 'x' });
    expect([wrong.status, await code(wrong)]).toEqual([401, 'SIGNATURE_MISMATCH']);
    const s = signRequest({
      serial: 'NOPE',
      deviceSecret: SECRET,
      salt: SALT,
      method: 'GET',
      pathAndQuery: path,
      bodySha256: sha256Hex(''),
      timestamp: Math.floor(now / 1000),
      nonce: createNonce(),
    });
    const unknown = await fetch(l.url.slice(0, -1) + path, { headers: s.headers });
    expect([unknown.status, await code(unknown)]).toEqual([401, 'UNKNOWN_DEVICE']);
    expect(server.rejections()).toMatchObject({
      SIGNATURE_MISSING: 1,
      SIGNATURE_MISMATCH: 1,
      UNKNOWN_DEVICE: 1,
    });
  });

  it('answers 413 for an oversized body and 400 for a non-object body, 404 elsewhere', async () => {
    const big = await signed('POST', '/analytics/v1/events', JSON.stringify({ pad: 'x'.repeat(2000) }));
    expect([big.status, await code(big)]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const arr = await signed('POST', '/analytics/v1/events', '[1,2]');
    expect([arr.status, await code(arr)]).toEqual([400, 'BAD_REQUEST']);
    const nf = await fetch(`${l.url}nope`);
    expect(nf.status).toBe(404);
  });

  it('de-duplicates telemetry by UUID', async () => {
    const ev = (uuid: string) => ({ uuid, event: 'check_update', params: { evt_time: 1 } });
    const batch = (events: unknown[]) =>
      JSON.stringify({ app_id: 10000022, user_unique_id: 'S1', open_udid: 'u', events });
    const a = await signed('POST', '/analytics/v1/events', batch([ev('u1'), ev('u2')]));
    expect(await a.json()).toMatchObject({ accepted: 2, duplicates: 0 });
    const b = await signed('POST', '/analytics/v1/events', batch([ev('u2'), ev('u3')]));
    expect(await b.json()).toMatchObject({ accepted: 1, duplicates: 1 });
    expect(server.telemetry().map((e) => e.uuid)).toEqual(['u1', 'u2', 'u3']);
    const wrongApp = await signed(
      'POST',
      '/analytics/v1/events',
      JSON.stringify({ app_id: 1, user_unique_id: 'S1', events: [] }),
    );
    expect(wrongApp.status).toBe(400);
  });

  it('serves packages with Range, suffix ranges, HEAD and an md5 ETag', async () => {
    const url = `${l.url}app/v1/common/package/model.swu`;
    const md5 = crypto.createHash('md5').update(pkg).digest('hex');
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('10000');
    expect(head.headers.get('etag')).toBe(`"${md5}"`);
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    const tail = await fetch(url, { headers: { range: 'bytes=-100' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(pkg.subarray(9900))).toBe(true);
    const mid = await fetch(url, { headers: { range: 'bytes=10-19', 'if-range': `"${md5}"` } });
    expect(mid.headers.get('content-range')).toBe('bytes 10-19/10000');
    expect(Buffer.from(await mid.arrayBuffer()).equals(pkg.subarray(10, 20))).toBe(true);
    expect((await fetch(`${l.url}app/v1/common/package/other.swu`)).status).toBe(404);
  });

  it('offers the model descriptor whatever firmware the device runs', async () => {
    const d = await signed('GET', '/app/v1/common/upgrade/psp_model');
    const desc = parseUpdateDescriptor(await d.json());
    expect(desc).toMatchObject({
      version: '2.0.0',
      file_md5: crypto.createHash('md5').update(pkg).digest('hex'),
      forced: false,
    });
    server.withdrawUpdate('psp_model');
    expect((await signed('GET', '/app/v1/common/upgrade/psp_model')).status).toBe(204);
  });
});

describe('hostile bodies (in-process, no socket)', () => {
  const server = createCloudServer({
    devices: [{ serial: 'S1', secret: 'f', deviceSecret: SECRET, salt: SALT }],
  });
  const send = (path: string, body: string) => {
    const s = signRequest({
      serial: 'S1',
      deviceSecret: SECRET,
      salt: SALT,
      method: 'POST',
      pathAndQuery: path,
      bodySha256: sha256Hex(body),
      timestamp: Math.floor(Date.now() / 1000),
      nonce: createNonce(),
    });
    return server.fetch(
      new Request(`http://device.test${path}`, { method: 'POST', headers: s.headers, body }),
    );
  };

  it('answers 200 or 400, never 500, for any JSON sent as telemetry or a token refresh (fuzz)', async () => {
    const event = fc.record({
      uuid: fc.oneof(fc.uuid(), fc.string()),
      event: fc.string(),
      params: fc.jsonValue(),
    });
    const batch = fc.record(
      {
        app_id: fc.oneof(fc.constant(10000022), fc.jsonValue()),
        user_unique_id: fc.oneof(fc.constant('S1'), fc.jsonValue()),
        events: fc.oneof(fc.array(event, { maxLength: 5 }), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(batch, fc.jsonValue()), fc.boolean(), async (value, asToken) => {
        const path = asToken ? '/summary-service/device/token/refresh' : '/analytics/v1/events';
        const res = await send(path, JSON.stringify(value) ?? 'null');
        expect([200, 400, 403]).toContain(res.status);
        await res.arrayBuffer();
      }),
      { numRuns: 150 },
    );
  });
});

describe('hostile uploads (in-process, no socket)', () => {
  const server = createCloudServer({
    devices: [{ serial: 'S1', secret: 'f', deviceSecret: SECRET, salt: SALT }],
    limits: { chunkBytes: 64, uploadBytes: 1000, nonces: 100_000, noncesPerSerial: 100_000 },
  });
  const send = (method: string, path: string, body: Uint8Array | string, token?: string) => {
    const s = signRequest({
      serial: 'S1',
      deviceSecret: SECRET,
      salt: SALT,
      method,
      pathAndQuery: path,
      bodySha256: sha256Hex(body),
      timestamp: Math.floor(Date.now() / 1000),
      nonce: createNonce(),
    });
    const headers: Record<string, string> = { ...s.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    return server.fetch(new Request(`http://device.test${path}`, { method, headers, body }));
  };
  let token = '';
  beforeAll(async () => {
    const body = JSON.stringify({
      serial: 'S1',
      timestamp: Math.floor(Date.now() / 1000),
      nonce: createNonce(),
      area_url: 'https://x.invalid',
      device_secret: SECRET,
      salt: SALT,
      secret: 'f',
    });
    token = (
      (await (await send('POST', '/summary-service/device/token/refresh', body)).json()) as { token: string }
    ).token;
  });

  it('answers starts and chunks with 2xx or 4xx, never 500, and never holds more than it declared (fuzz)', async () => {
    const data = new Uint8Array(200).map((_, i) => i);
    const start = (await (
      await send(
        'POST',
        '/summary-service/meeting/file/upload/start',
        JSON.stringify({ meeting_id: 'm', file_name: 'f', size: 200, sha256: sha256Hex(data) }),
        token,
      )
    ).json()) as { upload_id: string };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record(
            {
              meeting_id: fc.jsonValue(),
              file_name: fc.jsonValue(),
              size: fc.jsonValue(),
              sha256: fc.jsonValue(),
            },
            { requiredKeys: [] },
          ),
          fc.jsonValue(),
        ),
        fc.oneof(fc.constant(start.upload_id), fc.string()),
        fc.oneof(fc.nat(300).map(String), fc.string()),
        fc.uint8Array({ maxLength: 100 }),
        async (startBody, id, offset, chunk) => {
          const a = await send(
            'POST',
            '/summary-service/meeting/file/upload/start',
            JSON.stringify(startBody) ?? 'null',
            token,
          );
          expect(a.status).toBeLessThan(500);
          await a.arrayBuffer();
          const q = new URLSearchParams({ upload_id: id, offset }).toString();
          const b = await send('PUT', `/summary-service/meeting/file/upload/chunk?${q}`, chunk, token);
          expect(b.status).toBeLessThan(500);
          await b.arrayBuffer();
          for (const u of server.uploads()) expect(u.data!.length).toBe(u.size);
          expect(server.uploadStats().open).toBeLessThanOrEqual(64);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('parseRange', () => {
  it.each([
    [null, 100, { kind: 'full' }],
    ['bytes=0-9', 100, { kind: 'partial', start: 0, end: 9 }],
    ['bytes=90-', 100, { kind: 'partial', start: 90, end: 99 }],
    ['bytes=90-500', 100, { kind: 'partial', start: 90, end: 99 }],
    ['bytes=-10', 100, { kind: 'partial', start: 90, end: 99 }],
    ['bytes=-500', 100, { kind: 'partial', start: 0, end: 99 }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=5-1', 100, { kind: 'full' }],
    ['bytes=0-1,5-6', 100, { kind: 'full' }],
    ['items=0-1', 100, { kind: 'full' }],
  ] as const)('%s of %d bytes', (range, size, result) => {
    expect(parseRange(range, size)).toEqual(result);
  });

  it('stays inside the resource for any header (fuzz)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.stringMatching(/^bytes=\d{0,6}-\d{0,6}$/)),
        fc.nat(100_000),
        (h, size) => {
          const r = parseRange(h, size);
          if (r.kind === 'partial') {
            expect(r.start).toBeGreaterThanOrEqual(0);
            expect(r.end).toBeLessThan(size);
            expect(r.start).toBeLessThanOrEqual(r.end);
          }
        },
      ),
    );
  });
});

describe('parseUpdateDescriptor', () => {
  const good = {
    version: '1.0.1',
    download_url: 'https://x.invalid/a.swu',
    file_md5: 'D41D8CD98F00B204E9800998ECF8427E',
    descriptions: { en: { html_note: 'n' } },
    forced: true,
  };
  it('accepts a B1 descriptor and lowercases the md5', () => {
    expect(parseUpdateDescriptor(good)?.file_md5).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });
  it.each([
    ['version', { version: '' }],
    ['download_url', { download_url: 'not a url' }],
    ['file_md5', { file_md5: 'abc' }],
    ['forced', { forced: 'yes' }],
    ['html_note', { descriptions: { en: {} } }],
  ])('refuses a bad %s', (_, change) => {
    expect(() => parseUpdateDescriptor({ ...good, ...change })).toThrow(
      expect.objectContaining({ code: 'CLOUD_BAD_RESPONSE' }),
    );
  });
  it('only ever throws CloudError on hostile JSON (fuzz)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        try {
          parseUpdateDescriptor(v);
        } catch (e) {
          expect((e as { code?: string }).code).toBe('CLOUD_BAD_RESPONSE');
        }
      }),
    );
  });
});
