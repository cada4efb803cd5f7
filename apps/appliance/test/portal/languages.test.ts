import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
