import fs from 'node:fs';
import { needs } from '@waved/test-lab';
import type { Browser } from 'playwright-core';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { type Harness, startPortal } from './harness.js';

const lab = needs({ peers: ['chromium'] });
const SHOTS = process.env.WAVED_SCREENSHOTS ?? '/tmp';

lab.describe('portal in a real browser on a phone viewport', () => {
  let browser: Browser;
  let h: Harness;

  beforeAll(async () => {
    h = await startPortal({ expiresAt: Date.now() + 280_000, selfGateway: true });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('loads the form, sees the networks, submits with an error, corrects it, submits', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
    });
    const page = await context.newPage();
    await page.goto(h.url);
    await expect.poll(() => page.title()).toBe('Set up Device-3F2A');
    await page.screenshot({ path: `${SHOTS}/waved-portal-top.png` });

    // The networks, strongest first, with the hidden entry last.
    const labels = await page.locator('.nets label .ssid').allTextContents();
    expect(labels).toEqual(['Home <5G>', 'Cafe', 'Büro 2.4', 'Guest', 'Other (hidden) network…']);
    expect(await page.getByLabel('Guest').isDisabled()).toBe(true);

    // Submit with a wrong passphrase and a bad volume.
    await page.getByLabel('Home <5G>').check();
    await page.getByLabel('Wi-Fi password').fill('short');
    await page.getByLabel('Volume').fill('150');
    await page.getByRole('button', { name: 'Save and connect' }).click();
    await page.waitForLoadState('load');
    const alert = page.locator('#errors');
    await expect.poll(() => alert.textContent()).toContain('Nothing was saved');
    expect(await alert.textContent()).toContain('Wi-Fi password');
    // The error is tied to the input, focus moved to the summary, and the secret is gone.
    const pass = page.getByLabel('Wi-Fi password', { exact: true });
    expect(await pass.getAttribute('aria-invalid')).toBe('true');
    expect(await pass.inputValue()).toBe('');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('errors');
    expect(await page.getByLabel('Home <5G>').isChecked()).toBe(true);
    expect(fs.existsSync(h.file)).toBe(false);
    await page.screenshot({ path: `${SHOTS}/waved-portal-errors.png`, fullPage: true });

    // The progressive enhancement: show the password.
    await pass.fill('correct horse battery');
    await page.getByLabel('Show password').check();
    expect(await pass.getAttribute('type')).toBe('text');

    await page.getByLabel('Volume').fill('70');
    await page.getByRole('button', { name: 'Save and connect' }).click();
    await page.waitForLoadState('load');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Settings saved');
    expect(await page.locator('body').textContent()).toContain('Connecting to “Home <5G>”');
    await page.screenshot({ path: `${SHOTS}/waved-portal-saved.png` });

    expect(h.commands).toEqual([
      {
        type: 'SettingsSaved',
        connect: {
          ssid: 'Home <5G>',
          ssidHex: Buffer.from('Home <5G>').toString('hex'),
          passphrase: 'correct horse battery',
          hidden: false,
        },
      },
    ]);
    const doc = parse(fs.readFileSync(h.file, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(doc.audio?.volume).toBe(70);
    await context.close();
  });

  it('works with JavaScript off (the iOS mini-browser case): hidden network, no cookies', async () => {
    const context = await browser.newContext({
      viewport: { width: 375, height: 667 },
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    // An Apple probe lands on the form through the captive redirect.
    await page.goto(new URL('/hotspot-detect.html', h.url).href);
    expect(page.url()).toBe(h.url);
    await page.getByLabel('Other (hidden) network…').check();
    await page.getByLabel('Hidden network name').fill('Attic');
    await page.getByLabel('Wi-Fi password').fill('another-passphrase');
    await page.getByRole('button', { name: 'Save and connect' }).click();
    await page.waitForLoadState('load');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Settings saved');
    expect(await context.cookies()).toEqual([]);
    expect(h.commands.at(-1)).toEqual({
      type: 'SettingsSaved',
      connect: {
        ssid: 'Attic',
        ssidHex: Buffer.from('Attic').toString('hex'),
        passphrase: 'another-passphrase',
        hidden: true,
      },
    });
    await context.close();
  });
});
