import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createScreenPage, type ScreenView } from '../../src/domain/screens/index.js';
import { LOCALES } from '../../src/i18n/index.js';
import { browserLanguagesLab, launchChromium } from '../helpers/chromium.js';
import { layoutProblems } from '../helpers/layout.js';
import { screenTour } from './tour.js';

const lab = browserLanguagesLab();

/** The texts the page must show for a view (what the terminal test checks, minus the frame). */
function expectedTexts(v: ScreenView): string[] {
  const out = [v.title, ...v.buttons.map((b) => b.label)];
  if (v.screen === 'setup') out.push(v.progress, ...(v.error ? [v.error] : []));
  if (v.screen === 'wifi') out.push(...v.rows.map((r) => r.label), ...(v.notice ? [v.notice] : []));
  if (v.screen === 'update') out.push(v.headline, v.status);
  if (v.screen === 'verify') out.push(v.prompt, ...(v.error ? [v.error] : []));
  return out;
}

const squeeze = (s: string) => s.replace(/\s+/gu, '');

lab.describe('the screen page in every language, in Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(LOCALES.map((l) => l.tag))(
    '%s: every screen and state fits the device screen, in the device language',
    async (lang) => {
      const tour = screenTour(lang);
      const server = http.createServer(toNodeHandler(createScreenPage({ screens: tour.screens })));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
      try {
        await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        let checked = 0;
        await tour.run(async (name, view) => {
          const want = expectedTexts(view).map(squeeze);
          // Wait until the page draws this view (it arrives as a server-sent event).
          await expect
            .poll(
              async () => {
                const shown = squeeze((await page.locator('#screen').textContent()) ?? '');
                return want.filter((t) => !shown.includes(t));
              },
              { timeout: 5000 },
            )
            .toEqual([]);
          expect(await page.getAttribute('#screen', 'lang'), name).toBe(lang);
          expect(await layoutProblems(page, '.screen'), `${lang} ${name}`).toEqual([]);
          checked++;
        });
        expect(checked).toBe(26);
      } finally {
        await page.close();
        tour.close();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );
});
