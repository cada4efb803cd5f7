import crypto from 'node:crypto';
import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CloudError,
  canonicalString,
  createCloudClient,
  createMemoryCredentialStore,
  createNonce,
  createNonceCache,
  DATABASE_ENTRY,
  readSignatureHeaders,
  redactCanonical,
  SIGNATURE_HEADERS,
  sha256Hex,
  signRequest,
  verifySignature,
} from '../src/index.js';
import { type CloudServer, createCloudServer, type ListeningServer } from '../src/server.js';
import { fakeClock } from './helpers.js';

interface Vector {
  name: string;
  serial: string;
  deviceSecret: string;
  salt: string;
  method: string;
  pathAndQuery: string;
  timestamp: number;
  nonce: string;
  body: string;
  bodySha256: string;
  signature: string;
}

const vectorsFile = new URL('./vectors.json', import.meta.url);
const vectors = JSON.parse(fs.readFileSync(vectorsFile, 'utf8')) as Vector[];
const DEVICE_SECRET = vectors[0]!.deviceSecret;
const SALT = vectors[0]!.salt;

describe('published signature test vectors', () => {
  it('are the ones printed in the README', () => {
    const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /<!-- vectors:start -->\s*```json\n([\s\S]*?)```\s*<!-- vectors:end -->/.exec(readme);
    expect(block, 'README has a vectors block').not.toBeNull();
    expect(JSON.parse(block![1]!)).toEqual(vectors);
  });

  it.each(vectors.map((v) => [v.name, v] as const))('client side: %s', (_, v) => {
    // independent computation with node:crypto directly, besides the openssl values in the file
    const canonical = `${v.method}\n${v.pathAndQuery}\n${v.timestamp}\n${v.nonce}\n${v.salt}\n${v.bodySha256}`;
    expect(crypto.createHash('sha256').update(v.body).digest('hex')).toBe(v.bodySha256);
    expect(crypto.createHmac('sha256', v.deviceSecret).update(canonical).digest('hex')).toBe(v.signature);
    const signed = signRequest({ ...v, bodySha256: sha256Hex(v.body) });
    expect(signed.canonical).toBe(canonical);
    expect(signed.headers).toEqual({
      'x-device-serial': v.serial,
      'x-timestamp': String(v.timestamp),
      'x-nonce': v.nonce,
      'x-signature': v.signature,
    });
  });

  describe('server side, over HTTP', () => {
    let listening: ListeningServer;
    const clockAt = { now: () => vectors[0]!.timestamp * 1000 };
    beforeAll(async () => {
      const server = createCloudServer({
        clock: { now: () => clockAt.now() },
        devices: [
          { serial: 'PSP0001', secret: 'factory-secret-0001', deviceSecret: DEVICE_SECRET, salt: SALT },
        ],
        requireSignedUpdateChecks: true,
      });
      listening = await server.listen();
    });
    afterAll(() => listening.close());

    it.each(vectors.map((v) => [v.name, v] as const))('accepts %s', async (_, v) => {
      clockAt.now = () => v.timestamp * 1000;
      const res = await fetch(listening.url.slice(0, -1) + v.pathAndQuery, {
        method: v.method,
        headers: {
          'x-device-serial': v.serial,
          'x-timestamp': String(v.timestamp),
          'x-nonce': v.nonce,
          'x-signature': v.signature,
          'content-type': 'application/json',
        },
        ...(v.method === 'GET' ? {} : { body: v.body }),
      });
      const text = await res.text();
      // the signature passed: anything but a signature rejection (token routes then ask for a token)
      const code = text ? (JSON.parse(text) as { error?: { code?: string } }).error?.code : undefined;
      expect(['SIGNATURE_MISSING', 'SIGNATURE_MISMATCH', 'TIMESTAMP_SKEW', 'NONCE_REPLAY']).not.toContain(
        code,
      );
      expect(res.status === 401 ? code : 'accepted').toMatch(/^(accepted|TOKEN_MISSING)$/);
    });

    it('reports its canonical string, salt redacted, when a body was altered', async () => {
      const v = vectors[1]!;
      clockAt.now = () => v.timestamp * 1000;
      const res = await fetch(listening.url.slice(0, -1) + v.pathAndQuery, {
        method: 'POST',
        headers: {
          'x-device-serial': v.serial,
          'x-timestamp': String(v.timestamp),
          'x-nonce': 'differentnonceab',
          'x-signature': v.signature,
        },
        body: v.body.replace('started', 'stopped'),
      });
      expect(res.status).toBe(401);
      const body = (await res.json()) as { error: { code: string; canonical: string } };
      expect(body.error.code).toBe('SIGNATURE_MISMATCH');
      expect(body.error.canonical).toBe(
        [
          v.method,
          v.pathAndQuery,
          v.timestamp,
          'differentnonceab',
          '[salt]',
          sha256Hex(v.body.replace('started', 'stopped')),
        ].join('\n'),
      );
      expect(body.error.canonical).not.toContain(SALT);
    });
  });
});

describe('verification rules', () => {
  const v = vectors[1]!;
  const headers = (over: Partial<Record<string, string>> = {}) => ({
    'x-device-serial': v.serial,
    'x-timestamp': String(v.timestamp),
    'x-nonce': v.nonce,
    'x-signature': v.signature,
    ...over,
  });
  const base = {
    method: v.method,
    pathAndQuery: v.pathAndQuery,
    bodySha256: v.bodySha256,
    deviceSecret: DEVICE_SECRET,
    salt: SALT,
  };

  it('accepts up to 300 s of skew either way and rejects beyond', () => {
    for (const d of [-300, 0, 300]) {
      expect(verifySignature({ ...base, headers: headers(), nowSeconds: v.timestamp + d }).ok).toBe(true);
    }
    for (const d of [-301, 301]) {
      expect(verifySignature({ ...base, headers: headers(), nowSeconds: v.timestamp + d })).toMatchObject({
        ok: false,
        code: 'TIMESTAMP_SKEW',
      });
    }
  });

  it('rejects a replayed nonce but records only verified requests', () => {
    const nonces = createNonceCache();
    const forged = verifySignature({
      ...base,
      headers: headers({ 'x-signature': '0'.repeat(64) }),
      nowSeconds: v.timestamp,
      nonces,
    });
    expect(forged).toMatchObject({ ok: false, code: 'SIGNATURE_MISMATCH' });
    expect(verifySignature({ ...base, headers: headers(), nowSeconds: v.timestamp, nonces }).ok).toBe(true);
    expect(
      verifySignature({ ...base, headers: headers(), nowSeconds: v.timestamp + 1, nonces }),
    ).toMatchObject({
      ok: false,
      code: 'NONCE_REPLAY',
    });
  });

  it('rejects missing or malformed headers', () => {
    for (const h of [
      { 'x-signature': undefined },
      { 'x-nonce': 'short' },
      { 'x-nonce': 'ABCDEFGHIJKLMNOP' },
      { 'x-timestamp': '17e8' },
      { 'x-signature': 'zz'.repeat(32) },
    ]) {
      expect(
        verifySignature({
          ...base,
          headers: headers(h as unknown as Record<string, string>),
          nowSeconds: v.timestamp,
        }),
      ).toMatchObject({
        ok: false,
        code: 'SIGNATURE_MISSING',
      });
    }
  });

  it('detects any change to method, path, body, nonce, salt or key', () => {
    const ok = { ...base, headers: headers(), nowSeconds: v.timestamp };
    expect(verifySignature(ok).ok).toBe(true);
    for (const change of [
      { method: 'PUT' },
      { pathAndQuery: `${v.pathAndQuery}?a=1` },
      { bodySha256: sha256Hex('x') },
      { salt: 'other' },
      { deviceSecret: 'other' },
    ]) {
      expect(verifySignature({ ...ok, ...change })).toMatchObject({ ok: false, code: 'SIGNATURE_MISMATCH' });
    }
  });

  it('bounds the nonce cache without ever forgetting an unexpired nonce', () => {
    const cache = createNonceCache({ maxEntries: 3, ttlSeconds: 600, maxPerSerial: 3 });
    for (const n of ['a', 'b', 'c']) expect(cache.remember('s', n, 1000)).toBe('fresh');
    // full: a new nonce is refused, and the oldest one is still a replay
    expect(cache.remember('s', 'd', 1001)).toBe('full');
    expect(cache.remember('s', 'a', 1001)).toBe('replay');
    expect(cache.size).toBe(3);
    expect(cache.retryAfter(1001)).toBe(599);
    // expired entries leave on their own, and make room
    expect(cache.remember('s', 'e', 1600)).toBe('fresh');
    expect(cache.size).toBe(1);
    expect(cache.remember('s', 'a', 1600)).toBe('fresh');
  });

  it('gives each serial a share of the nonce cache', () => {
    const cache = createNonceCache({ maxEntries: 10, maxPerSerial: 2 });
    expect(cache.remember('flood', 'a', 0)).toBe('fresh');
    expect(cache.remember('flood', 'b', 0)).toBe('fresh');
    expect(cache.remember('flood', 'c', 0)).toBe('serial-full');
    expect(cache.remember('other', 'a', 0)).toBe('fresh');
  });

  it('makes 16-letter nonces from a CSPRNG without modulo bias', () => {
    for (let i = 0; i < 50; i++) expect(createNonce()).toMatch(/^[a-z]{16}$/);
    // bytes >= 234 are skipped: an all-255 source followed by zeros yields only "a"
    let calls = 0;
    const nonce = createNonce(16, (n) => new Uint8Array(n).fill(calls++ === 0 ? 255 : 0));
    expect(nonce).toBe('a'.repeat(16));
    const counts = new Map<string, number>();
    for (let i = 0; i < 400; i++) for (const ch of createNonce()) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(26);
  });

  it('round-trips any request through sign and verify (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('GET', 'POST', 'PUT'),
        fc.stringMatching(/^\/[a-z0-9/._~%-]{0,40}(\?[a-z0-9=&%]{0,20})?$/),
        fc.uint8Array({ maxLength: 256 }),
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.string({ maxLength: 32 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        (method, path, body, secret, salt, ts) => {
          const p = path.startsWith('/') ? path : `/${path}`;
          const signed = signRequest({
            serial: 'S',
            deviceSecret: secret,
            salt,
            method,
            pathAndQuery: p,
            bodySha256: sha256Hex(body),
            timestamp: ts,
            nonce: createNonce(),
          });
          expect(readSignatureHeaders(signed.headers)).toBeDefined();
          const r = verifySignature({
            method,
            pathAndQuery: p,
            bodySha256: sha256Hex(body),
            headers: signed.headers,
            deviceSecret: secret,
            salt,
            nowSeconds: ts,
          });
          expect(r.ok).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('redacts only the salt line', () => {
    const c = canonicalString({
      method: 'get',
      pathAndQuery: '/x',
      timestamp: 1,
      nonce: 'n',
      salt: 'SECRET',
      bodySha256: 'h',
    });
    expect(c).toBe('GET\n/x\n1\nn\nSECRET\nh');
    expect(redactCanonical(c)).toBe('GET\n/x\n1\nn\n[salt]\nh');
  });
});

describe('a signature mismatch seen from the client', () => {
  let server: CloudServer;
  let listening: ListeningServer;
  beforeAll(async () => {
    server = createCloudServer({ openRegistration: true, requireSignedUpdateChecks: true });
    listening = await server.listen();
  });
  afterAll(() => listening.close());

  it('reports both canonical strings (salt redacted) in the error', async () => {
    const credentials = createMemoryCredentialStore({ serial: 'PSPX', registrationSecret: 'f' });
    const clock = fakeClock();
    const client = createCloudClient({
      baseUrl: listening.url,
      credentials,
      clock,
      firmwareVersion: '1.0.0',
      signedUpdateChecks: true,
      random: () => new Uint8Array(32).fill(3),
    });
    await client.register();
    const salt = (await credentials.readEntry(DATABASE_ENTRY.salt))!;
    await credentials.writeEntry(DATABASE_ENTRY.deviceSecret, 'not-the-secret-the-server-knows');
    const err = (await client.getUpdateDescriptor('psp_model').catch((e: unknown) => e)) as CloudError;
    expect(err).toBeInstanceOf(CloudError);
    expect(err.code).toBe('CLOUD_SIGNATURE_REJECTED');
    const expected = [
      'GET',
      '/app/v1/common/upgrade/psp_model',
      String(Math.floor(clock.now() / 1000)),
      'd'.repeat(16),
      '[salt]',
      sha256Hex(''),
    ].join('\n');
    expect(err.details.canonical).toBe(expected);
    expect(err.details.serverCanonical).toBe(expected);
    expect(err.message).toContain(expected);
    expect(err.message).not.toContain(salt);
    await client.close();
  });
});

it('SIGNATURE_HEADERS are the documented header names', () => {
  expect(Object.values(SIGNATURE_HEADERS)).toEqual([
    'x-device-serial',
    'x-timestamp',
    'x-nonce',
    'x-signature',
  ]);
});
