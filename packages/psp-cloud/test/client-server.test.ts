import crypto from 'node:crypto';
import fs from 'node:fs';
import { needs, tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bytesUploadSource,
  type CloudClient,
  CloudError,
  createCloudClient,
  createMemoryCredentialStore,
  DATABASE_ENTRY,
  fileUploadSource,
  KEY_STORE_SLOT,
  TRANSCRIPTION_MODE,
} from '../src/index.js';
import { type CloudServer, createCloudServer, type ListeningServer } from '../src/server.js';
import { fakeClock, makeTlsFixture, recordingLogger } from './helpers.js';

const FACTORY_SECRET = 'factory-secret-0001';

function setup(url: string, extra: Partial<Parameters<typeof createCloudClient>[0]> = {}) {
  const credentials = createMemoryCredentialStore({ serial: 'PSP0001', registrationSecret: FACTORY_SECRET });
  const client = createCloudClient({ baseUrl: url, credentials, firmwareVersion: '1.0.0', ...extra });
  return { client, credentials };
}

for (const transport of ['http', 'https'] as const) {
  const gate = needs({ peers: transport === 'https' ? ['openssl'] : [] });
  gate.describe(`client against the reference server over ${transport}`, () => {
    const serverLog = recordingLogger();
    const clientLog = recordingLogger();
    let server: CloudServer;
    let listening: ListeningServer;
    let tls: ReturnType<typeof makeTlsFixture> | undefined;
    let client: CloudClient;
    let credentials: ReturnType<typeof createMemoryCredentialStore>;
    const pkg = new Uint8Array(200_000).map((_, i) => (i * 7) & 0xff);

    beforeAll(async () => {
      server = createCloudServer({
        logger: serverLog.logger,
        devices: [{ serial: 'PSP0001', secret: FACTORY_SECRET }],
        openRegistration: false,
        ota: {
          psp_firmware: {
            version: '1.2.0',
            data: pkg,
            forced: true,
            descriptions: { en: { html_note: '<p>fix</p>' } },
          },
        },
      });
      if (transport === 'https') tls = makeTlsFixture();
      listening = await server.listen({
        port: 0,
        host: '127.0.0.1',
        ...(tls ? { tls: { key: tls.key, cert: tls.cert } } : {}),
      });
      ({ client, credentials } = setup(listening.url, {
        logger: clientLog.logger,
        upload: { chunkBytes: 131_072 },
        ...(tls ? { tls: { ca: tls.ca } } : {}),
      }));
    });
    afterAll(async () => {
      await client?.close();
      await listening?.close();
      tls?.remove();
    });

    it('registers, stores device_secret and salt in entries 0x11a/0x11b and slots 0xe/0xf', async () => {
      expect(listening.url.startsWith(`${transport}://127.0.0.1:`)).toBe(true);
      await client.register();
      const secret = await credentials.readEntry(DATABASE_ENTRY.deviceSecret);
      const salt = await credentials.readEntry(DATABASE_ENTRY.salt);
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      expect(salt).toMatch(/^[0-9a-f]{32}$/);
      expect(await credentials.readSlot(KEY_STORE_SLOT.deviceSecret)).toBe(secret);
      expect(await credentials.readSlot(KEY_STORE_SLOT.salt)).toBe(salt);
      expect(server.devices()).toMatchObject([{ serial: 'PSP0001', clientVersion: 'PSP_0.3.19' }]);
    });

    it('refreshes the token into entry 0xe8, with the lifetime the server gave', async () => {
      const before = Date.now();
      const t = await client.refreshToken();
      expect(await credentials.readEntry(DATABASE_ENTRY.token)).toBe(t.token);
      expect(t.expiresIn).toBe(3600);
      expect(t.expiresAt).toBeGreaterThanOrEqual(before + 3600_000);
      // refreshed five minutes ahead of expiry
      expect(t.expiresAt - t.refreshAt).toBe(300_000);
      expect(client.token).toEqual(t);
      expect(server.devices()[0]!.tokens).toBeGreaterThanOrEqual(1);
    });

    it('fetches the firmware descriptor and gets 204 (null) for the model', async () => {
      const d = await client.getUpdateDescriptor('psp_firmware');
      expect(d).toMatchObject({
        version: '1.2.0',
        forced: true,
        descriptions: { en: { html_note: '<p>fix</p>' } },
      });
      expect(d!.download_url.startsWith(`${listening.url}app/v1/common/package/`)).toBe(true);
      expect(await client.getUpdateDescriptor('psp_model')).toBeNull();
      expect(await client.getUpdateDescriptor('psp_firmware', { firmwareVersion: '1.2.0' })).toBeNull();
    });

    it('serves the package with Range (resume) over the same transport', async () => {
      const d = (await client.getUpdateDescriptor('psp_firmware'))!;
      const { Agent, fetch } = await import('undici');
      const dispatcher = new Agent({ connect: tls ? { ca: tls.ca } : {} });
      try {
        const part = await fetch(d.download_url, { headers: { range: 'bytes=100000-' }, dispatcher });
        expect(part.status).toBe(206);
        expect(part.headers.get('content-range')).toBe(`bytes 100000-199999/200000`);
        expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(pkg.subarray(100000)))).toBe(true);
        const bad = await fetch(d.download_url, { headers: { range: 'bytes=300000-' }, dispatcher });
        expect(bad.status).toBe(416);
        expect(bad.headers.get('content-range')).toBe('bytes */200000');
        await bad.arrayBuffer();
        const stale = await fetch(d.download_url, {
          headers: { range: 'bytes=0-9', 'if-range': '"other"' },
          dispatcher,
        });
        expect(stale.status).toBe(200);
        const all = Buffer.from(await stale.arrayBuffer());
        expect(crypto.createHash('md5').update(all).digest('hex')).toBe(d.file_md5);
      } finally {
        await dispatcher.close();
      }
    });

    it('uploads a meeting file in chunks, completes it, starts transcription and sends the notices', async () => {
      const data = new Uint8Array(300_000).map((_, i) => (i * 31) & 0xff);
      const progress: number[] = [];
      const r = await client.uploadMeetingFile({
        meetingId: 'm1',
        fileName: 'a.opus',
        source: bytesUploadSource(data),
        onProgress: (received) => progress.push(received),
      });
      expect(r).toMatchObject({ size: 300_000, resumedFrom: 0, file_id: 'm1/a.opus' });
      expect(progress).toEqual([131_072, 262_144, 300_000]);
      expect(Buffer.from(server.uploads()[0]!.data!).equals(Buffer.from(data))).toBe(true);
      expect(await client.completeUpload({ meetingId: 'm1', files: ['a.opus'] })).toEqual({ ok: true });
      const t = await client.startTranscription({
        meetingId: 'm1',
        language: 'en',
        mode: TRANSCRIPTION_MODE.only_transcribe,
      });
      expect(t.task_id).toMatch(/^[0-9a-f-]{36}$/);
      await client.sendAsrNotice({ meeting_id: 'm1', status: 'started' });
      await client.syncWords({ meeting_id: 'm1', words: ['hello'] });
      await client.sendDotNotice({ meeting_id: 'm1', progress: 50 });
      expect(server.notices().map((n) => n.route)).toEqual([
        'uploadComplete',
        'transcriptionStart',
        'asrNotice',
        'syncWords',
        'dotNotice',
      ]);
      expect(server.notices()[1]!.body).toEqual({ meeting_id: 'm1', language: 'en', mode: 1 });
    });

    it('runs password recovery: send code, wrong code, right code', async () => {
      expect(await client.sendPasswordRecoveryCode()).toEqual({ sent: true });
      const code = server.passwordCode('PSP0001')!;
      expect(code).toMatch(/^\d{6}$/);
      const wrong = code === '000000' ? '000001' : '000000';
      expect(await client.verifyPasswordRecoveryCode(wrong)).toEqual({ verified: false });
      expect(await client.verifyPasswordRecoveryCode(code)).toEqual({ verified: true });
    });

    it('refreshes the token once on 401 and retries the call', async () => {
      server.revokeTokens('PSP0001');
      const before = await credentials.readEntry(DATABASE_ENTRY.token);
      await client.sendDotNotice({ meeting_id: 'm1', progress: 60 });
      const after = await credentials.readEntry(DATABASE_ENTRY.token);
      expect(after).not.toBe(before);
      expect(server.rejections().TOKEN_INVALID).toBeGreaterThanOrEqual(1);
    });

    it('never logs a secret, a salt, a token or a recovery code, on either side', async () => {
      const secrets = [
        FACTORY_SECRET,
        await credentials.readEntry(DATABASE_ENTRY.deviceSecret),
        await credentials.readEntry(DATABASE_ENTRY.salt),
        await credentials.readEntry(DATABASE_ENTRY.token),
      ] as string[];
      const all = [...serverLog.lines, ...clientLog.lines].join('\n');
      expect(serverLog.lines.length).toBeGreaterThan(3);
      for (const s of secrets) expect(all).not.toContain(s);
    });
  });
}

describe('client behaviour against the server', () => {
  let server: CloudServer;
  let listening: ListeningServer;
  const faults: Array<number> = [];
  beforeAll(async () => {
    server = createCloudServer({
      openRegistration: true,
      intercept: ({ route }) => {
        if (route !== 'firmwareDescriptor' && route !== 'transcriptionStart' && route !== 'telemetry')
          return undefined;
        const status = faults.shift();
        return status
          ? new Response('{"error":{"code":"BUSY","message":"try later"}}', { status })
          : undefined;
      },
    });
    listening = await server.listen();
  });
  afterAll(() => listening.close());

  it('checks for updates before registration, and refuses signed calls with CLOUD_NOT_REGISTERED', async () => {
    const { client } = setup(listening.url);
    expect(await client.getUpdateDescriptor('psp_firmware')).toBeNull();
    await expect(client.sendDotNotice({ meeting_id: 'm' })).rejects.toMatchObject({
      code: 'CLOUD_NOT_REGISTERED',
    });
    const signed = setup(listening.url, { signedUpdateChecks: true }).client;
    await expect(signed.getUpdateDescriptor('psp_model')).rejects.toMatchObject({
      code: 'CLOUD_NOT_REGISTERED',
    });
    await client.close();
    await signed.close();
  });

  it('retries an idempotent call with doubling backoff from the injected clock', async () => {
    const clock = fakeClock();
    const { client } = setup(listening.url, { clock, retry: { retries: 3, baseDelayMs: 400 } });
    await client.register();
    faults.push(503, 502, 500);
    expect(await client.getUpdateDescriptor('psp_firmware')).toBeNull();
    expect(clock.sleeps).toEqual([400, 800, 1600]);
    faults.push(503, 503, 503, 503);
    await expect(client.getUpdateDescriptor('psp_firmware')).rejects.toMatchObject({
      code: 'CLOUD_HTTP',
      details: { status: 503, serverCode: 'BUSY' },
    });
    expect(clock.sleeps).toEqual([400, 800, 1600, 400, 800, 1600]);
    await client.close();
  });

  it('honours Retry-After', async () => {
    const clock = fakeClock();
    const s = createCloudServer({
      openRegistration: true,
      intercept: ({ route, count }) =>
        route === 'firmwareDescriptor' && count === 1
          ? new Response(null, { status: 429, headers: { 'retry-after': '7' } })
          : undefined,
    });
    const l = await s.listen();
    const { client } = setup(l.url, { clock });
    await client.register();
    await client.getUpdateDescriptor('psp_firmware');
    expect(clock.sleeps).toEqual([7000]);
    await client.close();
    await l.close();
  });

  it('does not retry a non-idempotent call, except transcription start: once, after 100 ms', async () => {
    const clock = fakeClock();
    const { client } = setup(listening.url, { clock });
    await client.register();
    faults.push(500);
    await expect(
      client.startTranscription({ meetingId: 'x', language: 'en', mode: 0 }),
    ).resolves.toHaveProperty('task_id');
    expect(clock.sleeps).toEqual([100]);
    faults.push(500, 500);
    await expect(
      client.startTranscription({ meetingId: 'x', language: 'en', mode: 0 }),
    ).rejects.toMatchObject({
      code: 'CLOUD_HTTP',
    });
    expect(clock.sleeps).toEqual([100, 100]);
    await client.close();
  });

  it('reports a network error after the retries', async () => {
    const clock = fakeClock();
    const dead = await createCloudServer().listen();
    await dead.close();
    const { client, credentials } = setup(dead.url, { clock, retry: { retries: 2 } });
    await credentials.writeEntry(DATABASE_ENTRY.deviceSecret, 'x');
    await credentials.writeEntry(DATABASE_ENTRY.salt, 'y');
    await expect(client.getUpdateDescriptor('psp_model')).rejects.toMatchObject({ code: 'CLOUD_NETWORK' });
    expect(clock.sleeps).toEqual([500, 1000]);
    await client.close();
  });

  it('adopts the server time when its clock is off, or reports CLOUD_CLOCK_SKEW when told not to', async () => {
    const skewed = fakeClock(Date.now() - 3600_000);
    const strict = setup(listening.url, { clock: skewed, syncClockFromServer: false }).client;
    await expect(strict.register()).rejects.toMatchObject({
      code: 'CLOUD_CLOCK_SKEW',
      details: { serverCode: 'TIMESTAMP_SKEW' },
    });
    await strict.close();
    const syncing = setup(listening.url, { clock: skewed }).client;
    await syncing.register();
    expect(Math.abs(syncing.clockOffsetMs - 3600_000)).toBeLessThan(5000);
    await syncing.close();
  });

  it('times out a request that takes longer than timeoutMs (CLOUD_TIMEOUT)', async () => {
    const s = createCloudServer({
      openRegistration: true,
      intercept: async ({ route }) => {
        if (route !== 'register') return undefined;
        await new Promise((r) => setTimeout(r, 1500));
        return new Response('{}');
      },
    });
    const l = await s.listen();
    const { client } = setup(l.url, { timeoutMs: 150 });
    const started = Date.now();
    await expect(client.register()).rejects.toMatchObject({ code: 'CLOUD_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(1400);
    await client.close();
    await l.close();
  });

  it('uploads a file from disk with fileUploadSource, sending a chunk again after a 503', async () => {
    const dir = tempDir('psp-cloud-upload-');
    const data = crypto.randomBytes(1_000_000);
    fs.writeFileSync(dir.join('rec.opus'), data);
    let chunks = 0;
    const s = createCloudServer({
      openRegistration: true,
      intercept: ({ route }) => {
        if (route !== 'uploadChunk') return undefined;
        chunks++;
        return chunks === 2 ? new Response(null, { status: 503 }) : undefined;
      },
    });
    const l = await s.listen();
    const clock = fakeClock();
    const { client } = setup(l.url, { clock, upload: { chunkBytes: 400_000 } });
    try {
      await client.register();
      const source = await fileUploadSource(dir.join('rec.opus'));
      expect(source.sha256).toBe(crypto.createHash('sha256').update(data).digest('hex'));
      const r = await client.uploadMeetingFile({ meetingId: 'm 1', fileName: 'rec.opus', source });
      expect(r).toEqual({
        file_id: 'm 1/rec.opus',
        size: data.length,
        sha256: source.sha256,
        resumedFrom: 0,
      });
      // chunks of 400 000, 400 000 and 200 000 bytes; the second was refused once
      expect(chunks).toBe(4);
      expect(clock.sleeps).toEqual([1000]);
      expect(s.uploadStats()).toMatchObject({ chunks: 3, bytes: data.length, open: 0 });
      expect(Buffer.from(s.uploads()[0]!.data!).equals(data)).toBe(true);
    } finally {
      await client.close();
      await l.close();
      dir.remove();
    }
  });

  it('refreshes the token ahead of its expiry before a token call, not after a 401', async () => {
    let refreshes = 0;
    const s = createCloudServer({
      openRegistration: true,
      tokenTtlSeconds: 100,
      intercept: ({ route }) => {
        if (route === 'refreshToken') refreshes++;
        return undefined;
      },
    });
    const l = await s.listen();
    const clock = fakeClock();
    const { client } = setup(l.url, { clock });
    try {
      await client.register();
      const t = await client.refreshToken();
      // a 100 s token is refreshed a fifth of its life (20 s) before it runs out
      expect(t.refreshAt - clock.now()).toBe(80_000);
      expect(t.refreshInMs).toBe(80_000);
      clock.advance(79_000);
      await client.sendDotNotice({ meeting_id: 'm' });
      expect(refreshes).toBe(1);
      clock.advance(2_000);
      await client.sendDotNotice({ meeting_id: 'm' });
      expect(refreshes).toBe(2);
      expect(s.rejections()).toEqual({});
    } finally {
      await client.close();
      await l.close();
    }
  });

  it('refuses a refresh answer whose expires_in is not a positive number', async () => {
    const s = createCloudServer({
      openRegistration: true,
      intercept: ({ route }) =>
        route === 'refreshToken' ? Response.json({ token: 'a'.repeat(32), expires_in: -5 }) : undefined,
    });
    const l = await s.listen();
    const { client } = setup(l.url);
    try {
      await client.register();
      await expect(client.refreshToken()).rejects.toMatchObject({ code: 'CLOUD_BAD_RESPONSE' });
    } finally {
      await client.close();
      await l.close();
    }
  });

  it('rejects a wrong factory secret', async () => {
    const s = createCloudServer({
      devices: [{ serial: 'PSP0001', secret: 'right' }],
      openRegistration: false,
    });
    const l = await s.listen();
    const { client } = setup(l.url);
    const err = await client.register().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CloudError);
    // the server verifies the signature with the factory secret it knows: a different one is a mismatch
    expect((err as CloudError).code).toBe('CLOUD_SIGNATURE_REJECTED');
    await client.close();
    await l.close();
  });
});

needs({ peers: ['openssl'] }).describe('certificate verification', () => {
  it('rejects a certificate it does not trust, unless verification is explicitly disabled (and logged)', async () => {
    const tls = makeTlsFixture();
    const s = createCloudServer({ openRegistration: true });
    const l = await s.listen({ tls: { key: tls.key, cert: tls.cert } });
    try {
      const strict = setup(l.url, { retry: { retries: 0 } }).client;
      const err = (await strict.register().catch((e: unknown) => e)) as CloudError;
      expect(err.code).toBe('CLOUD_TLS');
      expect(err.message).toMatch(/UNABLE_TO_VERIFY|SELF_SIGNED|CERT/);
      await strict.close();
      const log = recordingLogger();
      const lax = setup(l.url, { tls: { rejectUnauthorized: false }, logger: log.logger }).client;
      await lax.register();
      expect(log.lines.join('\n')).toMatch(/warn TLS certificate verification is disabled/);
      await lax.close();
    } finally {
      await l.close();
      tls.remove();
    }
  });
});
