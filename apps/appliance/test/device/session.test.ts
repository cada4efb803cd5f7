import { tempDir, waitFor } from '@waved/test-lab';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { type Harness, received, startHarness } from './helpers.js';

describe('cloud session', () => {
  const dir = tempDir('device-session-');
  let h: Harness;
  afterAll(async () => {
    await h?.close();
    dir.remove();
  });

  it('registers once, refreshes the token, and keeps the credentials per B2 in the appliance database', async () => {
    h = await startHarness(dir.path);
    const app = h.app();
    await app.start();
    expect(app.session.isReady()).toBe(false);
    h.bus.publish('WifiConnected', { ssid: 'Home' });
    await app.session.ready();
    await app.stop();

    const db = new Database(dir.join('appliance.db'), { readonly: true });
    const rows = db
      .prepare('SELECT kind, id, value FROM credential_values ORDER BY kind, id')
      .all() as Array<{
      kind: string;
      id: number;
      value: string;
    }>;
    db.close();
    const get = (kind: string, id: number) => rows.find((r) => r.kind === kind && r.id === id)?.value;
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
    const again = h.app();
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
      const app = h2.app();
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

  it('takes the cloud region from the settings country (EU for everything but CN and US)', () => {
    const region = (country: string) => {
      h.settings.device.country = country;
      const app = h.app();
      const r = app.client.region;
      void app.stop();
      return r;
    };
    expect([region('US'), region('CN'), region('DE'), region('')]).toEqual(['us', 'cn', 'eu', 'eu']);
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
      const app = h2.app({ session: { retryDelayMs: 50 } });
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
