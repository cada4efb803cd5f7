import { manualClock } from '@waved/test-lab';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateBus } from '../../src/core/bus.js';
import type { OtaEvent } from '../../src/domain/device/ota.js';
import {
  createScreens,
  renderTerminal,
  type Screens,
  type ScreenView,
  type UpdateView,
} from '../../src/domain/screens/index.js';
import {
  describeOtaFailure,
  formatBytes,
  plainNotes,
  RESTART_NOTICE_MS,
} from '../../src/domain/screens/update.js';
import { translator } from '../../src/i18n/index.js';

const KIB = 1024;
const TOTAL = 256 * KIB;

let bus: StateBus;
let clock: ReturnType<typeof manualClock>;
let screens: Screens;
let views: ScreenView[];

beforeEach(() => {
  bus = new StateBus();
  clock = manualClock();
  screens = createScreens({ bus, clock });
  views = [];
  screens.subscribe((v) => views.push(v));
});
afterEach(() => screens.close());

const update = () => screens.view() as UpdateView;
const ev = (e: OtaEvent) => screens.otaEvent(e);
const available = (forced: boolean, version = '1.1.0') =>
  ev({
    type: 'available',
    kind: 'psp_firmware',
    version,
    forced,
    notes: '<p>Faster Wi-Fi setup &amp; fixes.</p>',
  });
/** `total` null: the server did not tell the size. */
const progress = (received: number, total: number | null = TOTAL) =>
  ev({
    type: 'progress',
    kind: 'psp_firmware',
    received,
    total: total ?? undefined,
    percent: total === null ? undefined : (received / total) * 100,
    bar: '',
  });

describe('software update screen from OTA events', () => {
  it('a normal update asks: Install resolves the consent hook with true, then installing and restarting', async () => {
    available(false);
    expect(update()).toMatchObject({
      screen: 'update',
      title: 'Software update',
      package: 'Firmware',
      version: '1.1.0',
      forced: false,
      phase: 'available',
      headline: 'Update available v1.1.0 (needs consent)',
      notes: 'Faster Wi-Fi setup & fixes.',
      buttons: [
        { action: 'install', label: 'Install' },
        { action: 'later', label: 'Later' },
      ],
      error: null,
    });
    progress(64 * KIB);
    expect(update()).toMatchObject({
      phase: 'downloading',
      progress: { percent: 25, received: 64 * KIB, total: TOTAL, bytes: '64 KiB of 256 KiB' },
      status: 'Downloading… 25%',
    });
    progress(TOTAL);
    ev({ type: 'downloaded', kind: 'psp_firmware', size: TOTAL, resumedBytes: 0 });
    expect(update()).toMatchObject({ phase: 'verifying', status: 'Checking the download…' });
    ev({ type: 'step', kind: 'psp_firmware', step: 'verified' });
    ev({ type: 'consent-required', kind: 'psp_firmware', version: '1.1.0', notes: '' });
    const answer = screens.consent({ kind: 'psp_firmware', version: '1.1.0', notes: '' });
    expect(update()).toMatchObject({
      phase: 'consent',
      buttons: [
        { action: 'install', label: 'Install' },
        { action: 'later', label: 'Later' },
      ],
    });
    screens.press('install');
    await expect(answer).resolves.toBe(true);
    expect(update()).toMatchObject({
      phase: 'installing',
      headline: 'Installing update v1.1.0',
      status: 'Installing… Do not turn the device off.',
      buttons: [],
    });
    ev({ type: 'step', kind: 'psp_firmware', step: 'consented' });
    ev({ type: 'step', kind: 'psp_firmware', step: 'battery-ok' });
    ev({ type: 'step', kind: 'psp_firmware', step: 'installed' });
    ev({ type: 'step', kind: 'psp_firmware', step: 'rebooting' });
    expect(update()).toMatchObject({ phase: 'restarting', status: 'Restarting…' });
    expect(renderTerminal(screens.view())).toContain('Restarting…');
    ev({ type: 'installed', kind: 'psp_firmware', version: '1.1.0' });
    // where the reboot is only simulated, the screen goes back after a while
    clock.advanceSync(RESTART_NOTICE_MS - 1);
    expect(screens.view().screen).toBe('update');
    clock.advanceSync(1);
    expect(screens.view()).toMatchObject({ screen: 'menu' });
    expect(clock.pending).toBe(0);
  });

  it('Later answers the hook with false and the Wi-Fi screens come back', async () => {
    screens.press('open-wifi');
    available(false);
    progress(TOTAL);
    ev({ type: 'downloaded', kind: 'psp_firmware', size: TOTAL, resumedBytes: 0 });
    const answer = screens.consent({ kind: 'psp_firmware', version: '1.1.0', notes: '' });
    screens.press('later');
    await expect(answer).resolves.toBe(false);
    expect(screens.view()).toMatchObject({ screen: 'wifi' });
    // the decline the device reports afterwards does not bring the screen back
    ev({
      type: 'failed',
      kind: 'psp_firmware',
      stage: 'install',
      code: 'OTA_CONSENT_DECLINED',
      message: 'declined',
    });
    expect(screens.view().screen).toBe('wifi');
  });

  it('an answer given while downloading is the answer when the hook asks', async () => {
    available(false);
    progress(10 * KIB);
    screens.press('install');
    expect(update()).toMatchObject({
      headline: 'Installing update v1.1.0',
      phase: 'downloading',
      buttons: [],
    });
    await expect(screens.consent({ kind: 'psp_firmware', version: '1.1.0', notes: '' })).resolves.toBe(true);

    available(false, '1.2.0');
    screens.press('later');
    expect(screens.view().screen).toBe('menu');
    // the download goes on out of sight (no redraws) and the hook is answered at once
    const drawn = views.length;
    progress(TOTAL / 2);
    progress(TOTAL);
    expect(views.length).toBe(drawn);
    expect(screens.view().screen).toBe('menu');
    await expect(screens.consent({ kind: 'psp_firmware', version: '1.2.0', notes: '' })).resolves.toBe(false);
  });

  it('a forced update says Installing and offers no choice', () => {
    available(true, '2.0.0');
    expect(update()).toMatchObject({
      forced: true,
      headline: 'Installing update v2.0.0',
      status: 'Required update (forced): it downloads and installs without asking.',
      buttons: [],
    });
    screens.press('later');
    screens.press('install');
    expect(update().phase).toBe('available');
    progress(TOTAL / 2);
    ev({ type: 'downloaded', kind: 'psp_firmware', size: TOTAL, resumedBytes: 0 });
    ev({ type: 'step', kind: 'psp_firmware', step: 'verified' });
    expect(update()).toMatchObject({ phase: 'installing', buttons: [] });
  });

  it('failures are shown in plain words until OK', () => {
    available(true);
    progress(TOTAL);
    ev({
      type: 'failed',
      kind: 'psp_firmware',
      stage: 'download',
      code: 'OTA_MD5_MISMATCH',
      message: 'md5 abc != def',
    });
    expect(update()).toMatchObject({
      phase: 'failed',
      headline: 'Update v1.1.0 not installed',
      buttons: [{ action: 'ok', label: 'OK' }],
    });
    expect(update().error).toMatch(/did not match its MD5 checksum and was deleted/);
    expect(renderTerminal(screens.view())).toContain('[ OK ]');
    screens.press('ok');
    expect(screens.view().screen).toBe('menu');

    available(true, '1.2.0');
    ev({
      type: 'failed',
      kind: 'psp_firmware',
      stage: 'install',
      code: 'OTA_BATTERY_LOW',
      message: 'battery at 12%',
    });
    expect(update().error).toBe(
      'Battery too low to install the update. Charge the device; the update installs at the next check.',
    );
  });

  it('a shutdown during the download closes the screen without an error', () => {
    available(true);
    progress(1000);
    ev({ type: 'failed', kind: 'psp_firmware', stage: 'download', code: 'OTA_ABORTED', message: 'aborted' });
    expect(screens.view().screen).toBe('menu');
  });

  it('checks that find nothing do not take over the screen', () => {
    ev({ type: 'checking' });
    ev({ type: 'up-to-date', kind: 'psp_firmware' });
    ev({ type: 'check-failed', kind: 'psp_model', message: 'HTTP 500' });
    expect(screens.view().screen).toBe('menu');
    expect(views).toHaveLength(0);
  });

  it('redraws for progress only when the percent or the bytes shown change', () => {
    available(true);
    const before = views.length;
    progress(100 * KIB);
    progress(100 * KIB + 10);
    progress(100 * KIB + 20);
    expect(views.length - before).toBe(1);
    progress(200 * KIB);
    expect(views.length - before).toBe(2);
  });

  it('Wi-Fi buttons do nothing under the update screen', () => {
    available(true);
    screens.press('open-wifi');
    screens.press('wifi-button');
    expect(screens.view().screen).toBe('update');
  });

  it('closing the screens answers a pending consent with Later (the device can shut down)', async () => {
    available(false);
    const answer = screens.consent({ kind: 'psp_firmware', version: '1.1.0', notes: '' });
    screens.close();
    await expect(answer).resolves.toBe(false);
  });

  it('a consent asked without earlier events still shows the dialog', async () => {
    const answer = screens.consent({ kind: 'psp_model', version: 'm2', notes: '<b>New model</b>' });
    expect(update()).toMatchObject({
      package: 'Model',
      headline: 'Update available vm2 (needs consent)',
      notes: 'New model',
      phase: 'consent',
    });
    screens.press('install');
    await expect(answer).resolves.toBe(true);
  });
});

describe('progress in the terminal', () => {
  it('draws a text bar with the percent and the bytes', () => {
    available(false);
    progress(TOTAL / 2);
    const text = renderTerminal(screens.view());
    const lines = text.split('\n');
    expect(lines[0]).toContain('Software update');
    expect(text).toContain('Update available v1.1.0 (needs consent)');
    const bar = lines.find((l) => l.includes('█'));
    expect(bar).toMatch(/│ \[█+░+\] {2}50% │$/);
    const inner = /\[(.*)\]/.exec(bar!)![1]!;
    expect(inner.replace(/░/g, '').length).toBe(Math.floor(inner.length / 2));
    expect(text).toContain('128 KiB of 256 KiB');
    expect(text).toContain('[ Install ]  [ Later ]');
    // every line of the box has the same width
    expect(new Set(lines.map((l) => [...l].length)).size).toBe(1);
    progress(TOTAL);
    expect(renderTerminal(screens.view())).toMatch(/\[█+\] 100%/);
  });

  it('without a size it shows the bytes and an empty bar', () => {
    available(true);
    progress(3 * 1024 * 1024 + 512 * 1024, null);
    const text = renderTerminal(screens.view());
    expect(text).toContain('3.5 MiB');
    expect(text).not.toContain('%');
    expect(text).toMatch(/\[░+\]/);
  });
});

describe('helpers', () => {
  it('formats sizes, strips notes and words failures', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1 KiB');
    expect(formatBytes(40 * 1024 * 1024)).toBe('40.0 MiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
    // Digits, separators and unit symbols follow the language.
    expect(formatBytes(1.5 * 1024 * 1024, translator('de'))).toBe('1,5 MiB');
    expect(formatBytes(1.5 * 1024 * 1024, translator('fr'))).toBe('1,5\u00a0Mio');
    expect(plainNotes('<ul><li>One</li><li>Two &lt;3</li></ul>')).toBe('One Two <3');
    const en = translator('en');
    expect(en.text(describeOtaFailure('OTA_CPIO_TRUNCATED', 'install', 'x'))).toMatch(/failed its checks/);
    // a refused package says why, and that it is not downloaded again
    const why = (code: string, stage: 'download' | 'install' = 'install') =>
      en.text(describeOtaFailure(code, stage, 'x'));
    expect(why('OTA_MD5_MISMATCH', 'download')).toMatch(/^The downloaded update did not match its MD5/);
    expect(why('OTA_SWU_HASH_MISSING')).toMatch(/^An image in the update has no SHA-256 checksum/);
    expect(why('OTA_SWU_HASH_MISMATCH')).toMatch(
      /^An image in the update has no SHA-256 checksum or a wrong one/,
    );
    expect(why('OTA_SWU_UNSIGNED')).toMatch(/^The update is not signed by the device maker/);
    expect(why('OTA_SWU_SIGNATURE')).toMatch(/its signature is wrong/);
    for (const code of [
      'OTA_VERSION_DOWNGRADE',
      'OTA_VERSION_SAME',
      'OTA_SWU_HARDWARE',
      'OTA_DOWNLOAD_TOO_LARGE',
    ])
      expect(why(code)).toMatch(/^This device does not accept this update/);
    for (const code of ['OTA_MD5_MISMATCH', 'OTA_SWU_HASH_MISSING', 'OTA_SWU_SIGNATURE', 'OTA_VERSION_SAME'])
      expect(why(code)).toContain('not downloaded again until a new update is offered');
    // declined, battery, network: not refusals, the package may install later
    expect(why('OTA_BATTERY_LOW')).toMatch(/installs at the next check/);
    expect(translator('de').text(describeOtaFailure('OTA_SWU_SIGNATURE', 'install', 'x'))).toMatch(
      /nicht vom Gerätehersteller signiert/,
    );
    expect(en.text(describeOtaFailure('OTA_DOWNLOAD_HTTP', 'download', 'HTTP 503'))).toBe(
      'The download stopped (HTTP 503). It resumes at the next check.',
    );
  });
});
