import fs from 'node:fs';
import path from 'node:path';
import { buildSwu } from '@waved/swu-ota';
import { tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScreens, renderTerminal, type ScreenView } from '../../src/domain/screens/index.js';
import { fakeSwupdateRunner } from '../../src/sim/device.js';
import { type OtaHarness, received, startOtaHarness } from '../device/helpers.js';

// The screens wired to a real device application the way `waved sim` wires them (onOtaEvent,
// ota.consent), against the reference cloud server on loopback.
describe('software update screen with the device application', () => {
  const dir = tempDir('screens-ota-');
  let h: OtaHarness;
  let pkg: Uint8Array;
  const installs: string[][] = [];
  beforeAll(async () => {
    h = await startOtaHarness(dir.path);
    pkg = h.pkg;
  });
  afterAll(async () => {
    await h?.close();
    dir.remove();
  });

  /** One update check with the screens as the user's side; `user` presses a button on a view. */
  const run = async (user: (view: ScreenView) => 'install' | 'later' | null, battery = 90) => {
    const screens = createScreens({ bus: h.bus });
    const views: ScreenView[] = [];
    const drawn: string[] = [];
    screens.subscribe((v) => {
      views.push(v);
      drawn.push(renderTerminal(v));
      const press = user(v);
      if (press) queueMicrotask(() => screens.press(press));
    });
    let asked = 0;
    const app = await h.app({
      battery: { read: async () => battery },
      onOtaEvent: (e) => screens.otaEvent(e),
      ota: {
        run: fakeSwupdateRunner(installs),
        consent: (info) => {
          asked++;
          return screens.consent(info);
        },
        reboot: async () => {},
      },
    });
    await app.start();
    await app.session.establish();
    const installed = await app.ota.checkNow();
    const versions = app.versions();
    const last = screens.view();
    await app.stop();
    screens.close();
    return { views, drawn, asked, installed, versions, last };
  };

  it('a normal update shows its progress, asks, and Install installs it', async () => {
    h.server.publishUpdate('psp_firmware', {
      version: '1.1.0',
      data: pkg,
      descriptions: { en: { html_note: '<p>Faster setup</p>' } },
    });
    const r = await run((v) => (v.screen === 'update' && v.phase === 'consent' ? 'install' : null));
    expect(r.asked).toBe(1);
    expect(r.installed).toEqual(['psp_firmware']);
    expect(r.versions.psp_firmware).toBe('1.1.0');
    const phases = [...new Set(r.views.flatMap((v) => (v.screen === 'update' ? [v.phase] : [])))];
    expect(phases).toEqual(['available', 'downloading', 'verifying', 'consent', 'installing', 'restarting']);
    expect(r.views[0]).toMatchObject({
      screen: 'update',
      headline: 'Update available v1.1.0 (needs consent)',
      notes: 'Faster setup',
      buttons: [
        { action: 'install', label: 'Install' },
        { action: 'later', label: 'Later' },
      ],
    });
    expect(r.drawn.some((t) => /\[█+\] 100%/.test(t) && t.includes(`${pkg.length >> 10} KiB of`))).toBe(true);
    expect(r.last).toMatchObject({ screen: 'update', phase: 'restarting', status: 'Restarting…' });
  });

  it('Later keeps the running version', async () => {
    h.server.publishUpdate('psp_firmware', { version: '1.2.0', data: pkg });
    const r = await run((v) => (v.screen === 'update' && v.phase === 'available' ? 'later' : null));
    expect(r.asked).toBe(1);
    expect(r.installed).toEqual([]);
    expect(r.versions.psp_firmware).toBe('1.1.0');
    expect(r.last.screen).toBe('menu');
    expect(received(h.server, 'firmware_install').at(-1)?.params).toMatchObject({
      result: 'declined',
      version: '1.2.0',
    });
  });

  it('a forced update installs without asking and never offers a choice', async () => {
    h.server.publishUpdate('psp_firmware', { version: '1.3.0', data: pkg, forced: true });
    const r = await run(() => null);
    expect(r.asked).toBe(0);
    expect(r.installed).toEqual(['psp_firmware']);
    const updates = r.views.filter((v) => v.screen === 'update');
    expect(updates.length).toBeGreaterThan(3);
    for (const v of updates) {
      expect(v).toMatchObject({ headline: 'Installing update v1.3.0', forced: true });
      expect(v.buttons).toEqual([]);
    }
  });

  it('a battery too low is said plainly', async () => {
    h.server.publishUpdate('psp_firmware', { version: '1.4.0', data: pkg, forced: true });
    const r = await run(() => null, 12);
    expect(r.installed).toEqual([]);
    expect(r.last).toMatchObject({
      screen: 'update',
      phase: 'failed',
      buttons: [{ action: 'ok', label: 'OK' }],
    });
    expect(r.last.screen === 'update' && r.last.error).toMatch(/^Battery too low/);
  });

  it('a package whose images carry no sha256 is refused with its reason, once', async () => {
    const out = path.join(dir.path, 'nohash.swu');
    await buildSwu({
      description:
        'software = { version = "1.4.5"; images: ( { filename = "rootfs.img"; type = "raw"; device = "/dev/null"; } ); };\n',
      files: [{ name: 'rootfs.img', data: Buffer.alloc(4096, 1) }],
      output: out,
    });
    h.server.publishUpdate('psp_firmware', { version: '1.4.5', data: fs.readFileSync(out), forced: true });
    const r = await run(() => null);
    expect(r.installed).toEqual([]);
    expect(r.last).toMatchObject({
      screen: 'update',
      phase: 'failed',
      buttons: [{ action: 'ok', label: 'OK' }],
    });
    expect(r.last.screen === 'update' && r.last.error).toMatch(
      /^An image in the update has no SHA-256 checksum/,
    );
    expect(received(h.server, 'firmware_install').at(-1)?.params).toMatchObject({
      version: '1.4.5',
      result: 'refused',
      error: 'OTA_SWU_HASH_MISSING',
    });
    // the next check (the next Wi-Fi connect) leaves the screen alone
    const again = await run(() => null);
    expect(again.views.filter((v) => v.screen === 'update')).toEqual([]);
  });

  it('a damaged download (MD5 mismatch) is said plainly, with the refusal', async () => {
    // The battery test above left its package (the same bytes) on disk for a later install: remove
    // it, so that this update is downloaded.
    fs.rmSync(path.join(dir.path, 'ota', 'software.swu'), { force: true });
    h.corrupt = true;
    try {
      h.server.publishUpdate('psp_firmware', { version: '1.5.0', data: pkg, forced: true });
      const r = await run(() => null);
      expect(r.installed).toEqual([]);
      expect(r.last).toMatchObject({ screen: 'update', phase: 'failed' });
      expect(r.last.screen === 'update' && r.last.error).toMatch(/did not match its MD5 checksum/);
      expect(renderTerminal(r.last)).toContain('checksum and was deleted');
    } finally {
      h.corrupt = false;
    }
  });
});
