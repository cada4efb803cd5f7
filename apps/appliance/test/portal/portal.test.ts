import fs from 'node:fs';
import http from 'node:http';
import { verifyPin } from '@waved/psk';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AP_PASSPHRASE,
  CSRF,
  fileExists,
  type Harness,
  hex,
  multipart,
  startPortal,
  urlencoded,
  validFields,
} from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startPortal({ expiresAt: Date.now() + 200_000 });
});
afterEach(async () => {
  await h.close();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function post(path: string, body: string | FormData, headers: Record<string, string> = FORM) {
  return fetch(new URL(path, h.url), {
    method: 'POST',
    body,
    headers:
      body instanceof FormData
        ? Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'content-type'))
        : headers,
    redirect: 'manual',
  });
}

function readConfig(): Record<string, Record<string, unknown>> {
  return parse(fs.readFileSync(h.file, 'utf8')) as Record<string, Record<string, unknown>>;
}

describe('GET / (the form)', () => {
  it('shows the cached networks strongest first, once each, with signal, lock and a hidden entry', async () => {
    const res = await fetch(h.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    const names = [...html.matchAll(/<span class="ssid">([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(names).toEqual(['Home &lt;5G&gt;', 'Cafe', 'Büro 2.4', 'Guest', 'Other (hidden) network…']);
    // Listed networks are posted by their SSID bytes.
    const values = [...html.matchAll(/name="wifi\.ssid_hex" value="([^"]*)"/g)].map((m) => m[1]);
    expect(values).toEqual([hex('Home <5G>'), hex('Cafe'), hex('Büro 2.4'), hex('Guest'), '']);
    expect(html).not.toContain('Home <5G>');
    expect(html).toMatch(new RegExp(`value="${hex('Cafe')}"[^>]*>.*?Good</span>`, 's'));
    expect(html).toMatch(new RegExp(`value="${hex('Guest')}" disabled>.*?Open network, not supported`, 's'));
    expect(html.match(/aria-label="Secured"/g)).toHaveLength(3);
    expect(html).toContain('name="wifi.hidden_ssid"');
    expect(html).toContain(`name="csrf" value="${CSRF}"`);
    expect(html).toMatch(/class="countdown" data-remaining="(19\d|200)">03:[12]\d</);
    for (const group of ['device', 'audio', 'webhook', 'storage', 'security', 'ntp'])
      expect(html).toContain(`id="group-${group}"`);
    // No external assets, and every input has a label.
    expect(html).not.toMatch(/(src|href)="https?:/);
    const ids = [...html.matchAll(/<(?:input|select)[^>]* id="([^"]+)"/g)].map((m) => m[1]);
    for (const id of ids) expect(html, id).toContain(`for="${id}"`);
    // The AP passphrase is never served to the phone.
    expect(html).not.toContain(AP_PASSPHRASE);
  });

  it('answers HEAD / with the headers only', async () => {
    const res = await fetch(h.url, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('answers 503 when no provisioning session runs', async () => {
    h.session = null;
    const res = await fetch(h.url);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('Setup is not active');
    const post1 = await post('/save', urlencoded(validFields()));
    expect(post1.status).toBe(503);
    expect(fileExists(h)).toBe(false);
  });
});

describe('captive redirects', () => {
  const probes = [
    '/generate_204',
    '/gen_204',
    '/hotspot-detect.html',
    '/connecttest.txt',
    '/ncsi.txt',
    '/canonical.html',
    '/success.txt',
    '/library/test/success.html',
    '/favicon.ico',
    '/save',
  ];
  it.each(probes)('GET %s → 302 to http://192.168.2.1/, never an "online" answer', async (path) => {
    const res = await fetch(new URL(path, h.url), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://192.168.2.1/');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe('');
  });

  it('HEAD of a probe is redirected too', async () => {
    const res = await fetch(new URL('/hotspot-detect.html', h.url), { method: 'HEAD', redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://192.168.2.1/');
  });

  it('GET / for another host name (a probe of "/") is redirected to the gateway', async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(
        new URL('/', h.url),
        { headers: { host: 'connectivitycheck.gstatic.com' } },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
    res.resume();
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('http://192.168.2.1/');
  });

  it('other methods get 405', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(new URL('/x', h.url), { method });
      expect(res.status, method).toBe(405);
    }
    expect((await post('/', urlencoded(validFields()))).status).toBe(405);
    expect(fileExists(h)).toBe(false);
  });
});

describe('POST CSRF', () => {
  it.each([
    ['missing', {}],
    ['wrong', { csrf: `${CSRF.slice(0, -1)}B` }],
    ['empty', { csrf: '' }],
    ['shorter', { csrf: CSRF.slice(0, 10) }],
  ])('%s token → 400 and nothing written, no command sent', async (_, override) => {
    const fields = validFields();
    delete (fields as Record<string, string | undefined>).csrf;
    for (const path of ['/save', '/save-connect']) {
      const res = await post(path, urlencoded({ ...fields, ...override }));
      expect(res.status, path).toBe(400);
      expect(await res.text()).toContain('Nothing was saved');
    }
    expect(fileExists(h)).toBe(false);
    expect(h.commands).toEqual([]);
  });

  it.each([
    ['no token', {}, {}],
    ['a wrong token in the body', { csrf: `${CSRF.slice(0, -1)}B` }, {}],
    ['a wrong X-CSRF-Token header', {}, { 'x-csrf-token': `${CSRF.slice(0, -1)}B` }],
  ])(
    'asking for JSON changes nothing: %s → 400 and nothing written, no command sent',
    async (_, override, extra) => {
      // A cross-site page can send Accept: application/json (a CORS-safelisted header) with fetch().
      const fields = validFields();
      delete (fields as Record<string, string | undefined>).csrf;
      for (const path of ['/save', '/save-connect']) {
        for (const body of [urlencoded({ ...fields, ...override }), multipart({ ...fields, ...override })]) {
          const res = await post(path, body, { ...FORM, accept: 'application/json', ...extra });
          expect(res.status, path).toBe(400);
          expect(await res.json()).toEqual({ error: 'csrf' });
        }
      }
      expect(fileExists(h)).toBe(false);
      expect(h.commands).toEqual([]);
    },
  );

  it('accepts the token in the X-CSRF-Token header', async () => {
    const fields = validFields();
    delete (fields as Record<string, string | undefined>).csrf;
    const res = await post('/save', urlencoded(fields), {
      ...FORM,
      'x-csrf-token': CSRF,
      accept: 'application/json',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(fileExists(h)).toBe(true);
  });

  it('a token from an older session is refused', async () => {
    h.session = { ...h.session!, csrf: 'bmV3LXNlc3Npb24tdG9rZW4tMzItYnl0ZXMtYmFzZTY0dXJs' };
    const res = await post('/save-connect', urlencoded(validFields()));
    expect(res.status).toBe(400);
    expect(fileExists(h)).toBe(false);
  });
});

describe('POST body limit', () => {
  it('a 33 KiB body → 413 and nothing written', async () => {
    const res = await post('/save', urlencoded(validFields({ 'device.name': 'x'.repeat(33 * 1024) })));
    expect(res.status).toBe(413);
    expect(fileExists(h)).toBe(false);
    expect(h.commands).toEqual([]);
  });

  it('a chunked 33 KiB body without Content-Length is cut off while streaming → 413', async () => {
    const chunk = new TextEncoder().encode(`csrf=${CSRF}&device.name=${'y'.repeat(1024)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 33 * 1024) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(new URL('/save', h.url), {
      method: 'POST',
      body,
      headers: FORM,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(fileExists(h)).toBe(false);
  });

  it('a body just under 32 KiB is accepted', async () => {
    const base = urlencoded(validFields());
    const pad = 32 * 1024 - base.length - '&pad='.length;
    const res = await post('/save', `${base}&pad=${'z'.repeat(pad)}`);
    expect(res.status).toBe(200);
  });

  it('another content type → 415', async () => {
    const res = await post('/save', JSON.stringify(validFields()), { 'content-type': 'application/json' });
    expect(res.status).toBe(415);
    expect(fileExists(h)).toBe(false);
  });
});

describe('POST validation', () => {
  it('invalid fields → 422, the form again with a message tied to each field, nothing written', async () => {
    const res = await post(
      '/save-connect',
      urlencoded(
        validFields({
          'wifi.passphrase': 'short',
          'audio.volume': '250',
          'webhook.url': 'javascript:alert(1)',
          'webhook.secret': 'tiny-secret',
          'security.device_password': '12',
          'device.name': 'Kept <name>',
        }),
      ),
    );
    expect(res.status).toBe(422);
    const html = await res.text();
    for (const key of [
      'wifi-passphrase',
      'audio-volume',
      'webhook-url',
      'webhook-secret',
      'security-device_password',
    ]) {
      expect(html, key).toMatch(
        new RegExp(`id="f-${key}"[^>]*aria-describedby="[^"]*f-${key}-err"[^>]*aria-invalid="true"`),
      );
      expect(html, key).toContain(`<p class="err" id="f-${key}-err">`);
    }
    expect(html).toContain('Enter a whole number from 0 to 100.');
    expect(html).toContain('The PIN must be 4 to 6 digits');
    expect(html).toMatch(/role="alert"[^>]*>.*Nothing was saved/s);
    // Non-secret input survives; the network choice too.
    expect(html).toContain('value="Kept &lt;name&gt;"');
    expect(html).toContain(`value="${hex('Home <5G>')}" checked`);
    // Secrets are never echoed back.
    expect(html).not.toContain('short"');
    expect(html).not.toContain('tiny-secret');
    expect(html).not.toMatch(/value="12"/);
    expect(fileExists(h)).toBe(false);
    expect(h.commands).toEqual([]);
  });

  it('answers JSON { errors } when asked for JSON', async () => {
    const res = await post(
      '/save-connect',
      urlencoded(validFields({ 'wifi.ssid_hex': '', 'wifi.hidden_ssid': '', 'ntp.servers': 'bad host!' })),
      { ...FORM, accept: 'application/json' },
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: Record<string, string> };
    expect(Object.keys(body.errors).sort()).toEqual(['ntp.servers', 'wifi.ssid']);
  });

  it('checks SSID length and passphrase rules for /save-connect only', async () => {
    const long = 'é'.repeat(17); // 34 bytes
    const cases: Array<[Record<string, string>, string]> = [
      [{ 'wifi.ssid_hex': '', 'wifi.hidden_ssid': long }, 'wifi.hidden_ssid'],
      [{ 'wifi.ssid_hex': '', 'wifi.ssid': long }, 'wifi.ssid'],
      [{ 'wifi.ssid_hex': hex(long) }, 'wifi.ssid'],
      [{ 'wifi.ssid_hex': hex('Not listed') }, 'wifi.ssid'],
      [{ 'wifi.ssid_hex': 'zz' }, 'wifi.ssid'],
      [{ 'wifi.passphrase': 'x'.repeat(64) }, 'wifi.passphrase'],
      [{ 'wifi.passphrase': 'pässwört123' }, 'wifi.passphrase'],
      [{ 'wifi.ssid_hex': hex('Guest') }, 'wifi.ssid'],
      [{ 'wifi.ssid_hex': '', 'wifi.ssid': 'Guest' }, 'wifi.ssid'],
    ];
    for (const [extra, key] of cases) {
      const res = await post('/save-connect', urlencoded(validFields(extra)), {
        ...FORM,
        accept: 'application/json',
      });
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(Object.keys(((await res.json()) as { errors: object }).errors)).toEqual([key]);
    }
    // /save ignores the Wi-Fi choice.
    const res = await post('/save', urlencoded(validFields({ 'wifi.passphrase': 'short' })));
    expect(res.status).toBe(200);
    expect(fileExists(h)).toBe(true);
  });
});

describe('POST success', () => {
  it('/save-connect (urlencoded) saves atomically first, then sends SettingsSaved with the network', async () => {
    let fileAtCommand: string | null = null;
    h.bus.on('command', () => {
      fileAtCommand = fs.readFileSync(h.file, 'utf8');
    });
    const res = await post('/save-connect', urlencoded(validFields({ 'security.device_password': '0731' })));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Connecting to “Home &lt;5G&gt;”');
    expect(html).toContain('<meta http-equiv="refresh" content="3;url=/status">');
    expect(html).not.toContain('correct horse battery');
    expect(fileAtCommand).not.toBeNull();
    expect(h.commands).toEqual([
      {
        type: 'SettingsSaved',
        connect: {
          ssid: 'Home <5G>',
          ssidHex: hex('Home <5G>'),
          passphrase: 'correct horse battery',
          hidden: false,
        },
      },
    ]);
    expect(fs.statSync(h.file).mode & 0o777).toBe(0o600);
    const doc = readConfig();
    expect(doc.device).toMatchObject({ name: 'Desk recorder', country: 'DE', timezone: 'Europe/Berlin' });
    expect(doc.audio).toEqual({ volume: 40, prompt_tones: true });
    expect(doc.wifi).toEqual({ country: 'DE' });
    const text = fs.readFileSync(h.file, 'utf8');
    expect(text).not.toContain('correct horse');
    expect(text).not.toContain('0731');
    expect(verifyPin('0731', String(doc.security?.device_password))).toBe(true);
    expect(h.logs.join('\n')).not.toMatch(/correct horse|0731/);
  });

  it('/save-connect as multipart/form-data with a hidden network works the same', async () => {
    const res = await post(
      '/save-connect',
      multipart(
        validFields({
          'wifi.ssid_hex': '',
          'wifi.hidden_ssid': 'Attic; "net"',
          'wifi.passphrase': 'a'.repeat(64).replace(/a/g, 'b'),
        }),
      ),
      { accept: 'application/json' },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(h.commands).toEqual([
      {
        type: 'SettingsSaved',
        connect: {
          ssid: 'Attic; "net"',
          ssidHex: hex('Attic; "net"'),
          passphrase: 'b'.repeat(64),
          hidden: true,
        },
      },
    ]);
    expect(readConfig().device?.name).toBe('Desk recorder');
  });

  it('non-ASCII and special-character SSIDs arrive intact (urlencoded and multipart)', async () => {
    const hidden = 'Ünïcødé ☕;,:"\\';
    for (const body of [
      urlencoded(validFields({ 'wifi.ssid_hex': hex('Büro 2.4') })),
      multipart(validFields({ 'wifi.ssid_hex': '', 'wifi.hidden_ssid': hidden })),
      // A script may still name a listed network by its shown name.
      urlencoded(validFields({ 'wifi.ssid_hex': '', 'wifi.ssid': 'Büro 2.4' })),
    ]) {
      const res = await post('/save-connect', body, { ...FORM, accept: 'application/json' });
      expect(res.status).toBe(200);
    }
    expect(h.commands.map((c) => (c.type === 'SettingsSaved' ? c.connect : null))).toEqual([
      { ssid: 'Büro 2.4', ssidHex: hex('Büro 2.4'), passphrase: 'correct horse battery', hidden: false },
      // The display form shows a backslash as \\ (lossless); the bytes are the typed text's.
      { ssid: 'Ünïcødé ☕;,:"\\\\', ssidHex: hex(hidden), passphrase: 'correct horse battery', hidden: true },
      { ssid: 'Büro 2.4', ssidHex: hex('Büro 2.4'), passphrase: 'correct horse battery', hidden: false },
    ]);
  });

  it('/save sends SettingsSaved without a network; booleans follow the hidden-field + checkbox pattern', async () => {
    const body = `${urlencoded(validFields({ 'audio.prompt_tones': 'false' }))}&audio.prompt_tones=true`;
    const res = await post('/save', body);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Your settings are saved.');
    expect(h.commands).toEqual([{ type: 'SettingsSaved' }]);
    expect(readConfig().audio?.prompt_tones).toBe(true);
  });

  it('secrets are write-only: the form after a save shows placeholders, never the values', async () => {
    await post(
      '/save',
      urlencoded(
        validFields({ 'webhook.secret': 'hook-secret-0123456789', 'security.device_password': '482913' }),
      ),
    );
    const html = await (await fetch(h.url)).text();
    expect(html).not.toContain('hook-secret-0123456789');
    expect(html).not.toContain('482913');
    expect(html).not.toContain('pin1$');
    expect(html).toMatch(/id="f-webhook-secret" name="webhook.secret" value="" placeholder="unchanged"/);
    expect(html).toMatch(
      /id="f-security-device_password" name="security.device_password" value="" placeholder="unchanged"/,
    );
    // Empty keeps them; _clear removes them (with the current PIN, which every save needs now).
    await post('/save', urlencoded(validFields({ 'security.current_pin': '482913' })));
    expect(readConfig().webhook?.secret).toBe('hook-secret-0123456789');
    await post(
      '/save',
      urlencoded(validFields({ 'security.device_password_clear': 'true', 'security.current_pin': '482913' })),
    );
    expect(readConfig().security?.device_password).toBe('');
    expect(readConfig().webhook?.secret).toBe('hook-secret-0123456789');
  });

  it('refuses a second connect while the device is connecting (409, nothing written)', async () => {
    h.setState({ state: 'Connecting', ssid: 'Home <5G>' });
    const res = await post('/save-connect', urlencoded(validFields()));
    expect(res.status).toBe(409);
    expect(fileExists(h)).toBe(false);
  });
});

describe('status', () => {
  it('shows Failed with an actionable reason and Try again, without the AP passphrase', async () => {
    h.setState({ state: 'Failed', reason: 'wrong-password', message: 'WRONG_KEY' });
    const page = await (await fetch(new URL('/status', h.url))).text();
    expect(page).toContain('The Wi-Fi password was not accepted');
    expect(page).toContain('<a href="/#wifi">Try again</a>');
    expect(page).not.toContain('http-equiv="refresh"');
    const form = await (await fetch(h.url)).text();
    expect(form).toContain('The Wi-Fi password was not accepted');
    const json = await (await fetch(new URL('/status.json', h.url))).json();
    expect(json).toMatchObject({ state: 'Failed', reason: 'wrong-password' });
  });

  it('after a failed attempt the form names the network and has it chosen again (Try again in the same session)', async () => {
    expect((await post('/save-connect', urlencoded(validFields()))).status).toBe(200);
    h.setState({ state: 'Connecting', ssid: 'Home <5G>' });
    h.setState({ state: 'Failed', reason: 'network-not-found', message: 'not found' });
    const form = await (await fetch(h.url)).text();
    expect(form).toContain('Could not connect to “Home &lt;5G&gt;”.');
    expect(form).toContain('The network was not found.');
    expect(form).toContain(`value="${hex('Home <5G>')}" checked`);
    expect(form).not.toContain('correct horse battery');
    h.commands.length = 0;
    const again = await post(
      '/save-connect',
      urlencoded(validFields({ 'wifi.passphrase': 'the right one' })),
    );
    expect(again.status).toBe(200);
    expect(h.commands).toEqual([
      {
        type: 'SettingsSaved',
        connect: { ssid: 'Home <5G>', ssidHex: hex('Home <5G>'), passphrase: 'the right one', hidden: false },
      },
    ]);
  });

  it('refreshes itself while connecting, and the JSON never carries the AP passphrase', async () => {
    const active = await (
      await fetch(new URL('/status', h.url), { headers: { accept: 'application/json' } })
    ).json();
    expect(active).toMatchObject({ state: 'ApActive', ssid: 'Device-3F2A' });
    expect(JSON.stringify(active)).not.toContain(AP_PASSPHRASE);
    h.setState({ state: 'Connecting', ssid: 'Home <5G>' });
    const page = await (await fetch(new URL('/status', h.url))).text();
    expect(page).toContain('<meta http-equiv="refresh" content="3;url=/status">');
    expect(page).toContain('Connecting to “Home &lt;5G&gt;”');
  });
});
