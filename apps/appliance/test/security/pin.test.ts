import fs from 'node:fs';
import { createPinRecord, verifyPin } from '@waved/psk';
import { tempDir } from '@waved/test-lab';
import { parse } from 'smol-toml';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createFileStore } from '../../src/adapters/system/files.js';
import { slaveVerifyDevPasswd } from '../../src/domain/device/pclink.js';
import { backoffDelay, createAttemptLimiter, PIN_MAX_DELAY_MS } from '../../src/domain/security/attempts.js';
import { createPinRecordAsync, verifyPinAsync } from '../../src/domain/security/pin.js';
import { type Harness, hex, startPortal, urlencoded, validFields } from '../portal/harness.js';

/** The state file of the failed-PIN counter goes through the real file store (atomic, 0600). */
const files = createFileStore();

/**
 * Attacks on the device PIN, which PC Link trusts:
 * - anyone on the setup network set or cleared the PIN, or added a network with top priority,
 *   without knowing the current PIN;
 * - PC Link accepted unlimited guesses (all 10 000 four-digit PINs in 141 s);
 * - the PBKDF2 hash ran on the event loop, even for posts later refused.
 */
const OWNER_PIN = '482913';
const FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
const dir = tempDir('waved-sec-pin-');
afterAll(() => dir.remove());

let h: Harness;
afterEach(async () => {
  await h?.close();
});

function post(path: '/save' | '/save-connect', fields: Record<string, string>) {
  return fetch(new URL(path, h.url), {
    method: 'POST',
    headers: FORM,
    body: urlencoded(validFields(fields)),
  });
}

/** A portal whose device already has the owner's PIN. */
async function withPin(options: Parameters<typeof startPortal>[0] = {}) {
  h = await startPortal(options);
  const res = await post('/save', { 'security.device_password': OWNER_PIN });
  expect(res.status).toBe(200);
  h.commands.length = 0;
  return fs.readFileSync(h.file);
}

describe('every save needs the current PIN once one is set', () => {
  it('changing the PIN, clearing it, or adding a top-priority network without it is refused; nothing is written', async () => {
    const before = await withPin();
    const attempts: Array<['/save' | '/save-connect', Record<string, string>]> = [
      ['/save', { 'security.device_password': '0000' }],
      ['/save', { 'security.device_password_clear': 'true' }],
      ['/save-connect', { 'wifi.ssid_hex': hex('Home <5G>'), 'wifi.passphrase': 'attacker-network-key' }],
      [
        '/save-connect',
        { 'wifi.ssid_hex': '', 'wifi.hidden_ssid': 'EvilTwin', 'wifi.passphrase': 'attacker-key' },
      ],
      ['/save', { 'device.name': 'Owned' }],
    ];
    for (const [path, fields] of attempts) {
      const res = await post(path, fields);
      expect(res.status, `${path} ${JSON.stringify(fields)}`).toBe(422);
      expect(((await res.json()) as { errors: Record<string, string> }).errors).toEqual({
        'security.current_pin': 'Enter the current device PIN to save.',
      });
    }
    expect(fs.readFileSync(h.file)).toEqual(before);
    expect(h.commands).toEqual([]);
    // A wrong PIN is refused the same way.
    const wrong = await post('/save', {
      'security.device_password': '0000',
      'security.current_pin': '111111',
    });
    expect(wrong.status).toBe(422);
    expect(fs.readFileSync(h.file)).toEqual(before);
    // The owner, with the PIN, can.
    const ok = await post('/save', { 'security.device_password': '2468', 'security.current_pin': OWNER_PIN });
    expect(ok.status).toBe(200);
    const record = String(
      (parse(fs.readFileSync(h.file, 'utf8')) as { security: { device_password: string } }).security
        .device_password,
    );
    expect(verifyPin('2468', record)).toBe(true);
  });

  it('the form asks for the current PIN (a field of its own, with an error tied to it)', async () => {
    await withPin();
    const page = await (await fetch(h.url)).text();
    expect(page).toMatch(
      /<input type="password" id="f-security-current_pin" name="security.current_pin" value=""/,
    );
    const res = await fetch(new URL('/save', h.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: urlencoded(validFields({ 'device.name': 'Owned' })),
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toMatch(
      /id="f-security-current_pin"[^>]*aria-describedby="[^"]*f-security-current_pin-err"[^>]*aria-invalid="true"/,
    );
    expect(html).toContain('Enter the current device PIN to save.');
  });

  it('the PIN is checked only after every other field is valid: a refused form costs no attempt', async () => {
    const limiter = createAttemptLimiter();
    await withPin({ pinAttempts: limiter });
    const res = await post('/save', { 'audio.volume': '250', 'security.current_pin': '000000' });
    expect(res.status).toBe(422);
    expect(Object.keys(((await res.json()) as { errors: object }).errors)).toEqual(['audio.volume']);
    expect(await limiter.status()).toEqual({ failures: 0, retryAfterMs: 0 });
    await post('/save', { 'security.current_pin': '000000' });
    expect((await limiter.status()).failures).toBe(1);
  });
});

describe('one failed-attempt counter with exponential backoff, kept across restarts', () => {
  it('the backoff doubles from the fourth wrong PIN and the portal answers 429 with Retry-After while it holds', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const file = dir.join('attempts-portal.json');
    await withPin({ pinAttempts: createAttemptLimiter({ persist: { path: file, files }, now: () => now }) });
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await post('/save', { 'security.current_pin': `00000${i % 10}` });
      expect(res.status).toBe(422);
      const wait = Number(res.headers.get('retry-after') ?? '0');
      waits.push(wait);
      if (wait > 0) {
        // Still held: even the right PIN is refused, and nothing is hashed.
        const held = await post('/save', { 'security.current_pin': OWNER_PIN });
        expect(held.status).toBe(429);
        expect(Number(held.headers.get('retry-after'))).toBe(wait);
        now += wait * 1000;
      }
    }
    expect(waits).toEqual([0, 0, 0, 1, 2, 4, 8, 16, 32, 64]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    // An eleventh wrong PIN: held for 128 s.
    const eleventh = await post('/save', { 'security.current_pin': '000011' });
    expect(Number(eleventh.headers.get('retry-after'))).toBe(128);

    // Restart: a new portal (and limiter) on the same state file is still held.
    const kept = dir.join('config-restart.toml');
    fs.copyFileSync(h.file, kept);
    await h.close();
    h = await startPortal({
      file: kept,
      pinAttempts: createAttemptLimiter({ persist: { path: file, files }, now: () => now }),
    });
    const held = await post('/save', { 'security.current_pin': OWNER_PIN });
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBe(128);
    // PC Link shares the counter: the same lock answers it.
    const pcLink = createAttemptLimiter({ persist: { path: file, files }, now: () => now });
    const record = h.settings.current().security.device_password;
    expect(await slaveVerifyDevPasswd(OWNER_PIN, record, () => {}, pcLink)).toMatchObject({
      result: 0,
      reason: 'locked',
    });
    // Once it has passed, the right PIN resets the count.
    now += 128_000;
    expect((await post('/save', { 'security.current_pin': OWNER_PIN })).status).toBe(200);
    expect(await pcLink.status()).toEqual({ failures: 0, retryAfterMs: 0 });
  });

  it('wrong PINs on PC Link lock the portal too', async () => {
    let now = 1_000_000;
    const file = dir.join('attempts-pclink.json');
    await withPin({ pinAttempts: createAttemptLimiter({ persist: { path: file, files }, now: () => now }) });
    const record = h.settings.current().security.device_password;
    const pcLink = createAttemptLimiter({ persist: { path: file, files }, now: () => now });
    for (const guess of ['0000', '1111', '2222', '3333'])
      expect(await slaveVerifyDevPasswd(guess, record, () => {}, pcLink)).toMatchObject({
        reason: 'wrong-password',
      });
    const res = await post('/save', { 'security.current_pin': OWNER_PIN });
    expect(res.status).toBe(429);
    now += 1000;
    expect((await post('/save', { 'security.current_pin': OWNER_PIN })).status).toBe(200);
  });

  it('trying all 10 000 four-digit PINs takes more than a year (it took 141 s)', async () => {
    let now = 0;
    const limiter = createAttemptLimiter({ now: () => now });
    const secret = '9999';
    let tries = 0;
    const grows: number[] = [];
    for (let guess = 0; guess < 10_000; ) {
      const pin = String(guess).padStart(4, '0');
      const r = await limiter.attempt(async () => pin === secret);
      if (r.ok) break;
      if (r.reason === 'locked') {
        now += r.retryAfterMs; // the attacker waits exactly as long as it must
        continue;
      }
      tries++;
      guess++;
      if (grows.length < 16) grows.push(r.retryAfterMs);
    }
    expect(tries).toBe(9999);
    expect(grows).toEqual([
      0,
      0,
      0,
      1_000,
      2_000,
      4_000,
      8_000,
      16_000,
      32_000,
      64_000,
      128_000,
      256_000,
      512_000,
      1_024_000,
      2_048_000,
      PIN_MAX_DELAY_MS,
    ]);
    const days = now / 86_400_000;
    expect(days).toBeGreaterThan(365);
    expect(backoffDelay(10_000)).toBe(PIN_MAX_DELAY_MS);
  });

  it('an unreadable state file never reads as "no failures"', async () => {
    const file = dir.join('attempts-broken.json');
    fs.writeFileSync(file, '{"version":1,"failures":"', { mode: 0o600 });
    const limiter = createAttemptLimiter({ persist: { path: file, files } });
    expect((await limiter.status()).retryAfterMs).toBeGreaterThan(0);
    expect(await limiter.attempt(async () => true)).toMatchObject({ ok: false, reason: 'locked' });
  });

  it('parallel guesses are checked one at a time, so none slips into the free window', async () => {
    const limiter = createAttemptLimiter({ now: () => 0 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => limiter.attempt(async () => String(i) === 'never')),
    );
    expect(results.filter((r) => !r.ok && r.reason === 'wrong')).toHaveLength(4);
    expect(results.filter((r) => !r.ok && r.reason === 'locked')).toHaveLength(16);
  });
});

describe('the PIN hash runs off the event loop', () => {
  it('the event loop keeps turning while a PIN is being checked', async () => {
    h = await startPortal();
    // A record with 2 000 000 iterations: a second or more of hashing.
    const slow = createPinRecord(OWNER_PIN, { iterations: 2_000_000 });
    const current = h.settings.current();
    current.security.device_password = slow;
    await h.settings.save(current);
    // The portal and this test share one event loop: a timer every 10 ms shows how long it stalls.
    let last = performance.now();
    let worst = 0;
    const ticker = setInterval(() => {
      const t = performance.now();
      worst = Math.max(worst, t - last);
      last = t;
    }, 10);
    const started = performance.now();
    const res = await post('/save', { 'security.current_pin': OWNER_PIN });
    const took = performance.now() - started;
    clearInterval(ticker);
    expect(res.status).toBe(200);
    // The same work done synchronously, as the old path did: the loop would stand still that long.
    const t0 = performance.now();
    verifyPin(OWNER_PIN, slow);
    const syncMs = performance.now() - t0;
    expect(syncMs).toBeGreaterThan(100);
    // The portal did check the slow record (about as long as the sync hash, or longer under load) …
    expect(took).toBeGreaterThan(syncMs / 2);
    // … and off the loop, no stall came near the time the sync hash holds it.
    expect(worst).toBeLessThan(syncMs / 3);
  });

  it('the records are the ones @waved/psk makes and checks', async () => {
    const salt = Buffer.alloc(16, 7);
    expect(await createPinRecordAsync('0731', { iterations: 1000, salt })).toBe(
      createPinRecord('0731', { iterations: 1000, salt }),
    );
    const record = await createPinRecordAsync('0731', { iterations: 1000 });
    expect(verifyPin('0731', record)).toBe(true);
    expect(await verifyPinAsync('0731', record)).toBe(true);
    expect(await verifyPinAsync('0732', record)).toBe(false);
    expect(await verifyPinAsync('07310', record)).toBe(false);
    await expect(verifyPinAsync('0731', 'pin1$4$1000$AAAA$BBBB')).rejects.toThrow();
  });
});
