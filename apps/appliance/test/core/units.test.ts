import { parseScanResults } from '@waved/wpa-cli';
import { describe, expect, it } from 'vitest';
import { parseCtrlEvent } from '../../src/adapters/system/ctrl-events.js';
import { runChecked } from '../../src/adapters/system/runner.js';
import { toScannedNetworks } from '../../src/adapters/system/wpa-station.js';
import { ApplianceError } from '../../src/core/errors.js';
import { createLogger } from '../../src/core/log/logger.js';
import { createSecretRegistry, MASK, redactString, redactValue } from '../../src/core/log/redact.js';
import {
  createApPassphrase,
  createCsrfToken,
  escapeWifiQrValue,
  formatApSsid,
  formatHostapdConfig,
  formatWifiQr,
} from '../../src/domain/provisioning/ap.js';

describe('redacting reporter', () => {
  const capture = () => {
    const lines: string[] = [];
    const l = createLogger({ level: 5, write: (line) => lines.push(line) });
    return { ...l, text: () => lines.join('') };
  };

  it('masks registered secrets wherever they appear, also URL-encoded, and forgets them on request', () => {
    const c = capture();
    const forget = c.secrets.add('pa ss;word');
    c.logger.info('form body wifi.x=pa+ss%3Bword and plain pa ss;word here');
    c.logger.debug({ nested: ['pa ss;word'] });
    expect(c.text()).not.toContain('pa ss;word');
    expect(c.text()).not.toContain('pa+ss%3Bword');
    forget();
    c.logger.info('pa ss;word');
    expect(c.text()).toContain('pa ss;word');
  });

  it.each([
    ['wpa_cli set_network 0 psk "hunter22"', 'hunter22'],
    [
      'set_network 3 psk 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      '0123456789abcdef',
    ],
    ['wifi.passphrase=hunter22&x=1', 'hunter22'],
    ['{"token": "eyJhbGciOi"}', 'eyJhbGciOi'],
    ['csrf=Zm9vYmFyYmF6cXV4', 'Zm9vYmFyYmF6cXV4'],
    ['device_secret: s3cr3tvalue', 's3cr3tvalue'],
    ['wpa_passphrase=hunter22', 'hunter22'],
  ])('pattern-masks %s', (line, secret) => {
    const c = capture();
    c.logger.warn(line);
    expect(c.text()).not.toContain(secret);
    expect(c.text()).toContain(MASK);
  });

  it('masks object properties named like secrets, in errors too, keeping the rest', () => {
    const c = capture();
    c.logger.info('state', {
      state: 'ApActive',
      ssid: 'Device-5EA1',
      passphrase: 'a1b2c3d4',
      url: 'http://192.168.2.1/',
    });
    c.logger.error(new ApplianceError('APPLIANCE_COMMAND_FAILED', 'hostapd failed: wpa_passphrase=a1b2c3d4'));
    c.logger.info({
      settings: {
        webhook: { url: 'https://h', secret: 'topsecret' },
        security: { device_password: 'pin1$4$1$x$y' },
      },
    });
    const t = c.text();
    expect(t).not.toContain('a1b2c3d4');
    expect(t).not.toContain('topsecret');
    expect(t).not.toContain('pin1$4');
    expect(t).toContain('Device-5EA1');
    expect(t).toContain('APPLIANCE_COMMAND_FAILED');
    expect(t).toContain('https://h');
  });

  it('leaves ordinary text alone', () => {
    expect(redactString('key_mgmt WPA-PSK on wlan0, status COMPLETED')).toBe(
      'key_mgmt WPA-PSK on wlan0, status COMPLETED',
    );
    expect(redactValue({ ssid: 'Home', signal: -48 })).toEqual({ ssid: 'Home', signal: -48 });
  });

  it('ignores secrets too short to mask safely', () => {
    const r = createSecretRegistry();
    r.add('ab');
    expect(r.values()).toEqual([]);
  });
});

describe('AP helpers (names, passphrase, QR payload)', () => {
  it('Device-XXXX from the last four hex digits of the MAC, uppercase', () => {
    expect(formatApSsid('02:11:22:33:5e:a1')).toBe('Device-5EA1');
    expect(formatApSsid('0211.2233.abcd')).toBe('Device-ABCD');
    expect(() => formatApSsid('zz')).toThrow(RangeError);
  });

  it('8-hex passphrases and 43-character base64url CSRF tokens from the CSPRNG', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const p = createApPassphrase();
      expect(p).toMatch(/^[0-9a-f]{8}$/);
      seen.add(p);
      expect(createCsrfToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(seen.size).toBe(50);
    expect(createApPassphrase(() => Buffer.from([0xde, 0xad, 0xbe, 0xef]))).toBe('deadbeef');
  });

  it('QR payload with ZXing escaping', () => {
    expect(formatWifiQr({ ssid: 'Device-5EA1', passphrase: '0a1b2c3d' })).toBe(
      'WIFI:T:WPA;S:Device-5EA1;P:0a1b2c3d;H:false;;',
    );
    expect(escapeWifiQrValue('a\\b;c,d:e"f')).toBe('a\\\\b\\;c\\,d\\:e\\"f');
    expect(formatWifiQr({ ssid: 'x;y', passphrase: 'p:q', hidden: true })).toBe(
      'WIFI:T:WPA;S:x\\;y;P:p\\:q;H:true;;',
    );
  });

  it('hostapd config: WPA2-PSK CCMP only, SSID as hex, the derived key (never the passphrase)', () => {
    const text = formatHostapdConfig({
      iface: 'wlan0',
      driver: 'nl80211',
      ssid: 'Device-5EA1',
      psk: 'ab'.repeat(32),
    });
    expect(text).toContain('interface=wlan0\n');
    expect(text).toContain('wpa=2\n');
    expect(text).toContain('wpa_key_mgmt=WPA-PSK\n');
    expect(text).toContain('rsn_pairwise=CCMP\n');
    expect(text).toContain(`ssid2=${Buffer.from('Device-5EA1').toString('hex')}\n`);
    expect(text).toContain(`wpa_psk=${'ab'.repeat(32)}\n`);
    expect(text).not.toContain('wpa_passphrase');
    expect(() => formatHostapdConfig({ iface: 'w', driver: 'd', ssid: 's', psk: 'short' })).toThrow(
      RangeError,
    );
  });
});

describe('wpa_supplicant control-socket events', () => {
  it.each([
    [
      '<3>CTRL-EVENT-CONNECTED - Connection to 02:00:00:00:00:00 completed [id=0 id_str=]',
      { type: 'connected', ssid: null },
    ],
    [
      '<3>CTRL-EVENT-DISCONNECTED bssid=02:00:00:00:00:00 reason=3 locally_generated=1',
      { type: 'disconnected' },
    ],
    ['<3>CTRL-EVENT-NETWORK-NOT-FOUND', { type: 'not-found' }],
    [
      '<3>CTRL-EVENT-SSID-TEMP-DISABLED id=1 ssid="TestAP" auth_failures=1 duration=10 reason=WRONG_KEY',
      { type: 'wrong-key', ssid: 'TestAP' },
    ],
    [
      '<3>CTRL-EVENT-SSID-TEMP-DISABLED id=1 ssid="Caf\\xc3\\xa9 \\"1\\"" auth_failures=1 duration=10 reason=WRONG_KEY',
      { type: 'wrong-key', ssid: 'Café "1"' },
    ],
    ['<3>CTRL-EVENT-SSID-TEMP-DISABLED id=1 ssid="X" auth_failures=2 duration=20 reason=CONN_FAILED', null],
    ['<3>CTRL-EVENT-SCAN-RESULTS ', { type: 'scan-results' }],
    ['<3>CTRL-EVENT-SCAN-STARTED ', null],
    ['OK', null],
  ])('%s', (line, event) => {
    expect(parseCtrlEvent(line)).toEqual(event);
  });
});

describe('scan results for the form', () => {
  it('drops hidden entries, keeps the strongest BSS per SSID, strongest first, with classes', () => {
    const text = [
      'bssid / frequency / signal level / flags / ssid',
      '02:00:00:00:00:01\t2437\t-71\t[WPA2-PSK-CCMP][ESS]\tHome',
      '02:00:00:00:00:02\t5180\t-48\t[WPA2-PSK-CCMP][ESS]\tHome',
      '02:00:00:00:00:03\t2412\t-60\t[ESS]\tCafe',
      '02:00:00:00:00:04\t2462\t-55\t[WPA2-PSK-CCMP][ESS]\t',
    ].join('\n');
    const list = toScannedNetworks(parseScanResults(text));
    expect(list.map((n) => [n.ssid, n.signal, n.signalClass, n.secure, n.frequency])).toEqual([
      ['Home', -48, 'excellent', true, 5180],
      ['Cafe', -60, 'good', false, 2412],
    ]);
    expect(list[0]!.ssidHex).toBe(Buffer.from('Home').toString('hex'));
  });
});

describe('runChecked', () => {
  const runner = (r: { code: number | null; timedOut?: boolean; stdout?: string }) => async () => ({
    stdout: r.stdout ?? '',
    stderr: '',
    code: r.code,
    ...(r.timedOut ? { timedOut: true } : {}),
  });
  it.each([
    [{ code: 1, stdout: 'Line 7: invalid WPA passphrase length 5' }, 'APPLIANCE_COMMAND_FAILED'],
    [{ code: null, timedOut: true }, 'APPLIANCE_COMMAND_TIMEOUT'],
  ])('%o -> %s', async (result, code) => {
    const error = await runChecked(runner(result), 'hostapd', ['-B']).catch((e: ApplianceError) => e);
    expect(error).toBeInstanceOf(ApplianceError);
    expect((error as ApplianceError).code).toBe(code);
  });
  it('a spawn failure is APPLIANCE_COMMAND_SPAWN', async () => {
    const error = await runChecked(
      async () => {
        throw new Error('ENOENT');
      },
      'nope',
      [],
    ).catch((e: ApplianceError) => e);
    expect((error as ApplianceError).code).toBe('APPLIANCE_COMMAND_SPAWN');
  });
  it('the real runner kills a wedged program at the timeout', async () => {
    const { runCommand } = await import('../../src/adapters/system/runner.js');
    const started = Date.now();
    const error = await runChecked(runCommand, 'sleep', ['30'], 300).catch((e: ApplianceError) => e);
    expect((error as ApplianceError).code).toBe('APPLIANCE_COMMAND_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('ApplianceError', () => {
  it.each([['APPLIANCE_RADIO_STEP'], ['SNTP_KISS_OF_DEATH'], ['APPLIANCE_COMMAND_TIMEOUT']] as const)(
    'carries code %s and its cause',
    (code) => {
      const cause = new Error('inner');
      const e = new ApplianceError(code, 'msg', { cause });
      expect(e.name).toBe('ApplianceError');
      expect(e.code).toBe(code);
      expect(e.cause).toBe(cause);
    },
  );
});

describe('pending webhook setup test', () => {
  it('posts one multipart setup-test event to the configured webhook and never logs its secret', async () => {
    const { runWebhookSetupTest } = await import('../../src/app.js');
    const { defaultSettings } = await import('../../src/domain/settings/index.js');
    const settings = defaultSettings();
    settings.webhook.url = 'https://hooks.example/in?token=abc123secret';
    settings.webhook.secret = 'shh-webhook-secret';
    const seen: { url: string; init: RequestInit }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return new Response('ok', { status: 200 });
    }) as unknown as typeof fetch;
    const lines: string[] = [];
    const { logger } = createLogger({ level: 5, write: (l) => lines.push(l) });
    expect(await runWebhookSetupTest(settings, logger, fakeFetch)).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.init.method).toBe('POST');
    const headers = seen[0]!.init.headers as Record<string, string>;
    const body = await new Response(seen[0]!.init.body as Uint8Array, {
      headers: { 'content-type': headers['content-type']! },
    }).formData();
    expect(body.get('event')).toBe('setup-test');
    // Signed, never carrying the secret itself.
    expect(headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(JSON.stringify(headers)).not.toContain('shh-webhook-secret');
    const text = lines.join('');
    expect(text).toContain('HTTP 200');
    expect(text).toContain('https://hooks.example/…');
    expect(text).not.toContain('abc123secret');
    expect(text).not.toContain('/in');
    expect(text).not.toContain('shh-webhook-secret');
  });

  it('does nothing without a webhook URL', async () => {
    const { runWebhookSetupTest } = await import('../../src/app.js');
    const { defaultSettings } = await import('../../src/domain/settings/index.js');
    let called = false;
    const fakeFetch = (async () => {
      called = true;
      return new Response('');
    }) as unknown as typeof fetch;
    expect(
      await runWebhookSetupTest(defaultSettings(), createLogger({ write: () => {} }).logger, fakeFetch),
    ).toBe(false);
    expect(called).toBe(false);
  });
});
