import fs from 'node:fs';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { CSRF, type Harness, startPortal, urlencoded, validFields } from '../portal/harness.js';

/**
 * Two phones (or two tabs) save at the same time. Without serialised saves the second read the
 * settings before the first wrote them, and one change was lost. Now saves run one at a time, each
 * on top of what the previous one wrote; and a form loaded before another save is told to reload
 * (409) rather than silently undo that save with its old values.
 */
const JSON_FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const config = () => parse(fs.readFileSync(h.file, 'utf8')) as Record<string, Record<string, unknown>>;

function post(fields: Record<string, string>) {
  return fetch(new URL('/save', h.url), { method: 'POST', headers: JSON_FORM, body: urlencoded(fields) });
}

describe('concurrent saves', () => {
  it('two concurrent posts that each change one field: both land', async () => {
    h = await startPortal();
    // A PIN makes every save take a hash: the two posts overlap for its whole duration.
    expect((await post(validFields({ 'security.device_password': '2468' }))).status).toBe(200);
    for (let round = 0; round < 5; round++) {
      const volume = String(10 + round);
      const name = `Desk ${round}`;
      const [a, b] = await Promise.all([
        post({ csrf: CSRF, 'security.current_pin': '2468', 'audio.volume': volume }),
        post({ csrf: CSRF, 'security.current_pin': '2468', 'device.name': name }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(config().audio?.volume).toBe(Number(volume));
      expect(config().device?.name).toBe(name);
    }
  });

  it('two whole forms loaded at the same time: the first lands, the second is told to reload', async () => {
    h = await startPortal();
    const page = await (await fetch(h.url)).text();
    const revision = /name="settings\.revision" value="([0-9a-f]+)"/.exec(page)?.[1];
    expect(revision).toMatch(/^[0-9a-f]{16}$/);
    // Each phone changed one field of its own copy; the rest of each form holds the old values.
    const phoneA = validFields({ 'settings.revision': revision!, 'audio.volume': '11' });
    const phoneB = validFields({ 'settings.revision': revision!, 'device.name': 'Phone B' });
    phoneA['device.name'] = 'waved';
    phoneB['audio.volume'] = '60';
    const [a, b] = await Promise.all([post(phoneA), post(phoneB)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const refused = a.status === 409 ? a : b;
    expect(await refused.json()).toMatchObject({ error: 'stale' });
    // The first save is intact; nothing of the refused one was written.
    const doc = config();
    if (a.status === 200) expect([doc.audio?.volume, doc.device?.name]).toEqual([11, 'waved']);
    else expect([doc.audio?.volume, doc.device?.name]).toEqual([60, 'Phone B']);
    // The refused phone gets the form again, with the current values and a new revision.
    const again = await fetch(new URL('/save', h.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: urlencoded(a.status === 409 ? phoneA : phoneB),
    });
    expect(again.status).toBe(409);
    const html = await again.text();
    expect(html).toContain('changed from another phone');
    expect(html).not.toContain(`value="${revision}"`);
  });
});
