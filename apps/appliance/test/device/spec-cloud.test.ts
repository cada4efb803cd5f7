// The device application against a cloud written from the specification's text (spec-cloud.ts),
// not against @waved/psp-cloud's reference server: the update checks, the package store (refused,
// declined and battery-blocked packages, resume under a new signed URL), the resumable meeting
// upload and the area the device is bound to.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { buildSwu } from '@waved/swu-ota';
import { tempDir, waitFor } from '@waved/test-lab';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StateBus } from '../../src/core/bus.js';
import {
  createDeviceApp,
  createNullAsrEngine,
  type DeviceApp,
  type DeviceAppOptions,
} from '../../src/domain/device/app.js';
import type { OtaEvent } from '../../src/domain/device/ota.js';
import { defaultSettings } from '../../src/domain/settings/index.js';
import { createGeneratedCapture } from '../../src/sim/audio.js';
import {
  buildSimPackage,
  fakeSwupdateRunner,
  openSimDeviceStores,
  simDevicePaths,
} from '../../src/sim/device.js';
import { memoryLogger } from './helpers.js';
import { type Env, type SpecCloud, startSpecCloud } from './spec-cloud.js';

const FIRMWARE = '2.3.1';
const MODEL = 'm7';

interface Device {
  app: DeviceApp;
  events: OtaEvent[];
  installs: string[][];
  asked: number;
}

describe('the device application against a cloud written from the specification', () => {
  const dir = tempDir('device-spec-cloud-');
  let cloud: SpecCloud;
  const settings = defaultSettings();
  const bus = new StateBus();
  const logger = memoryLogger(!!process.env.DEBUG_DEVICE);
  let n = 0;
  beforeAll(async () => {
    cloud = await startSpecCloud();
  });
  beforeEach(() => {
    cloud.problems.length = 0;
  });
  afterAll(async () => {
    await cloud?.close();
    dir.remove();
  });

  /** One run of the device application in its own data directory (`name`), as `waved start` wires it. */
  async function device(
    name: string,
    o: {
      consent?: boolean;
      battery?: number;
      environment?: Env;
      requireImageSha256?: boolean;
      audio?: DeviceAppOptions['audio'];
      asrEngine?: DeviceAppOptions['asrEngine'];
    } = {},
  ): Promise<Device> {
    const events: OtaEvent[] = [];
    const installs: string[][] = [];
    const d: Device = { app: undefined as unknown as DeviceApp, events, installs, asked: 0 };
    const data = dir.join(name);
    fs.mkdirSync(data, { recursive: true });
    d.app = createDeviceApp({
      bus,
      settings: { current: () => settings },
      paths: simDevicePaths(data),
      stores: await openSimDeviceStores(data),
      identity: {
        serial: 'PSP0001',
        registrationSecret: 'factory-secret',
        mac: '02:00:00:00:00:01',
        firmwareVersion: FIRMWARE,
        modelVersion: MODEL,
      },
      cloud: { urls: cloud.hosts(), environment: o.environment ?? 'production', retry: { retries: 0 } },
      audio: o.audio ?? createGeneratedCapture({ chunkMs: 50 }),
      ...(o.asrEngine ? { asrEngine: o.asrEngine } : {}),
      battery: { read: async () => o.battery ?? 90 },
      ota: {
        run: fakeSwupdateRunner(installs),
        reboot: async () => {},
        consent: async () => {
          d.asked++;
          return o.consent ?? true;
        },
        checkpointBytes: 16 * 1024,
        ...(o.requireImageSha256 === false ? { requireImageSha256: false } : {}),
      },
      onOtaEvent: (e) => events.push(e),
      logger,
      clock: { now: Date.now, uptimeMs: () => 1234 },
      telemetry: { flushIntervalMs: 60_000 },
      storage: async () => ({ totalMb: 32768, freeMb: 30000 }),
    });
    n++;
    return d;
  }

  /** The telemetry events the cloud received, by name. */
  const telemetry = (name: string) =>
    cloud.seen
      .filter((s) => s.method === 'POST' && s.path === '/analytics/v1/events')
      .flatMap(
        (s) =>
          (
            JSON.parse(s.body.toString()) as {
              events: Array<{ event: string; params: Record<string, unknown> }>;
            }
          ).events,
      )
      .filter((e) => e.event === name);

  const publish = (kind: 'psp_firmware' | 'psp_model', version: string, data: Uint8Array, extra = {}) => {
    const name = `${kind}-${version}-${n}.swu`;
    cloud.packages.set(name, { data: Buffer.from(data) });
    cloud.offers[kind] = { version, package: name, ...extra };
    return name;
  };

  it('both update checks are the plain GET of the spec: path, X-Device-Serial, X-Device-Version = the firmware version, no token', async () => {
    cloud.seen.length = 0;
    cloud.offers = { psp_firmware: null, psp_model: null };
    const { app } = await device('checks');
    await app.start();
    // no session: a device whose registration fails can still get a fix
    expect(await app.ota.checkNow()).toEqual([]);
    await app.stop();
    const checks = cloud.seen.filter((s) => s.path.includes('/upgrade/'));
    expect(checks.map((s) => `${s.method} ${s.service} ${s.path}`)).toEqual([
      'GET cloud /app/v1/common/upgrade/psp_firmware',
      'GET cloud /app/v1/common/upgrade/psp_model',
    ]);
    for (const c of checks) {
      expect(c.headers['x-device-serial']).toBe('PSP0001');
      // the firmware version on both checks, not the model's own version (spec Versioning 2)
      expect(c.headers['x-device-version']).toBe(FIRMWARE);
      expect(c.headers.authorization).toBeUndefined();
      expect(c.headers['x-signature']).toBeUndefined();
      expect(c.body.length).toBe(0);
    }
    expect(cloud.seen.filter((s) => s.path.includes('/device/'))).toEqual([]);
    expect(cloud.problems).toEqual([]);
  });

  it('the refused package is not downloaded twice (MD5), until the cloud offers another one', async () => {
    const pkg = await buildSimPackage(dir.path, '2.4.0');
    const name = publish('psp_firmware', '2.4.0', pkg, { file_md5: 'f'.repeat(32), forced: true });
    const d1 = await device('refused-md5');
    await d1.app.start();
    await d1.app.session.establish();
    expect(await d1.app.ota.checkNow()).toEqual([]);
    expect(d1.events.find((e) => e.type === 'failed')).toMatchObject({
      stage: 'download',
      code: 'OTA_MD5_MISMATCH',
      refusal: { code: 'OTA_MD5_MISMATCH', category: 'md5' },
    });
    await d1.app.telemetry.flush();
    expect(telemetry('firmware_download').at(-1)?.params).toMatchObject({
      version: '2.4.0',
      result: 'refused',
      error: 'OTA_MD5_MISMATCH',
    });
    // every later check (each Wi-Fi connect): no request for the package, nothing on the screen
    expect(await d1.app.ota.checkNow()).toEqual([]);
    await d1.app.stop();
    const d2 = await device('refused-md5');
    await d2.app.start();
    expect(await d2.app.ota.checkNow()).toEqual([]);
    expect(d2.events.filter((e) => e.type === 'available')).toEqual([]);
    expect(d2.events.find((e) => e.type === 'skipped')).toMatchObject({
      version: '2.4.0',
      refusal: { category: 'md5' },
    });
    expect(cloud.packageGets(name)).toHaveLength(1);
    // the same package under a new signed URL is still the same refused package
    cloud.offers.psp_firmware = { ...cloud.offers.psp_firmware!, query: '?sig=other' };
    expect(await d2.app.ota.checkNow()).toEqual([]);
    expect(cloud.packageGets(name)).toHaveLength(1);
    // a new descriptor (the right MD5 this time) is downloaded and installed
    const fixed = publish('psp_firmware', '2.4.1', pkg, { forced: true });
    expect(await d2.app.ota.checkNow()).toEqual(['psp_firmware']);
    expect(cloud.packageGets(fixed)).toHaveLength(1);
    await d2.app.stop();
    expect(cloud.problems).toEqual([]);
    cloud.offers.psp_firmware = null;
  });

  it('a package without image hashes is refused and says why; ota.require_image_sha256 = false then installs it', async () => {
    const noHashes = async (version: string) => {
      const out = dir.join(`nohash-${version}.swu`);
      await buildSwu({
        description: `software = { version = "${version}"; images: ( { filename = "rootfs.img"; type = "raw"; device = "/dev/null"; } ); };\n`,
        files: [{ name: 'rootfs.img', data: Buffer.alloc(64 * 1024, 7) }],
        output: out,
      });
      return fs.readFileSync(out);
    };
    const name = publish('psp_firmware', '2.5.0', await noHashes('2.5.0'), { forced: true });
    const d1 = await device('refused-hash');
    await d1.app.start();
    await d1.app.session.establish();
    expect(await d1.app.ota.checkNow()).toEqual([]);
    expect(d1.events.find((e) => e.type === 'failed')).toMatchObject({
      stage: 'install',
      code: 'OTA_SWU_HASH_MISSING',
      refusal: { category: 'hash' },
    });
    expect(d1.installs).toEqual([]);
    // removed from the storage, remembered beside it
    expect(fs.existsSync(dir.join('refused-hash', 'ota', 'software.swu'))).toBe(false);
    expect(fs.statSync(dir.join('refused-hash', 'ota', 'software.refused.json')).mode & 0o777).toBe(0o600);
    expect(await d1.app.ota.checkNow()).toEqual([]);
    expect(cloud.packageGets(name)).toHaveLength(1);
    await d1.app.telemetry.flush();
    expect(telemetry('firmware_install').at(-1)?.params).toMatchObject({
      version: '2.5.0',
      result: 'refused',
      error: 'OTA_SWU_HASH_MISSING',
    });
    await d1.app.stop();

    // the device maker turns the hash requirement off for unsigned vendor packages: the refusals
    // made under the old policy are forgotten, and the same package installs
    const d2 = await device('refused-hash', { requireImageSha256: false });
    await d2.app.start();
    expect(await d2.app.ota.checkNow()).toEqual(['psp_firmware']);
    expect(d2.installs).toHaveLength(1);
    expect(cloud.packageGets(name)).toHaveLength(2);
    expect(logger.lines.join('\n')).toContain('the update policy changed');
    await d2.app.stop();
    cloud.offers.psp_firmware = null;
  });

  it('the declined package is installed later from disk, and so is a battery-blocked one', async () => {
    const pkg = await buildSimPackage(dir.path, '2.6.0');
    const name = publish('psp_firmware', '2.6.0', pkg);
    const declined = await device('kept', { consent: false });
    await declined.app.start();
    expect(await declined.app.ota.checkNow()).toEqual([]);
    expect(declined.asked).toBe(1);
    await declined.app.stop();
    expect(fs.existsSync(dir.join('kept', 'ota', 'software.swu'))).toBe(true);

    const low = await device('kept', { battery: 10 });
    await low.app.start();
    expect(await low.app.ota.checkNow()).toEqual([]);
    expect(low.events.find((e) => e.type === 'failed')).toMatchObject({ code: 'OTA_BATTERY_LOW' });
    expect(low.events.find((e) => e.type === 'failed')).not.toHaveProperty('refusal');
    await low.app.stop();

    const later = await device('kept');
    await later.app.start();
    expect(await later.app.ota.checkNow()).toEqual(['psp_firmware']);
    expect(later.installs).toHaveLength(1);
    expect(later.events.find((e) => e.type === 'downloaded')).toMatchObject({ size: pkg.length });
    await later.app.session.establish();
    await later.app.telemetry.flush();
    await later.app.stop();
    // one GET of the package for the three checks
    expect(cloud.packageGets(name)).toHaveLength(1);
    expect(telemetry('firmware_download').at(-1)?.params).toMatchObject({
      version: '2.6.0',
      result: 'cached',
    });
    // installed: the package has done its job
    expect(fs.existsSync(dir.join('kept', 'ota', 'software.swu'))).toBe(false);
    cloud.offers.psp_firmware = null;
  });

  it('a cut download resumes under a new signed URL (another query string) with a Range request', async () => {
    const pkg = Buffer.from(await buildSimPackage(dir.path, '2.7.0'));
    const name = publish('psp_firmware', '2.7.0', pkg, { query: '?sig=first&expires=1', forced: true });
    cloud.packages.get(name)!.holdAfter = 100 * 1024;
    const first = await device('resume');
    await first.app.start();
    const check = first.app.ota.checkNow();
    // the cut is checkpointed (the state file holds what arrived); the device shuts down while it
    // waits to resume
    const state = dir.join('resume', 'ota', 'software.swu.part.json');
    const durable = () => {
      try {
        return (JSON.parse(fs.readFileSync(state, 'utf8')) as { bytes: number }).bytes;
      } catch {
        return 0;
      }
    };
    await waitFor(() => durable() >= 64 * 1024, { what: 'the first part of the package on disk' });
    cloud.cut(name);
    await waitFor(() => cloud.packageGets(name).length >= 2, { what: 'a try to resume the cut download' });
    await first.app.stop();
    expect(await check).toEqual([]);
    const kept = fs.statSync(dir.join('resume', 'ota', 'software.swu.part')).size;
    expect(kept).toBeGreaterThan(0);

    cloud.packages.get(name)!.down = false;
    cloud.offers.psp_firmware = { ...cloud.offers.psp_firmware!, query: '?sig=second&expires=2' };
    const second = await device('resume');
    await second.app.start();
    expect(await second.app.ota.checkNow()).toEqual(['psp_firmware']);
    await second.app.stop();
    // the first URL was cut (and then answered 503 while the device tried to resume); the new one
    // is asked once, for the bytes that were missing
    const gets = cloud.packageGets(name);
    expect(gets[0]!.path).toContain('sig=first');
    expect(gets.filter((g) => g.path.includes('sig=second'))).toHaveLength(1);
    expect(gets.at(-1)!.path).toContain('sig=second');
    expect(gets.at(-1)!.headers.range).toBe(`bytes=${kept}-`);
    const resumed = second.events.find((e) => e.type === 'downloaded') as {
      resumedBytes: number;
      size: number;
    };
    expect(resumed.size).toBe(pkg.length);
    expect(resumed.resumedBytes).toBeGreaterThan(0);
    expect(second.installs).toHaveLength(1);
    // a signed URL's query is a credential: never in the log
    expect(logger.lines.join('\n')).not.toMatch(/sig=(first|second)/);
    expect(cloud.problems).toEqual([]);
    cloud.offers.psp_firmware = null;
  });

  it('a cut meeting upload resumes from the last chunk the cloud acknowledged', async () => {
    // 5 chunks of the 64 KiB the cloud asks for, recorded at once
    const pcm = crypto.randomBytes(5 * 65_536 - 44 - 1000);
    const audio: DeviceAppOptions['audio'] = {
      async *capture(signal) {
        yield pcm;
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      },
    };
    const { app } = await device('upload', { audio });
    await app.start();
    await app.session.establish();
    cloud.seen.length = 0;
    cloud.cutChunk = 3;
    const info = await app.initRecording({ mode: 0 });
    await app.recorder.start();
    await waitFor(() => app.recorder.files(info.id).some((f) => f.bytes >= pcm.length), {
      what: 'the recording',
    });
    await app.recorder.finish();
    await app.uploader.idle();
    const [file] = app.recorder.files(info.id);
    expect(file).toMatchObject({ uploadStatus: 'failed' });
    // the next pass (a reconnect, the next session) goes on from where the cloud is
    await app.uploader.run();
    expect(app.recorder.files(info.id)[0]).toMatchObject({ uploadStatus: 'uploaded' });
    const chunks = cloud.seen
      .filter((s) => s.path.startsWith('/summary-service/meeting/file/upload/chunk'))
      .map((s) => Number(new URL(s.path, 'http://x').searchParams.get('offset')));
    // the third chunk was lost with its connection and sent again; nothing before it was
    expect(chunks).toEqual([0, 65_536, 131_072, 131_072, 196_608, 262_144]);
    const starts = cloud.seen.filter((s) => s.path === '/summary-service/meeting/file/upload/start');
    expect(starts).toHaveLength(2);
    // then the completion and the transcription trigger, once each
    const after = cloud.seen.map((s) => s.path).filter((p) => /file\/complete|transcription\/start/.test(p));
    expect(after).toEqual([
      '/summary-service/meeting/file/complete',
      '/summary-service/meeting/transcription/start',
    ]);
    const bytes = fs.readFileSync(dir.join('upload', 'recordings', 'default', file!.fileName));
    expect(
      Buffer.concat([...cloud.uploads.values()].filter((b) => b.length === bytes.length)).equals(bytes),
    ).toBe(true);
    await app.stop();
    expect(cloud.problems).toEqual([]);
  });

  it('during transcription the meeting notices reach the cloud: ASR notice, word sync, dot notice', async () => {
    // an engine that hears one final sentence just after it opens
    const asrEngine: NonNullable<DeviceAppOptions['asrEngine']> = {
      ...createNullAsrEngine(),
      open: async (_info, config, listener) => {
        setTimeout(
          () =>
            listener.subtitle({
              seq: 1,
              text: 'hello',
              final: true,
              startMs: 0,
              endMs: 400,
              language: config.language,
            }),
          10,
        );
      },
    };
    const { app } = await device('notices', { asrEngine });
    await app.start();
    await app.session.establish();
    cloud.seen.length = 0;
    await app.initRecording({ mode: 1, language: 'en' });
    await app.recorder.start();
    await waitFor(() => cloud.seen.some((x) => x.path === '/summary-service/meeting/words/sync'), {
      what: 'the words the engine heard',
    });
    await app.recorder.mark();
    await app.recorder.finish();
    await app.asr.settled();
    await app.stop();
    const sent = (p: string) =>
      cloud.seen
        .filter((s) => s.path === p)
        .map((s) => JSON.parse(s.body.toString()) as Record<string, unknown>);
    expect(sent('/summary-service/meeting/asr/notice').length).toBeGreaterThan(0);
    expect(sent('/summary-service/meeting/words/sync')).toEqual([
      expect.objectContaining({ seq: 1, words: [expect.objectContaining({ text: 'hello' })] }),
    ]);
    expect(sent('/summary-service/meeting/dot/notice')).toHaveLength(1);
    for (const s of cloud.seen.filter((x) => x.path.startsWith('/summary-service/meeting/')))
      expect(s.region).toBe('eu');
    expect(cloud.problems).toEqual([]);
  });

  for (const environment of ['production', 'test'] as const) {
    for (const [country, region] of [
      ['CN', 'cn'],
      ['US', 'us'],
      ['DE', 'eu'],
      ['', 'eu'],
    ] as const) {
      it(`a device in ${country || 'no country'} with ${environment} hosts talks to ${environment}-${region} only, telemetry included`, async () => {
        settings.device.country = country;
        cloud.seen.length = 0;
        const { app } = await device(`area-${environment}-${region}-${country}`, { environment });
        await app.start();
        await app.session.establish();
        await app.ota.checkNow();
        await app.telemetry.flush();
        await app.stop();
        settings.device.country = '';
        const areas = new Set(cloud.seen.map((s) => `${s.environment}-${s.region}`));
        expect(areas).toEqual(new Set([`${environment}-${region}`]));
        const services = new Set(cloud.seen.map((s) => `${s.service} ${s.path.split('?')[0]}`));
        expect(services).toEqual(
          new Set([
            'cloud /app/v1/common/upgrade/psp_firmware',
            'cloud /app/v1/common/upgrade/psp_model',
            'summary /summary-service/device/secret/register',
            'summary /summary-service/device/token/refresh',
            'telemetry /analytics/v1/events',
          ]),
        );
        expect(cloud.problems).toEqual([]);
      });
    }
  }

  it('a country change takes effect at the next session: the checks, the session and telemetry move with it', async () => {
    settings.device.country = 'DE';
    const { app } = await device('moving');
    await app.start();
    await app.session.establish();
    cloud.seen.length = 0;
    settings.device.country = 'US';
    // nothing moves in the middle of a session
    await app.ota.checkNow();
    expect(new Set(cloud.seen.map((s) => s.region))).toEqual(new Set(['eu']));
    cloud.seen.length = 0;
    await app.session.establish();
    await app.ota.checkNow();
    await app.telemetry.flush();
    await app.stop();
    settings.device.country = '';
    expect(new Set(cloud.seen.map((s) => `${s.environment}-${s.region}`))).toEqual(
      new Set(['production-us']),
    );
    expect(cloud.seen.some((s) => s.service === 'telemetry')).toBe(true);
    expect(cloud.problems).toEqual([]);
  });
});
