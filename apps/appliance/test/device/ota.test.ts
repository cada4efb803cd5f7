import crypto from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Peer, startPeer, tempDir, waitFor } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtaEvent } from '../../src/domain/device/ota.js';
import { fakeSwupdateRunner } from '../../src/sim/device.js';
import { type Harness, type OtaHarness, received, startHarness, startOtaHarness } from './helpers.js';

const hooks = fileURLToPath(import.meta.resolve('@waved/test-lab/ts-hooks'));
const child = fileURLToPath(new URL('./fixtures/device-child.ts', import.meta.url));

describe('OTA against the reference cloud', () => {
  const dir = tempDir('device-ota-');
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

  const run = async (consent: boolean | null, battery = 90) => {
    const events: OtaEvent[] = [];
    let asked = 0;
    let reboots = 0;
    const app = await h.app({
      battery: { read: async () => battery },
      onOtaEvent: (e) => events.push(e),
      ota: {
        run: fakeSwupdateRunner(installs),
        consent: async () => {
          asked++;
          return consent === true;
        },
        reboot: async () => {
          reboots++;
        },
      },
    });
    await app.start();
    await app.session.establish();
    const installed = await app.ota.checkNow();
    const versions = app.versions();
    await app.stop();
    return { events, asked, reboots, installed, versions };
  };

  it('asks for consent on a normal update and installs nothing when the user declines', async () => {
    h.server.publishUpdate('psp_firmware', {
      version: '1.1.0',
      data: pkg,
      descriptions: { en: { html_note: 'notes' } },
    });
    const r = await run(false);
    expect(r.asked).toBe(1);
    expect(r.installed).toEqual([]);
    expect(r.versions.psp_firmware).toBe('1.0.0');
    expect(r.events.find((e) => e.type === 'consent-required')).toMatchObject({
      version: '1.1.0',
      notes: 'notes',
    });
    expect(received(h.server, 'firmware_install').at(-1)?.params).toMatchObject({
      result: 'declined',
      version: '1.1.0',
    });
    expect(installs).toHaveLength(0);
  });

  it('refuses to install on a low battery', async () => {
    const r = await run(true, 12);
    expect(r.installed).toEqual([]);
    expect(r.events.find((e) => e.type === 'failed')).toMatchObject({
      stage: 'install',
      code: 'OTA_BATTERY_LOW',
    });
    expect(received(h.server, 'firmware_install').at(-1)?.params).toMatchObject({ result: 'battery_low' });
    expect(installs).toHaveLength(0);
  });

  it('installs after consent, shows progress, writes the progress and done files, reboots, and is then up to date', async () => {
    const r = await run(true);
    expect(r.installed).toEqual(['psp_firmware']);
    expect(r.reboots).toBe(1);
    expect(r.versions.psp_firmware).toBe('1.1.0');
    expect(installs.at(-1)?.at(-1)).toMatch(/software\.swu$/);
    const last = r.events.filter((e) => e.type === 'progress').at(-1);
    expect(last).toMatchObject({ received: pkg.length, percent: 100 });
    expect(fs.readFileSync(dir.join('curl_progress_software'), 'utf8')).toContain('100.0%');
    expect(fs.readFileSync(dir.join('swu.done'), 'utf8').trim()).toBe('done');
    // the package kept on disk since the declined and the battery-blocked checks: no new download
    expect(received(h.server, 'firmware_download').at(-1)?.params).toMatchObject({
      result: 'cached',
      package: 'psp_firmware',
    });
    expect(received(h.server, 'firmware_install').at(-1)?.params).toMatchObject({
      result: 'ok',
      version: '1.1.0',
    });

    const again = await run(true);
    expect(again.events.filter((e) => e.type === 'up-to-date')).toHaveLength(2);
    expect(again.installed).toEqual([]);
  });

  it('checks firmware before model; a forced update installs without asking', async () => {
    h.server.publishUpdate('psp_firmware', { version: '1.2.0', data: pkg, forced: true });
    h.server.publishUpdate('psp_model', { version: 'm2', data: pkg, forced: true });
    const before = received(h.server, 'check_update').length;
    const r = await run(null);
    expect(r.asked).toBe(0);
    expect(r.installed).toEqual(['psp_firmware', 'psp_model']);
    expect(r.events.filter((e) => e.type === 'available').map((e) => (e as { kind: string }).kind)).toEqual([
      'psp_firmware',
      'psp_model',
    ]);
    expect(r.versions).toEqual({ psp_firmware: '1.2.0', psp_model: 'm2' });
    expect(received(h.server, 'check_update')).toHaveLength(before + 1);
    h.server.withdrawUpdate('psp_model');
  });

  it('does not install a package whose MD5 differs from file_md5', async () => {
    h.server.publishUpdate('psp_firmware', { version: '1.3.0', data: pkg, forced: true });
    const count = installs.length;
    h.corrupt = true;
    try {
      const r = await run(true);
      expect(r.installed).toEqual([]);
      expect(r.events.find((e) => e.type === 'failed')).toMatchObject({
        stage: 'download',
        code: 'OTA_MD5_MISMATCH',
      });
      expect(received(h.server, 'firmware_download').at(-1)?.params).toMatchObject({
        result: 'refused',
        error: 'OTA_MD5_MISMATCH',
      });
      expect(installs).toHaveLength(count);
      expect(fs.existsSync(dir.join('ota', 'software.swu'))).toBe(false);
    } finally {
      h.corrupt = false;
    }
  });
});

describe('OTA download killed with SIGKILL resumes on the next run', () => {
  const dir = tempDir('device-ota-kill-');
  let h: Harness;
  let throttle = true;
  let pkg: Buffer;
  const peers: Peer[] = [];
  afterAll(async () => {
    for (const p of peers) await p.stop(200);
    await h?.close();
    dir.remove();
  });

  it('keeps the bytes a killed run downloaded and installs the same package', async () => {
    // 2 MiB of incompressible payload inside a real .swu
    const big = crypto.randomBytes(2 * 1024 * 1024);
    const { buildSwu } = await import('@waved/swu-ota');
    await buildSwu({
      description: {
        software: {
          version: '2.0.0',
          images: [{ filename: 'rootfs.img', type: 'raw', device: '/dev/null' }],
        },
      },
      files: [{ name: 'rootfs.img', data: big }],
      output: dir.join('big.swu'),
    });
    pkg = fs.readFileSync(dir.join('big.swu'));
    const etag = `"${crypto.createHash('md5').update(pkg).digest('hex')}"`;
    h = await startHarness(dir.path, {
      intercept: (r) => {
        if (!throttle || r.route !== 'otaPackage' || r.method !== 'GET') return undefined;
        let at = 0;
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            await new Promise((res) => setTimeout(res, 15));
            if (at >= pkg.length) return controller.close();
            controller.enqueue(pkg.subarray(at, at + 32 * 1024));
            at += 32 * 1024;
          },
        });
        return new Response(body, {
          headers: { 'content-length': String(pkg.length), etag, 'accept-ranges': 'bytes' },
        });
      },
    });
    h.server.publishUpdate('psp_firmware', { version: '2.0.0', data: pkg, forced: true });

    const p = startPeer(process.execPath, [
      '--no-warnings',
      '--import',
      hooks,
      child,
      'ota',
      dir.path,
      h.url,
    ]);
    peers.push(p);
    await waitFor(
      () => {
        const got = [...p.output().matchAll(/progress (\d+)/g)].map((m) => Number(m[1]));
        return (got.at(-1) ?? 0) > 700_000;
      },
      { timeoutMs: 20_000, what: `the child to download 700 kB: ${p.output().slice(-300)}` },
    );
    process.kill(p.pid, 'SIGKILL');
    expect(await p.exited).toBeNull();
    expect(p.output()).not.toContain('ota finished');
    const kept = fs.statSync(dir.join('ota', 'software.swu.part')).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(pkg.length);

    throttle = false;
    const events: OtaEvent[] = [];
    const installs: string[][] = [];
    const app = await h.app({
      onOtaEvent: (e) => events.push(e),
      ota: { run: fakeSwupdateRunner(installs), reboot: async () => {} },
    });
    await app.start();
    expect(app.boot?.crashed).toBe(true);
    await app.session.establish();
    expect(await app.ota.checkNow()).toEqual(['psp_firmware']);
    await app.stop();
    const done = events.find((e) => e.type === 'downloaded');
    expect(done).toMatchObject({ size: pkg.length });
    expect((done as { resumedBytes: number }).resumedBytes).toBeGreaterThan(0);
    expect((done as { resumedBytes: number }).resumedBytes).toBeLessThanOrEqual(kept);
    expect(installs).toHaveLength(1);
    expect(received(h.server, 'system_crash')).toHaveLength(1);
  });

  it('a shutdown during a download stops it at once and keeps the partial file', async () => {
    throttle = true;
    h.server.publishUpdate('psp_firmware', { version: '3.0.0', data: pkg, forced: true });
    const events: OtaEvent[] = [];
    const app = await h.app({
      onOtaEvent: (e) => events.push(e),
      ota: { run: fakeSwupdateRunner([]), reboot: async () => {} },
    });
    await app.start();
    await app.session.establish();
    const check = app.ota.checkNow();
    await waitFor(() => events.some((e) => e.type === 'progress' && e.received > 100_000), {
      what: 'some progress',
    });
    const t0 = Date.now();
    await app.stop();
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await check).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'failed', stage: 'download', code: 'OTA_ABORTED' });
    expect(fs.statSync(dir.join('ota', 'software.swu.part')).size).toBeGreaterThan(0);
    expect(received(h.server, 'firmware_download').at(-1)?.params).toMatchObject({
      version: '3.0.0',
      result: 'aborted',
    });
  });
});
