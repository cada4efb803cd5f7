import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { richText } from '../../src/domain/portal/html.js';
import { escapeHtml } from '../../src/domain/portal/index.js';
import { createAttemptLimiter } from '../../src/domain/security/attempts.js';
import { webhookOrigin } from '../../src/domain/webhook.js';
import { LOCALES, message, translator } from '../../src/i18n/index.js';
import { CSRF, fileExists, type Harness, startPortal, urlencoded, validFields } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startPortal({ expiresAt: Date.now() + 200_000 });
});
afterEach(async () => {
  await h.close();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function get(path: string, acceptLanguage?: string): Promise<Response> {
  return fetch(new URL(path, h.url), {
    headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage },
    redirect: 'manual',
  });
}

function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(new URL(path, h.url), {
    method: 'POST',
    body: urlencoded(fields),
    headers: { ...FORM, ...headers },
    redirect: 'manual',
  });
}

const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1];
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe('the portal negotiates its language from Accept-Language', () => {
  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['fr;q=0.5, de;q=0.9', 'de'],
    ['pt-BR,pt;q=0.9', 'pt'],
    ['pt-PT', 'pt'],
    ['sv-SE, nb;q=0.9, ja;q=0.2', 'ja'],
    ['zh-Hans-CN', 'zh-CN'],
    ['zh-TW, en;q=0.5', 'en'],
    ['ja;q=0, fr', 'fr'],
    ['sv, fi', 'en'],
    ['*', 'en'],
    ['', 'en'],
    ['de;q=2, nl;q=abc, it', 'it'],
  ])('%j → %s', async (header, lang) => {
    const res = await get('/', header);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(langOf(html)).toBe(lang);
    expect(titleOf(html)).toBe(translator(lang).t('portal.form.title', { ssid: 'Device-3F2A' }));
    expect(res.headers.get('vary')).toMatch(/accept-language/i);
  });

  it('without any Accept-Language the portal is English', async () => {
    const html = await (await get('/')).text();
    expect(langOf(html)).toBe('en');
  });

  it('a header of hostile length or content still gives a page, in English', async () => {
    // Node's HTTP server refuses headers over 16 KiB itself; the reader stops at 4 KiB and 32 ranges.
    for (const header of [
      `${'xx-yy;q=0.5, '.repeat(700)}de`,
      'de;q=1;q=0;;,,,;',
      '\u00e4\u00f6\u00fc-DE',
      `${'a-'.repeat(4000)}de`,
    ]) {
      const res = await get('/', header);
      expect(res.status).toBe(200);
      expect(langOf(await res.text())).toBe('en');
    }
  });

  it('the result pages, the status page and the JSON errors follow the header too', async () => {
    const fr = translator('fr');
    const status = await (await get('/status', 'fr-CA')).text();
    expect(titleOf(status)).toBe(fr.t('portal.status.title'));

    const bad = await post('/save', validFields({ 'audio.volume': '101' }), { 'accept-language': 'fr-CA' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain(fr.text(message('error.number', { min: 0, max: 100 })));

    const json = await post('/save', validFields({ 'audio.volume': '101' }), {
      'accept-language': 'pl',
      accept: 'application/json',
    });
    expect(await json.json()).toEqual({
      errors: { 'audio.volume': translator('pl').text(message('error.number', { min: 0, max: 100 })) },
    });

    const saved = await (await post('/save', validFields(), { 'accept-language': 'nl' })).text();
    expect(titleOf(saved)).toBe(translator('nl').t('portal.saved.title'));
  });
});

describe('a language link overrides Accept-Language, without cookies', () => {
  it('every page offers every language, each a link to the same page with ?lang=', async () => {
    const html = await (await get('/', 'de')).text();
    const links = [...html.matchAll(/<a href="([^"]*)" hreflang="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    expect(links).toEqual(LOCALES.map((l) => [`/?lang=${encodeURIComponent(l.tag)}`, l.tag]));
    expect(html).toContain('aria-current="true">Deutsch</a>');
    const status = await (await get('/status', 'de')).text();
    expect(status).toContain('<a href="/status?lang=ja" hreflang="ja"');
  });

  it('?lang= wins over the header, and the form posts back with it', async () => {
    const res = await get('/?lang=ja', 'de-DE,de;q=0.9');
    const html = await res.text();
    expect(langOf(html)).toBe('ja');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(html).toContain('<form method="post" action="/save-connect?lang=ja"');
    expect(html).toContain('formaction="/save?lang=ja"');
    // The language's own tag only: pt-BR is served (and carried) as pt.
    const pt = await (await get('/?lang=pt-BR', 'de')).text();
    expect(langOf(pt)).toBe('pt');
    expect(pt).toContain('action="/save-connect?lang=pt"');
  });

  it('a ?lang= with no catalog, or hostile, is ignored and never echoed', async () => {
    for (const asked of ['xx-unknown', '<i>q</i>', '"onmouseover="1', 'de"><b>b', 'q'.repeat(500)]) {
      const html = await (await get(`/?lang=${encodeURIComponent(asked)}`, 'it')).text();
      expect(langOf(html)).toBe('it');
      expect(html).toContain('action="/save-connect"');
      expect(html).not.toContain(asked);
      expect(html).not.toContain(encodeURIComponent(asked));
    }
  });

  it('errors, the save result and its refresh to /status keep the chosen language', async () => {
    const ja = translator('ja');
    const bad = await post('/save-connect?lang=ja', validFields({ 'wifi.passphrase': '' }), {
      'accept-language': 'de',
    });
    expect(bad.status).toBe(422);
    const badHtml = await bad.text();
    expect(langOf(badHtml)).toBe('ja');
    expect(badHtml).toContain(ja.t('error.wifi.passwordMissing'));
    expect(badHtml).toContain('action="/save-connect?lang=ja"');
    expect(fileExists(h)).toBe(false);

    const ok = await post('/save-connect?lang=ja', validFields(), { 'accept-language': 'de' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('set-cookie')).toBeNull();
    const okHtml = await ok.text();
    expect(titleOf(okHtml)).toBe(ja.t('portal.saved.title'));
    expect(okHtml).toContain('<meta http-equiv="refresh" content="3;url=/status?lang=ja">');

    h.setState({ state: 'Connecting', ssid: 'Home <5G>' });
    const status = await (await get('/status?lang=ja', 'de')).text();
    expect(langOf(status)).toBe('ja');
    expect(status).toContain('<meta http-equiv="refresh" content="3;url=/status?lang=ja">');
  });

  it('the CSRF check and the busy check answer in the chosen language and keep it in their links', async () => {
    const es = translator('es');
    const expired = await post('/save?lang=es', validFields({ csrf: 'wrong' }), { 'accept-language': 'de' });
    expect(expired.status).toBe(400);
    const html = await expired.text();
    expect(titleOf(html)).toBe(es.t('portal.expired.title'));
    expect(html).toContain(`href="/?lang=es">${es.t('portal.reloadForm')}</a>`);
    expect(fileExists(h)).toBe(false);
    // The token is still required: a language in the address does not stand in for it.
    const missing = await post('/save?lang=es', { ...validFields(), csrf: '' });
    expect(missing.status).toBe(400);
    expect(CSRF).not.toBe('');

    h.setState({ state: 'Connecting', ssid: 'Home <5G>' });
    const busy = await post('/save-connect?lang=es', validFields());
    expect(busy.status).toBe(409);
    expect(await busy.text()).toContain(`href="/status?lang=es">${es.t('portal.showStatus')}</a>`);
  });

  it('captive probes are redirected to the plain portal address, whatever ?lang= they carry', async () => {
    for (const path of ['/generate_204', '/hotspot-detect.html?lang=de', '/connecttest.txt']) {
      const res = await get(path, 'de');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('http://192.168.2.1/');
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(await res.text()).toBe('');
    }
  });
});

describe('the PIN, stale-form and webhook answers in the reader’s language', () => {
  const OWNER_PIN = '482913';

  /** Sets the owner's PIN through the portal, as the first save of a new device does. */
  async function setPin(): Promise<void> {
    const res = await post('/save', validFields({ 'security.device_password': OWNER_PIN }));
    expect(res.status).toBe(200);
  }

  it('the current-PIN field, and a save without it, in German; the JSON refusal in Japanese', async () => {
    await setPin();
    const de = translator('de');
    const form = await (await get('/', 'de-AT,de;q=0.9')).text();
    expect(form).toContain(`>${escapeHtml(de.t('portal.currentPin.label'))}</label>`);
    expect(form).toContain(escapeHtml(de.t('portal.currentPin.hint')));
    expect(form).toContain(`>${escapeHtml(de.t('field.security.device_password.remove'))}</label>`);

    const before = fs.readFileSync(h.file);
    const missing = await post('/save', validFields({ 'device.name': 'Owned' }), { 'accept-language': 'de' });
    expect(missing.status).toBe(422);
    const html = await missing.text();
    expect(langOf(html)).toBe('de');
    expect(html).toContain(escapeHtml(de.t('error.currentPin.missing')));
    expect(html).toContain(escapeHtml(de.t('portal.errors.summary', { count: 1 })));

    const json = await post('/save', validFields({ 'security.current_pin': '12' }), {
      'accept-language': 'ja',
      accept: 'application/json',
    });
    expect(json.status).toBe(422);
    expect(await json.json()).toEqual({
      errors: {
        'security.current_pin': translator('ja').t('error.currentPin.invalid', { min: 4, max: 6 }),
      },
    });
    expect(fs.readFileSync(h.file)).toEqual(before);
  });

  it('a wrong PIN (422) and the held counter (429) give their wait in the chosen language, as Retry-After does', async () => {
    await h.close();
    let now = Date.parse('2026-01-01T00:00:00Z');
    h = await startPortal({
      expiresAt: Date.now() + 200_000,
      pinAttempts: createAttemptLimiter({ now: () => now }),
    });
    await setPin();
    const pl = translator('pl');
    const wrong = (pin: string) =>
      post('/save?lang=pl', validFields({ 'security.current_pin': pin }), { 'accept-language': 'de' });

    const first = await wrong('000000');
    expect(first.status).toBe(422);
    expect(first.headers.get('retry-after')).toBeNull();
    expect(await first.text()).toContain(escapeHtml(pl.t('error.currentPin.wrong')));
    await wrong('000001');
    await wrong('000002');
    // The fourth wrong PIN starts the backoff: the refusal says how long, in Polish.
    const fourth = await wrong('000003');
    expect(fourth.status).toBe(422);
    const wait = Number(fourth.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    const fourthHtml = await fourth.text();
    expect(langOf(fourthHtml)).toBe('pl');
    expect(fourthHtml).toContain(escapeHtml(pl.t('error.currentPin.wrongWait', { wait })));

    // While it holds, even the right PIN is refused with 429, in the language of the link.
    const held = await wrong(OWNER_PIN);
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBe(wait);
    const heldHtml = await held.text();
    expect(heldHtml).toContain(escapeHtml(pl.t('error.currentPin.locked', { wait })));
    expect(heldHtml).toContain('action="/save-connect?lang=pl"');
    // The same wait, read in Japanese (JSON).
    const heldJson = await post('/save', validFields({ 'security.current_pin': OWNER_PIN }), {
      'accept-language': 'ja',
      accept: 'application/json',
    });
    expect(heldJson.status).toBe(429);
    expect(await heldJson.json()).toEqual({
      errors: { 'security.current_pin': translator('ja').t('error.currentPin.locked', { wait }) },
    });

    now += wait * 1000;
    expect((await wrong(OWNER_PIN)).status).toBe(200);
  });

  it('a form loaded before another save is refused with 409 and the notice in its language', async () => {
    const ja = translator('ja');
    const form = await (await get('/', 'ja')).text();
    const revision = /name="settings.revision" value="([^"]*)"/.exec(form)?.[1];
    expect(revision).toBeDefined();
    expect((await post('/save', validFields({ 'device.name': 'Kitchen' }))).status).toBe(200);

    const stale = await post(
      '/save',
      validFields({ 'settings.revision': revision!, 'device.name': 'Hall' }),
      {
        'accept-language': 'ja',
      },
    );
    expect(stale.status).toBe(409);
    const html = await stale.text();
    expect(langOf(html)).toBe('ja');
    expect(html).toContain(escapeHtml(ja.t('portal.stale')));
    expect(h.settings.current().device.name).toBe('Kitchen');

    const json = await post('/save', validFields({ 'settings.revision': revision!, 'device.name': 'Hall' }), {
      'accept-language': 'it',
      accept: 'application/json',
    });
    expect(json.status).toBe(409);
    expect(await json.json()).toEqual({ error: 'stale', message: translator('it').t('portal.stale') });
  });

  it('the write-only webhook URL, its removal box and the removed-secret note, in French', async () => {
    const fr = translator('fr');
    const hook = 'https://hooks.example/services/T0AAAA/XXXXsecretTOKEN';
    const secret = 'a-webhook-secret-of-some-length';
    expect((await post('/save', validFields({ 'webhook.url': hook, 'webhook.secret': secret }))).status).toBe(
      200,
    );
    const form = await (await get('/', 'fr-BE')).text();
    expect(form).toContain(
      richText(fr, message('portal.webhook.now', { url: '' }), {
        url: `<strong>${escapeHtml(webhookOrigin(hook))}</strong>`,
      }),
    );
    expect(form).not.toContain('XXXXsecretTOKEN');
    expect(form).toContain(`>${escapeHtml(fr.t('field.webhook.url.remove'))}</label>`);
    expect(form).toContain(`>${escapeHtml(fr.t('field.webhook.secret.remove'))}</label>`);

    const https = await post('/save', validFields({ 'webhook.url': 'http://hooks.example/in' }), {
      'accept-language': 'fr',
    });
    expect(https.status).toBe(422);
    expect(await https.text()).toContain(escapeHtml(fr.t('error.webhook.http')));

    const moved = await post('/save', validFields({ 'webhook.url': 'https://other.example/in' }), {
      'accept-language': 'fr',
    });
    expect(moved.status).toBe(200);
    expect(await moved.text()).toContain(escapeHtml(fr.t('portal.saved.secretCleared')));
    expect(h.settings.current().webhook.secret).toBe('');
  });
});
