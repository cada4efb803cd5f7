import fs from 'node:fs';
import { tempDir, waitFor } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { type Harness, received, startHarness } from './helpers.js';

describe('cloud session', () => {
  const dir = tempDir('device-session-');
  let h: Harness;
  afterAll(async () => {
    await h?.close();
    dir.remove();
  });

  it('registers once, refreshes the token, and keeps the credentials per B2 in the credentials file (0600)', async () => {
    h = await startHarness(dir.path);
    const app = await h.app();
    await app.start();
    expect(app.session.isReady()).toBe(false);
    h.bus.publish('WifiConnected', { ssid: 'Home' });
    await app.session.ready();
    await app.stop();

    const file = dir.join('credentials.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<
      'slots' | 'entries',
      Record<string, string>
    >;
    const get = (kind: string, id: number) => stored[kind === 'slot' ? 'slots' : 'entries'][String(id)];
    expect(get('slot', 0)).toBe('PSP0001');
    expect(get('entry', 0xe7)).toBe('factory-secret');
    const deviceSecret = get('entry', 0x11a);
    const salt = get('entry', 0x11b);
    expect(deviceSecret).toMatch(/^[0-9a-f]{16,}$/);
    expect(salt).toBeTruthy();
    expect(get('slot', 0xe)).toBe(deviceSecret);
    expect(get('slot', 0xf)).toBe(salt);
    expect(get('entry', 0xe8)).toBeTruthy();
    expect(h.server.devices()).toHaveLength(1);

    // a second run does not register again: it only refreshes the token
    const again = await h.app();
    await again.start();
    await again.session.establish();
    await again.stop();
    const [device] = h.server.devices();
    expect(device?.tokens).toBe(2);
    expect(received(h.server, 'device_network_connect')[0]?.params.ssid).toBe('Home');

    const log = h.logger.lines.join('\n');
    for (const secret of [deviceSecret, salt, get('entry', 0xe8), 'factory-secret']) {
      expect(log).not.toContain(secret as string);
    }
  });

  it('refreshes the token ahead of the lifetime the server gave it', async () => {
    const local = tempDir('device-session-ttl-');
    const refreshes: number[] = [];
    // a 10 s token: refreshed 2 s (a fifth of its life) before it runs out, not on a fixed timer
    const h2 = await startHarness(local.path, {
      tokenTtlSeconds: 10,
      intercept: (r) => {
        if (r.route === 'refreshToken') refreshes.push(Date.now());
        return undefined;
      },
    });
    try {
      const app = await h2.app();
      await app.start();
      await app.session.establish();
      await waitFor(() => refreshes.length >= 2, { what: 'the second token refresh', timeoutMs: 15_000 });
      const gap = refreshes[1]! - refreshes[0]!;
      expect(gap).toBeGreaterThanOrEqual(7_900);
      expect(gap).toBeLessThan(10_000);
      await app.stop();
      expect(h2.server.devices()[0]?.tokens).toBe(2);
    } finally {
      await h2.close();
      local.remove();
    }
  });

  it('takes the cloud region from the settings country (EU for everything but CN and US)', async () => {
    const region = async (country: string) => {
      h.settings.device.country = country;
      const app = await h.app();
      const r = app.client.region;
      await app.stop();
      return r;
    };
    const got = [await region('US'), await region('CN'), await region('DE'), await region('')];
    expect(got).toEqual(['us', 'cn', 'eu', 'eu']);
    h.settings.device.country = '';
  });

  it('a changed country moves the device to the new area at the next session', async () => {
    h.settings.device.country = 'DE';
    const app = await h.app();
    await app.start();
    await app.session.establish();
    expect(app.client.region).toBe('eu');
    h.settings.device.country = 'US';
    // nothing moves in the middle of a session
    expect(app.client.region).toBe('eu');
    await app.session.establish();
    expect(app.client.region).toBe('us');
    expect(h.logger.lines.join('\n')).toContain('from the eu to the us area');
    await app.stop();
    h.settings.device.country = '';
  });

  it('keeps trying after the cloud refused, then does what the Wi-Fi connect asked for (update check)', async () => {
    let refuse = true;
    const local = tempDir('device-session-retry-');
    const h2 = await startHarness(local.path, {
      intercept: (r) =>
        refuse && r.route === 'register'
          ? Response.json({ error: { code: 'DOWN', message: 'down' } }, { status: 503 })
          : undefined,
    });
    try {
      const app = await h2.app({ session: { retryDelayMs: 50 } });
      await app.start();
      h2.bus.publish('WifiConnected', { ssid: 'Office' });
      await waitFor(() => app.session.state === 'failed', { what: 'the refused registration' });
      await expect(app.session.establish()).rejects.toMatchObject({ code: 'DEVICE_SESSION' });
      refuse = false;
      await app.session.ready();
      await waitFor(
        async () => {
          await app.telemetry.flush();
          return received(h2.server, 'check_update').length === 1;
        },
        { what: 'the update check after the session came up' },
      );
      expect(received(h2.server, 'device_network_connect')[0]?.params.ssid).toBe('Office');
      await app.stop();
    } finally {
      await h2.close();
      local.remove();
    }
  });
});
