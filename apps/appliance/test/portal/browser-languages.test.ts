import fs from 'node:fs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIELDS, GROUP_TITLES } from '../../src/domain/settings/index.js';
import { LOCALES, type MessageKey, message, type Translator, translator } from '../../src/i18n/index.js';
import { messages as en } from '../../src/i18n/locales/en.js';
import { browserLanguagesLab, languageArgs, launchChromium } from '../helpers/chromium.js';
import { layoutProblems } from '../helpers/layout.js';
import { type Harness, startPortal, urlencoded, validFields } from './harness.js';

const lab = browserLanguagesLab();
const SHOTS = process.env.WAVED_SCREENSHOTS ?? '/tmp';

/** A small Android phone: narrower than any iPhone since the SE, so the tightest common layout. */
const PHONE: BrowserContextOptions = {
  viewport: { width: 360, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

const REGION: Record<string, string> = { de: 'DE', ja: 'JP' };
/** Each test starts its own Chromium and walks several pages: give it time on a loaded machine. */
const BROWSER_TEST_MS = 120_000;

/**
 * English texts of the portal that the language says differently; none of them may show on a page
 * in that language (a text that stayed English). Short ones are left out: they occur inside others.
 */
function englishLeftovers(tr: Translator): string[] {
  const translated = LOCALES.find((l) => l.tag === tr.lang)!.messages;
  return (Object.keys(en) as MessageKey[])
    .filter((k) => /^(portal|field|group|error)\./.test(k) && !en[k].includes('{'))
    .filter((k) => translated[k] !== en[k] && en[k].length >= 10)
    .map((k) => en[k]);
}

async function bodyText(page: Page): Promise<string> {
  return ((await page.locator('body').textContent()) ?? '').replace(/\s+/g, ' ');
}

lab.describe('the portal in the phone language, in Chromium on a phone viewport', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startPortal({ expiresAt: Date.now() + 280_000, selfGateway: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(['de', 'ja'])(
    '--lang=%s: the form in that language, a field error in it, and every text inside its box',
    async (lang) => {
      const tr = translator(lang);
      const browser: Browser = await launchChromium(languageArgs(lang, REGION[lang]!));
      try {
        const context = await browser.newContext(PHONE);
        const page = await context.newPage();
        await page.goto(h.url);

        // The page is in the phone's language: its lang, title, headings, labels and buttons.
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        expect(await page.title()).toBe(tr.t('portal.form.title', { ssid: 'Device-3F2A' }));
        expect(await page.locator('h1').textContent()).toBe(
          tr.t('portal.form.title', { ssid: 'Device-3F2A' }),
        );
        const legends = await page.locator('form legend').allTextContents();
        expect(legends).toEqual([
          tr.t(GROUP_TITLES.wifi),
          tr.t('portal.wifi.choose'),
          ...(['device', 'audio', 'webhook', 'storage', 'security', 'ntp'] as const).map((g) =>
            tr.t(GROUP_TITLES[g]),
          ),
        ]);
        for (const spec of FIELDS) {
          const label = page.locator(`label[for="f-${spec.group}-${spec.field}"]`);
          expect((await label.textContent())?.trim(), `${spec.group}.${spec.field}`).toBe(
            tr.text({ key: spec.label }),
          );
        }
        const networks = await page.locator('.nets label .ssid').allTextContents();
        expect(networks.at(-1)).toBe(tr.t('portal.wifi.other'));
        expect(await page.locator('.nets .note').textContent()).toBe(` ${tr.t('portal.wifi.openNetwork')}`);
        expect(await page.getByRole('button', { name: tr.t('portal.form.saveConnect') }).count()).toBe(1);
        expect(await page.getByRole('button', { name: tr.t('portal.form.saveOnly') }).count()).toBe(1);
        // The countdown, written by the server and then each second by the page's script, in the
        // language's form (the same strings the server makes).
        const countdown = page.locator('.countdown');
        const seconds = Number(await countdown.getAttribute('data-remaining'));
        const forms = Array.from({ length: seconds + 1 }, (_, n) => tr.countdown(n));
        const first = (await countdown.textContent()) ?? '';
        expect(forms).toContain(first);
        await expect.poll(() => countdown.textContent(), { timeout: 10_000 }).not.toBe(first);
        expect(forms).toContain(await countdown.textContent());
        for (const english of englishLeftovers(tr)) expect(await bodyText(page)).not.toContain(english);
        expect(await layoutProblems(page, 'main'), `${lang} form`).toEqual([]);

        // The language choice, opened, fits too, and names every language in itself.
        await page.locator('.langs summary').click();
        const choices = await page.locator('.langs a').allTextContents();
        expect(choices).toEqual(LOCALES.map((l) => l.name));
        expect(await page.locator('.langs a[aria-current]').textContent()).toBe(
          LOCALES.find((l) => l.tag === lang)!.name,
        );
        expect(await layoutProblems(page, 'main'), `${lang} language choice`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/waved-portal-${lang}-languages.png` });
        await page.locator('.langs summary').click();

        // A wrong password and a volume out of range: the errors come back in the language.
        await page.getByLabel('Home <5G>').check();
        await page.getByLabel(tr.t('portal.wifi.password'), { exact: true }).fill('short');
        await page.getByLabel(tr.t('field.audio.volume'), { exact: true }).fill('150');
        await page.getByRole('button', { name: tr.t('portal.form.saveConnect') }).click();
        await page.waitForLoadState('load');
        const passwordError = tr.text(message('error.wifi.passwordInvalid', { min: 8, max: 63, hex: 64 }));
        await expect.poll(() => page.locator('#f-wifi-passphrase-err').textContent()).toBe(passwordError);
        expect(await page.locator('#f-audio-volume-err').textContent()).toBe(
          tr.text(message('error.number', { min: 0, max: 100 })),
        );
        expect(await page.locator('#errors h2').textContent()).toBe(
          tr.t('portal.errors.summary', { count: 2 }),
        );
        expect(await page.locator('#errors li').allTextContents()).toEqual([
          tr.t('portal.errors.item', { field: tr.t('portal.wifi.password'), error: passwordError }),
          tr.t('portal.errors.item', {
            field: tr.t('field.audio.volume'),
            error: tr.text(message('error.number', { min: 0, max: 100 })),
          }),
        ]);
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        for (const english of englishLeftovers(tr)) expect(await bodyText(page)).not.toContain(english);
        expect(await layoutProblems(page, 'main'), `${lang} form with errors`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/waved-portal-${lang}-errors.png`, fullPage: true });
        expect(fs.existsSync(h.file)).toBe(false);
        await context.close();
      } finally {
        await browser.close();
      }
    },
    BROWSER_TEST_MS,
  );

  it(
    'a language link overrides Accept-Language without cookies and with JavaScript off, through the form, the save and the status page',
    async () => {
      const browser = await launchChromium(languageArgs('de', 'DE'));
      try {
        // The iOS captive mini-browser case: no script, no cookie kept.
        const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
        const page = await context.newPage();
        await page.goto(h.url);
        expect(await page.getAttribute('html', 'lang')).toBe('de');

        // The language choice works without script (a <details> element) and leads to the same page.
        await page.locator('.langs summary').click();
        await page.getByRole('link', { name: '日本語' }).click();
        await page.waitForLoadState('load');
        const ja = translator('ja');
        expect(new URL(page.url()).searchParams.get('lang')).toBe('ja');
        expect(await page.getAttribute('html', 'lang')).toBe('ja');
        expect(await page.title()).toBe(ja.t('portal.form.title', { ssid: 'Device-3F2A' }));

        // The form carries the choice: the field error is in Japanese although the phone asks for German.
        await page.getByLabel('Home <5G>').check();
        await page.getByLabel(ja.t('portal.wifi.password'), { exact: true }).fill('');
        await page.getByRole('button', { name: ja.t('portal.form.saveConnect') }).click();
        await page.waitForLoadState('load');
        expect(await page.locator('#f-wifi-passphrase-err').textContent()).toBe(
          ja.t('error.wifi.passwordMissing'),
        );
        expect(await page.getAttribute('html', 'lang')).toBe('ja');

        // Corrected and saved: the result page and the status page it refreshes to stay in Japanese.
        await page.getByLabel(ja.t('portal.wifi.password'), { exact: true }).fill('correct horse battery');
        await page.getByRole('button', { name: ja.t('portal.form.saveConnect') }).click();
        await page.waitForLoadState('load');
        expect(await page.locator('h1').textContent()).toBe(ja.t('portal.saved.title'));
        expect(await layoutProblems(page, 'main'), 'ja saved').toEqual([]);
        expect(await page.locator('.banner strong').textContent()).toBe(
          ja.t('portal.banner.connecting', { ssid: 'Home <5G>' }),
        );
        await page.waitForURL((url) => url.pathname === '/status', { timeout: 10_000 });
        expect(new URL(page.url()).searchParams.get('lang')).toBe('ja');
        expect(await page.locator('h1').textContent()).toBe(ja.t('portal.status.title'));
        expect(await layoutProblems(page, 'main'), 'ja status').toEqual([]);

        // Nothing was kept in a cookie: the choice lives in the address only.
        expect(await context.cookies()).toEqual([]);
        await page.goto(h.url);
        expect(await page.getAttribute('html', 'lang')).toBe('de');
        expect(h.commands.at(-1)).toEqual({
          type: 'SettingsSaved',
          connect: {
            ssid: 'Home <5G>',
            ssidHex: Buffer.from('Home <5G>').toString('hex'),
            passphrase: 'correct horse battery',
            hidden: false,
          },
        });
        await context.close();
      } finally {
        await browser.close();
      }
    },
    BROWSER_TEST_MS,
  );

  it.each(['de', 'ja'])(
    '--lang=%s: a device with a PIN and a webhook: the current-PIN field, the webhook note and a wrong-PIN refusal, each in that language and inside its box',
    async (lang) => {
      const tr = translator(lang);
      const owner = await startPortal({ expiresAt: Date.now() + 280_000, selfGateway: true });
      const browser: Browser = await launchChromium(languageArgs(lang, REGION[lang]!));
      try {
        // The owner set a PIN and a webhook earlier.
        const set = await fetch(new URL('/save', owner.url), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: urlencoded(
            validFields({
              'security.device_password': '482913',
              'webhook.url': 'https://hooks.example/services/T0AAAA/XXXXsecretTOKEN',
              'webhook.secret': 'a-webhook-secret-of-some-length',
            }),
          ),
        });
        expect(set.status).toBe(200);
        const before = fs.readFileSync(owner.file);

        const context = await browser.newContext(PHONE);
        const page = await context.newPage();
        await page.goto(owner.url);
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        const pin = page.getByLabel(tr.t('portal.currentPin.label'), { exact: true });
        expect(await pin.count()).toBe(1);
        expect(await page.locator('#f-security-current_pin-hint').textContent()).toBe(
          tr.t('portal.currentPin.hint'),
        );
        const webhookNote = tr.t('portal.webhook.now', { url: 'https://hooks.example/…' });
        expect(await bodyText(page)).toContain(webhookNote);
        expect(await bodyText(page)).not.toContain('XXXXsecretTOKEN');
        for (const english of englishLeftovers(tr)) expect(await bodyText(page)).not.toContain(english);
        expect(await layoutProblems(page, 'main'), `${lang} form with a PIN`).toEqual([]);

        // A wrong current PIN: refused in the language, tied to its field, and nothing is written.
        await pin.fill('000000');
        await page.getByRole('button', { name: tr.t('portal.form.saveOnly') }).click();
        await page.waitForLoadState('load');
        await expect
          .poll(() => page.locator('#f-security-current_pin-err').textContent())
          .toBe(tr.t('error.currentPin.wrong'));
        expect(await page.locator('#errors h2').textContent()).toBe(
          tr.t('portal.errors.summary', { count: 1 }),
        );
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        for (const english of englishLeftovers(tr)) expect(await bodyText(page)).not.toContain(english);
        expect(await layoutProblems(page, 'main'), `${lang} wrong PIN`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/waved-portal-${lang}-pin.png`, fullPage: true });
        expect(fs.readFileSync(owner.file)).toEqual(before);
        await context.close();
      } finally {
        await browser.close();
        await owner.close();
      }
    },
    BROWSER_TEST_MS,
  );
});
