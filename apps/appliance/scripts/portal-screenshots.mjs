#!/usr/bin/env node
// Screenshots of the setup portal in English, German and Japanese for docs/appliance.md, taken
// from the built `waved sim` by the machine's Chromium on a phone viewport, each Chromium set to
// its language as a phone is (the portal picks the language from Accept-Language).
//
//   npm run build -w @waved/appliance && node apps/appliance/scripts/portal-screenshots.mjs [out-dir]
//
// Writes <out-dir>/portal-<lang>.png (default: docs/images at the top of the repository). Needs
// /usr/bin/chromium and a CJK font (Debian fonts-droid-fallback).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '../bin/waved.js');
const out = path.resolve(process.argv[2] ?? path.join(here, '../../../docs/images'));
const LANGUAGES = [
  { lang: 'en', region: 'US' },
  { lang: 'de', region: 'DE' },
  { lang: 'ja', region: 'JP' },
];

if (!fs.existsSync(path.join(here, '../dist/cli.js'))) {
  console.error('portal-screenshots: build the appliance first (npm run build -w @waved/appliance)');
  process.exit(2);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waved-shots-'));
// The simulator on a free port, without its terminal screen, screen page or device application.
const sim = spawn(
  process.execPath,
  [cli, 'sim', '--port', '0', '--screen-port', '0', '--no-screen', '--no-device', '--no-cloud'].concat([
    '--data-dir',
    dataDir,
    '--log-level',
    '1',
  ]),
  { stdio: ['ignore', 'pipe', 'inherit'] },
);

/** The address `waved sim` prints; its output is read to the end so that it never blocks. */
const printed = new Promise((resolve, reject) => {
  let text = '';
  sim.stdout.setEncoding('utf8');
  sim.stdout.on('data', (chunk) => {
    text += chunk;
    const m = /portal: (http:\/\/\S+)/.exec(text);
    if (m) resolve(m[1]);
  });
  sim.once('exit', (code) =>
    reject(new Error(`waved sim ended (${code}) before it printed the portal address`)),
  );
});

/** Waits until the portal answers with the form (the simulator opens Set up Wi-Fi at start). */
async function formReady(url) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status === 200 && (await res.text()).includes('name="wifi.ssid"')) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the portal at ${url} did not show its form within 30 s`);
}

let failed = false;
try {
  const url = await printed;
  await formReady(url);
  fs.mkdirSync(out, { recursive: true });
  for (const { lang, region } of LANGUAGES) {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
        // Headless Chromium sends Accept-Language from --accept-lang, not from --lang.
        `--lang=${lang}`,
        `--accept-lang=${lang}-${region},${lang},en`,
      ],
    });
    try {
      const page = await browser.newPage({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      });
      await page.goto(url);
      const shown = await page.getAttribute('html', 'lang');
      if (shown !== lang) throw new Error(`the portal answered in ${shown}, not ${lang}`);
      // The first network chosen, as a user would, so the picture shows a selection.
      await page.locator('.nets input[type=radio]:not([disabled])').first().check();
      const file = path.join(out, `portal-${lang}.png`);
      await page.screenshot({ path: file });
      console.log(`${file} (${lang}: ${await page.title()})`);
    } finally {
      await browser.close();
    }
  }
} catch (error) {
  console.error(`portal-screenshots: ${error.message}`);
  failed = true;
} finally {
  sim.kill('SIGTERM');
  await new Promise((resolve) => (sim.exitCode === null ? sim.once('exit', resolve) : resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
