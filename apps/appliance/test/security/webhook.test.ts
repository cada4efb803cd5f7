import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/log/logger.js';
import { runWebhookSetupTest, sendWebhook, signWebhook, webhookOrigin } from '../../src/domain/webhook.js';
import { type Harness, startPortal, urlencoded, validFields } from '../portal/harness.js';

/**
 * Attack: anyone on the setup network posts /save with only `webhook.url` changed to a listener of
 * theirs. The empty secret field meant "keep", and after the reconnect the device sent
 * `x-webhook-secret: <secret>` to the new URL: the listener had the owner's secret within a second.
 * The listener here is a real HTTP server on loopback; the device's side is the portal and the
 * setup test the appliance runs after a save (with plain http allowed to loopback, as in the
 * simulator, so that nothing but the fix stops the theft).
 */
const SECRET = 'owner-secret-0123456789abcdef';
const JSON_FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };

interface Received {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

async function listener(
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_q, r) => r.end('ok'),
) {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks) });
      answer(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    got,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let h: Harness;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  await h?.close();
});

function save(fields: Record<string, string>) {
  return fetch(new URL('/save', h.url), {
    method: 'POST',
    headers: JSON_FORM,
    body: urlencoded(validFields(fields)),
  });
}
const config = () => parse(fs.readFileSync(h.file, 'utf8')) as { webhook: { url: string; secret: string } };
const quiet = createLogger({ write: () => {} }).logger;

describe('webhook secret theft through a url-only save', () => {
  it('the attacker’s listener never receives the owner’s secret', async () => {
    h = await startPortal({ webhookHttp: 'loopback' });
    const owner = await listener();
    const attacker = await listener();
    cleanups.push(owner.close, attacker.close);
    // The owner sets the webhook with its secret.
    expect((await save({ 'webhook.url': owner.url, 'webhook.secret': SECRET })).status).toBe(200);
    // Someone else on the setup network changes only the URL.
    const res = await save({ 'webhook.url': attacker.url });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, cleared: ['webhook.secret'] });
    expect(config().webhook).toEqual({ url: attacker.url, secret: '' });
    // After the reconnect the device sends its setup test to the configured webhook.
    expect(await runWebhookSetupTest(h.settings.current(), quiet, { http: 'loopback' })).toBe(true);
    expect(attacker.got).toHaveLength(1);
    const seen = JSON.stringify(attacker.got[0]!.headers) + attacker.got[0]!.body.toString('latin1');
    expect(seen).not.toContain(SECRET);
    expect(attacker.got[0]!.headers['x-webhook-signature']).toBeUndefined();
    expect(owner.got).toHaveLength(0);
  });

  it('the owner re-entering the secret with the new URL gets signed requests; the secret never travels', async () => {
    h = await startPortal({ webhookHttp: 'loopback' });
    const hook = await listener();
    cleanups.push(hook.close);
    expect((await save({ 'webhook.url': hook.url, 'webhook.secret': SECRET })).status).toBe(200);
    expect(config().webhook.secret).toBe(SECRET);
    const before = Math.floor(Date.now() / 1000);
    expect(await runWebhookSetupTest(h.settings.current(), quiet, { http: 'loopback' })).toBe(true);
    const { headers, body } = hook.got[0]!;
    expect(JSON.stringify(headers) + body.toString('latin1')).not.toContain(SECRET);
    // The receiver's check, as docs/settings.md describes it.
    const timestamp = Number(headers['x-webhook-timestamp']);
    expect(Math.abs(timestamp - before)).toBeLessThanOrEqual(5);
    const expected = createHmac('sha256', SECRET).update(`${timestamp}.`).update(body).digest('hex');
    const given = String(headers['x-webhook-signature']);
    expect(given).toBe(`sha256=${expected}`);
    expect(timingSafeEqual(Buffer.from(given), Buffer.from(`sha256=${expected}`))).toBe(true);
    expect(headers['x-webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
    // The body the signature covers is the multipart event.
    const form = await new Response(body, {
      headers: { 'content-type': String(headers['content-type']) },
    }).formData();
    expect(form.get('event')).toBe('setup-test');
    // A changed body does not verify.
    expect(signWebhook(SECRET, timestamp, Buffer.concat([body, Buffer.from('x')]))).not.toBe(given);
  });
});

describe('https only unless the device maker allows http', () => {
  it('the portal refuses an http webhook by default; the device never sends to one', async () => {
    h = await startPortal();
    const res = await save({ 'webhook.url': 'http://hooks.example/in', 'webhook.secret': SECRET });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: Record<string, string> }).errors['webhook.url']).toMatch(/https/);
    expect(fs.existsSync(h.file)).toBe(false);
    const hook = await listener();
    cleanups.push(hook.close);
    await expect(sendWebhook({ url: hook.url, secret: '' }, { event: 'x' })).rejects.toThrow(/not allowed/);
    expect(hook.got).toHaveLength(0);
    // Loopback-only http is not any http.
    await expect(
      sendWebhook({ url: 'http://192.0.2.1/in', secret: '' }, { event: 'x' }, { http: 'loopback' }),
    ).rejects.toThrow(/not allowed/);
  });

  it('a redirect is not followed (not to http, not anywhere)', async () => {
    const target = await listener();
    const redirecting = await listener((_req, res) => {
      res.writeHead(307, { location: target.url });
      res.end();
    });
    cleanups.push(target.close, redirecting.close);
    const status = await sendWebhook(
      { url: redirecting.url, secret: SECRET },
      { event: 'x' },
      { http: 'loopback' },
    );
    expect(status).toBe(307);
    expect(target.got).toHaveLength(0);
  });
});

describe('the portal shows the webhook URL up to its host only', () => {
  it('GET / never carries the path or query of a Slack- or Discord-style hook, and an unchanged form keeps it', async () => {
    h = await startPortal();
    const hook = 'https://hooks.slack.com/services/T0AAAAAAA/B0BBBBBBB/XXXXsecretTOKENxxxx?x=1';
    expect((await save({ 'webhook.url': hook, 'webhook.secret': SECRET })).status).toBe(200);
    const html = await (await fetch(h.url)).text();
    expect(html).not.toContain('services/T0AAAAAAA');
    expect(html).not.toContain('XXXXsecretTOKENxxxx');
    expect(html).toContain(webhookOrigin(hook));
    expect(html).toContain('https://hooks.slack.com/…');
    expect(html).toMatch(/id="f-webhook-url" name="webhook.url" value=""/);
    // Posting the form back as it was rendered (empty URL field) keeps the webhook and its secret.
    expect((await save({ 'webhook.url': '' })).status).toBe(200);
    expect(config().webhook).toEqual({ url: hook, secret: SECRET });
    // The box removes it.
    expect((await save({ 'webhook.url': '', 'webhook.url_clear': 'true' })).status).toBe(200);
    expect(config().webhook).toEqual({ url: '', secret: '' });
  });

  it('the log names the webhook by its origin only', async () => {
    const lines: string[] = [];
    const { logger } = createLogger({ write: (l) => lines.push(l) });
    const hook = await listener();
    cleanups.push(hook.close);
    const settings = (await import('../../src/domain/settings/index.js')).defaultSettings();
    settings.webhook = { url: `${hook.url}/T0AAAA/XXXXsecretTOKEN`, secret: SECRET };
    await runWebhookSetupTest(settings, logger, { http: 'loopback' });
    expect(lines.join('')).toContain(webhookOrigin(hook.url));
    expect(lines.join('')).not.toContain('XXXXsecretTOKEN');
  });
});
