import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { needs } from '@waved/test-lab';
import { toNodeHandler } from 'h3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Command, StateBus } from '../../src/core/bus.js';
import type { UiVerificationOutcome } from '../../src/domain/device/app.js';
import { createScreenPage, createScreens, type Screens } from '../../src/domain/screens/index.js';
import { launchChromium } from '../helpers/chromium.js';

const lab = needs({ peers: ['chromium'] });

lab.describe('screen emulator in a real browser', () => {
  let browser: Browser;
  let server: http.Server;
  let screens: Screens;
  let base: string;
  const bus = new StateBus();
  const commands: Command[] = [];
  const checked: string[] = [];
  const outcomes: UiVerificationOutcome[] = [];

  beforeAll(async () => {
    bus.on('command', (c) => commands.push(c));
    screens = createScreens({
      bus,
      verification: {
        verify: (pin) => {
          checked.push(pin);
          return pin === '2468' ? { result: 1 } : { result: 0, reason: 'wrong-password' };
        },
        report: (outcome) => outcomes.push(outcome),
      },
    });
    server = http.createServer(toNodeHandler(createScreenPage({ screens })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    screens?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('follows the bus live and turns button presses into commands', async () => {
    const page = await browser.newPage({ viewport: { width: 420, height: 640 } });
    await page.goto(base);
    await page.getByRole('button', { name: 'Wi-Fi' }).click();
    await page.getByRole('button', { name: 'Set up Wi-Fi' }).click();
    await expect.poll(() => commands).toEqual([{ type: 'OpenWifiProvisioning' }]);
    bus.publish('ProvisioningState', {
      state: 'ApActive',
      ssid: 'Device-3F2A',
      passphrase: '4f9a01c7',
      url: 'http://192.168.2.1/',
    });
    await page.locator('.qr svg').waitFor();
    const text = await page.locator('#screen').textContent();
    expect(text).toContain('Device-3F2A');
    expect(text).toContain('4f9a01c7');
    expect(text).toContain('192.168.2.1');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => commands.at(-1)).toEqual({ type: 'CancelProvisioning' });
    await expect.poll(() => page.locator('h1').textContent()).toBe('Wi-Fi');
    await page.close();
  });

  it('draws the update progress bar and Install answers the consent hook', async () => {
    const page = await browser.newPage({ viewport: { width: 420, height: 640 } });
    await page.goto(base);
    screens.otaEvent({ type: 'available', kind: 'psp_firmware', version: '1.1.0', forced: false, notes: '' });
    screens.otaEvent({
      type: 'progress',
      kind: 'psp_firmware',
      received: 100 * 1024,
      total: 400 * 1024,
      percent: 25,
      bar: '',
    });
    const bar = page.getByRole('progressbar');
    await expect.poll(() => bar.getAttribute('aria-valuenow')).toBe('25');
    const text = await page.locator('#screen').textContent();
    expect(text).toContain('Update available v1.1.0 (needs consent)');
    expect(text).toContain('100 KiB of 400 KiB');
    const answer = screens.consent({ kind: 'psp_firmware', version: '1.1.0', notes: '' });
    await page.getByRole('button', { name: 'Install' }).click();
    await expect(answer).resolves.toBe(true);
    await expect.poll(() => page.locator('#screen').textContent()).toContain('Installing update v1.1.0');
    screens.otaEvent({
      type: 'failed',
      kind: 'psp_firmware',
      stage: 'install',
      code: 'OTA_BATTERY_LOW',
      message: '',
    });
    await page.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Wi-Fi');
    await page.close();
  });

  it('the verification page takes the PIN on its keypad and shows only dots', async () => {
    const page = await browser.newPage({ viewport: { width: 420, height: 640 } });
    await page.goto(base);
    screens.showVerificationPage();
    await page.getByText('Enter the device password on the device').waitFor();
    for (const d of '2468') await page.getByRole('button', { name: d, exact: true }).click();
    await expect.poll(() => page.locator('.pin').textContent()).toBe('••••');
    await page.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => outcomes).toEqual([{ result: 1 }]);
    expect(checked).toEqual(['2468']);
    await expect.poll(() => page.locator('#screen').textContent()).toContain('Verified');
    await page.close();
  });
});
