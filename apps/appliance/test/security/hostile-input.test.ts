import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startPortal, urlencoded, validFields } from '../portal/harness.js';

/**
 * What a hostile review of the portal's parsing found beyond the reported issues: a webhook URL
 * could carry credentials when only a password was given (`https://:pw@host`), and the device name
 * could hold characters that hide or reorder text (U+202E turns `Kitchen` into what it is not on
 * every screen and in the cloud).
 */
const JSON_FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
let h: Harness;
afterEach(async () => {
  await h?.close();
});

async function errorsFor(fields: Record<string, string>) {
  const res = await fetch(new URL('/save', h.url), {
    method: 'POST',
    headers: JSON_FORM,
    body: urlencoded(validFields(fields)),
  });
  return {
    status: res.status,
    errors: ((await res.json()) as { errors?: Record<string, string> }).errors ?? {},
  };
}

describe('hostile values the parser let through', () => {
  it('a webhook URL with credentials is refused, password-only too', async () => {
    h = await startPortal();
    for (const url of [
      'https://user:pw@hooks.example/in',
      'https://:pw@hooks.example/in',
      'https://user@hooks.example/',
    ]) {
      const r = await errorsFor({ 'webhook.url': url });
      expect(r.status, url).toBe(422);
      expect(Object.keys(r.errors)).toEqual(['webhook.url']);
      expect(r.errors['webhook.url']).not.toContain('pw');
    }
    expect(fs.existsSync(h.file)).toBe(false);
  });

  it('a device name with direction overrides, zero-width spaces or line separators is refused; emoji with ZWJ are fine', async () => {
    h = await startPortal();
    for (const name of [
      'Kitchen\u202etxt.exe',
      'Desk\u200b',
      '\u2066Desk\u2069',
      'Desk\u2028two',
      'Desk\u00ad',
    ]) {
      const r = await errorsFor({ 'device.name': name });
      expect(r.status, JSON.stringify(name)).toBe(422);
      expect(Object.keys(r.errors)).toEqual(['device.name']);
    }
    expect(fs.existsSync(h.file)).toBe(false);
    const ok = await errorsFor({ 'device.name': 'Dev 👩‍💻 desk' });
    expect(ok.status).toBe(200);
  });
});
