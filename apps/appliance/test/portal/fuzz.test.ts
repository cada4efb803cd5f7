import { formatSsid, parseFormattedSsid } from '@waved/wpa-cli';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderForm } from '../../src/domain/portal/html.js';
import { escapeHtml, parseFormBody, readConnect } from '../../src/domain/portal/index.js';
import { defaultSettings } from '../../src/domain/settings/index.js';
import { LANGUAGE_TAGS, message, translator } from '../../src/i18n/index.js';

function request(body: Uint8Array, type: string): Request {
  return new Request('http://192.168.2.1/save', { method: 'POST', body, headers: { 'content-type': type } });
}

describe('form body parser on hostile input', () => {
  it('never throws and never returns more than it was given', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2048 }),
        fc.constantFrom(
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=XyZ',
          'multipart/form-data',
          'text/plain',
        ),
        async (bytes, type) => {
          const result = await parseFormBody(request(bytes, type), 1024);
          if (result.ok) {
            const total = Object.entries(result.fields).reduce((n, [k, v]) => n + k.length + v.length, 0);
            expect(total).toBeLessThanOrEqual(bytes.length * 3);
          } else {
            expect([400, 413, 415]).toContain(result.status);
            if (bytes.length > 1024 && type !== 'text/plain') expect(result.status).toBe(413);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('round-trips any fields through multipart and urlencoded alike', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc
            .string({ minLength: 1, maxLength: 12 })
            .filter((k) => !/[\0\r\n"%]/.test(k)) /* multipart escapes these in names */,
          fc.string({ maxLength: 40 }),
          {
            maxKeys: 6,
          },
        ),
        async (fields) => {
          const url = await parseFormBody(
            request(
              new TextEncoder().encode(new URLSearchParams(fields).toString()),
              'application/x-www-form-urlencoded',
            ),
          );
          const form = new FormData();
          for (const [k, v] of Object.entries(fields)) form.append(k, v);
          const encoded = new Request('http://x/', { method: 'POST', body: form });
          const multi = await parseFormBody(encoded);
          const norm = (o: Record<string, string>) =>
            Object.fromEntries(
              Object.entries(o).map(([k, v]) => [k.replace(/\r\n?/g, '\n'), v.replace(/\r\n?/g, '\n')]),
            );
          expect(url.ok && norm({ ...url.fields })).toEqual(norm(fields));
          expect(multi.ok && norm({ ...multi.fields })).toEqual(norm(fields));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('form rendering with hostile SSIDs and values', () => {
  it('never lets a network name or a submitted value out of its attribute or text', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 32 }),
        fc.string({ maxLength: 40 }),
        fc.constantFrom(...LANGUAGE_TAGS),
        (ssid, value, lang) => {
          const marker = `<x-${ssid}`;
          const html = renderForm(
            {
              apSsid: 'Device-0000',
              csrf: 't',
              networks: [
                {
                  ssidHex: '',
                  ssid: marker,
                  signal: -50,
                  signalClass: 'good',
                  frequency: 2412,
                  secure: true,
                },
              ],
              state: { state: 'Failed', reason: 'wrong-password', message: marker },
              settings: defaultSettings(),
              values: { 'device.name': `<y-${value}`, 'wifi.hidden_ssid': `"${value}` },
              errors: { 'device.name': message('error.ntp.host', { name: `<z-${value}` }) },
              target: marker,
            },
            translator(lang),
          );
          expect(html).not.toContain('<x-');
          expect(html).not.toContain('<y-');
          expect(html).not.toContain('<z-');
          expect(html).toContain(`name="wifi.hidden_ssid" value="&quot;${escapeHtml(value)}"`);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('readConnect accepts exactly the SSIDs of 1-32 bytes and the WPA2 passphrase rule', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 70 }), (ssid, passphrase) => {
        const result = readConnect({ 'wifi.ssid': ssid, 'wifi.passphrase': passphrase }, []);
        const bytes = Buffer.byteLength(ssid, 'utf8');
        const passOk = /^[\x20-\x7e]{8,63}$/.test(passphrase) || /^[0-9a-fA-F]{64}$/.test(passphrase);
        expect(!!result.connect).toBe(bytes >= 1 && bytes <= 32 && passOk);
        if (result.connect) {
          const exact = Buffer.from(ssid, 'utf8');
          expect(result.connect).toEqual({
            ssid: formatSsid(exact),
            ssidHex: exact.toString('hex'),
            passphrase,
            hidden: true,
          });
          expect(parseFormattedSsid(result.connect.ssid)).toEqual(exact);
        }
        // The passphrase message never quotes what was typed.
        const message = result.errors['wifi.passphrase'];
        if (message && passphrase.length >= 8) expect(message).not.toContain(passphrase);
      }),
      { numRuns: 500 },
    );
  });

  it('a listed network is given to the station with its exact bytes, whatever they are', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 32 }), (bytes) => {
        const ssidHex = Buffer.from(bytes).toString('hex');
        const listed = {
          ssidHex,
          ssid: formatSsid(bytes),
          signal: -50,
          signalClass: 'excellent' as const,
          frequency: 2412,
          secure: true,
        };
        const result = readConnect({ 'wifi.ssid_hex': ssidHex, 'wifi.passphrase': 'correct horse' }, [
          listed,
        ]);
        expect(result.connect).toEqual({
          ssid: listed.ssid,
          ssidHex,
          passphrase: 'correct horse',
          hidden: false,
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('a body that breaks off', () => {
  it('is refused with 400, not thrown', async () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode('csrf=abc&device.name=x'));
        } else controller.error(new Error('connection reset'));
      },
    });
    const req = new Request('http://192.168.2.1/save', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      duplex: 'half',
    } as RequestInit);
    expect(await parseFormBody(req)).toEqual({
      ok: false,
      status: 400,
      message: { key: 'error.body.incomplete' },
    });
  });
});
