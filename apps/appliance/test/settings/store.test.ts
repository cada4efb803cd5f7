import fs from 'node:fs';
import { verifyPin } from '@waved/psk';
import { tempDir } from '@waved/test-lab';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from '../../src/adapters/system/files.js';
import { createSettingsStore, defaultSettings, type Logger } from '../../src/domain/settings/index.js';
import { translator } from '../../src/i18n/index.js';

const english = translator('en');

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (m: string) => lines.push(m);
  return { lines, debug: log, info: log, warn: log, error: log };
}

let dir: ReturnType<typeof tempDir>;
let file: string;
beforeEach(() => {
  dir = tempDir('waved-settings-');
  file = dir.join('config.toml');
});
afterEach(() => dir.remove());

describe('settings store', () => {
  it('gives the defaults when the file is missing and writes nothing', async () => {
    const store = createSettingsStore({ path: file, files: createFileStore(), logger: recordingLogger() });
    expect(await store.load()).toEqual(defaultSettings());
    expect(fs.existsSync(file)).toBe(false);
  });

  it('round-trips every field through config.toml with mode 0600', async () => {
    const store = createSettingsStore({
      path: file,
      files: createFileStore(),
      logger: recordingLogger(),
      pinIterations: 1000,
    });
    await store.load();
    const result = store.validate({
      'device.name': 'Kitchen recorder',
      'device.country': 'de',
      'device.timezone': 'Europe/Berlin',
      'device.language': 'de',
      'audio.volume': '35',
      'audio.prompt_tones': 'false',
      'webhook.url': 'https://hooks.example.com/waved',
      'webhook.secret': 'a-long-shared-secret-0123',
      'storage.auto_upload': 'off',
      'storage.max_usage_percent': '80',
      'security.device_password': '0042',
      'ntp.enabled': 'on',
      'ntp.servers': 'time.example.org, 192.0.2.10  ntp.example.net',
      'wifi.country': 'DE',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // The new PIN comes back as digits: the caller hashes it after every other check passed.
    expect(result.pin).toBe('0042');
    expect(result.settings.security.device_password).toBe('');
    result.settings.security.device_password = await store.hashPin(result.pin!);
    await store.save(result.settings);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('0042');
    const again = await createSettingsStore({
      path: file,
      files: createFileStore(),
      logger: recordingLogger(),
    }).load();
    expect(again).toEqual(result.settings);
    expect(again.device).toEqual({
      name: 'Kitchen recorder',
      country: 'DE',
      timezone: 'Europe/Berlin',
      language: 'de',
    });
    expect(again.ntp.servers).toEqual(['time.example.org', '192.0.2.10', 'ntp.example.net']);
    expect(again.storage).toEqual({ auto_upload: false, max_usage_percent: 80 });
    expect(verifyPin('0042', again.security.device_password)).toBe(true);
    expect(verifyPin('042', again.security.device_password)).toBe(false);
    // No temp files left behind by the atomic write.
    expect(fs.readdirSync(dir.path)).toEqual(['config.toml']);
  });

  it('keeps unknown keys from a newer version across a save', async () => {
    fs.writeFileSync(file, '[device]\nname = "a"\nfuture = 1\n[cloud]\nregion = "eu"\n', { mode: 0o600 });
    const store = createSettingsStore({ path: file, files: createFileStore(), logger: recordingLogger() });
    const s = await store.load();
    await store.save({ ...s, device: { ...s.device, name: 'b' } });
    const doc = parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(doc.device?.name).toBe('b');
    expect(doc.device?.future).toBe(1);
    expect(doc.cloud?.region).toBe('eu');
  });

  it('leaves a file that is not TOML in place, loads defaults, warns without quoting it', async () => {
    const broken = '[webhook]\nsecret = "s3cr3t-value-never-logged\n';
    fs.writeFileSync(file, broken, { mode: 0o600 });
    const logger = recordingLogger();
    const store = createSettingsStore({ path: file, files: createFileStore(), logger });
    expect(await store.load()).toEqual(defaultSettings());
    expect(fs.readFileSync(file, 'utf8')).toBe(broken);
    expect(logger.lines.join('\n')).toMatch(/not valid TOML at line 2/);
    expect(logger.lines.join('\n')).not.toContain('s3cr3t');
    // A later save keeps the broken file next to the new one.
    await store.save(defaultSettings());
    expect(fs.readFileSync(`${file}.invalid`, 'utf8')).toBe(broken);
    expect(parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ device: { name: 'waved' } });
  });

  it('falls back per field on wrong types and values, with a warning each', async () => {
    fs.writeFileSync(
      file,
      '[audio]\nvolume = 400\nprompt_tones = false\n[device]\ntimezone = "Mars/Olympus"\nname = "ok"\n[ntp]\nservers = "bad_host!"\n[webhook]\nsecret = "short"\n',
    );
    const logger = recordingLogger();
    const s = await createSettingsStore({ path: file, files: createFileStore(), logger }).load();
    expect(s.audio).toEqual({ volume: 60, prompt_tones: false });
    expect(s.device.name).toBe('ok');
    expect(s.device.timezone).toBe('UTC');
    expect(s.ntp.servers).toEqual(['pool.ntp.org']);
    expect(s.webhook.secret).toBe('');
    const text = logger.lines.join('\n');
    expect(text).toMatch(/audio\.volume/);
    expect(text).toMatch(/device\.timezone/);
    expect(text).toMatch(/webhook\.secret has an invalid value; using the default/);
    expect(text).not.toContain('short');
  });
});

describe('device PIN rules', () => {
  it('hashes a plain 4-6 digit PIN at load and rewrites the file without the digits', async () => {
    fs.writeFileSync(file, '[security]\ndevice_password = "123456"\n', { mode: 0o644 });
    const store = createSettingsStore({
      path: file,
      files: createFileStore(),
      logger: recordingLogger(),
      pinIterations: 1000,
    });
    const s = await store.load();
    expect(s.security.device_password).toMatch(/^pin1\$6\$1000\$/);
    expect(verifyPin('123456', s.security.device_password)).toBe(true);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('123456');
    expect(text).toContain('pin1$6$1000$');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps a valid pin1 record as it is', async () => {
    const store = createSettingsStore({
      path: file,
      files: createFileStore(),
      logger: recordingLogger(),
      pinIterations: 1000,
    });
    await store.load();
    const r = store.validate({ 'security.device_password': '9876' });
    if (!r.ok) throw new Error('expected ok');
    r.settings.security.device_password = await store.hashPin(r.pin!);
    await store.save(r.settings);
    const before = fs.readFileSync(file, 'utf8');
    const s = await createSettingsStore({
      path: file,
      files: createFileStore(),
      logger: recordingLogger(),
    }).load();
    expect(s.security.device_password).toBe(r.settings.security.device_password);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it.each([
    ['a number (leading zeros lost)', 'device_password = 1234'],
    ['too short', 'device_password = "123"'],
    ['letters', 'device_password = "12ab"'],
    ['a broken record', 'device_password = "pin1$4$1000$AAAA$BBBB"'],
  ])('drops %s with a warning that does not contain the value', async (_, line) => {
    fs.writeFileSync(file, `[security]\n${line}\n`);
    const logger = recordingLogger();
    const s = await createSettingsStore({ path: file, files: createFileStore(), logger }).load();
    expect(s.security.device_password).toBe('');
    const warning = logger.lines.find((l) => l.includes('device_password dropped'));
    expect(warning).toBeDefined();
    expect(warning).not.toMatch(/1234|12ab|AAAA/);
    expect(fs.readFileSync(file, 'utf8')).not.toMatch(/device_password = "?(1234|123|12ab)/);
  });

  it('the form accepts 4 to 6 digits only; empty keeps the PIN, _clear removes it', async () => {
    const store = createSettingsStore({
      path: file,
      files: createFileStore(),
      logger: recordingLogger(),
      pinIterations: 1000,
    });
    await store.load();
    for (const bad of ['123', '1234567', '12a4', '١٢٣٤', ' 12 34']) {
      const r = store.validate({ 'security.device_password': bad });
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(english.text(r.errors['security.device_password']!)).toMatch(/4 to 6 digits/);
    }
    const set = store.validate({ 'security.device_password': '55555' });
    if (!set.ok) throw new Error('expected ok');
    expect(set.pin).toBe('55555');
    set.settings.security.device_password = await store.hashPin(set.pin!);
    await store.save(set.settings);
    const keep = store.validate({ 'security.device_password': '' });
    expect(keep.ok && keep.settings.security.device_password).toBe(set.settings.security.device_password);
    const clear = store.validate({ 'security.device_password': '', 'security.device_password_clear': 'on' });
    expect(clear.ok && clear.settings.security.device_password).toBe('');
  });
});

describe('validation messages', () => {
  it('names every wrong field and leaves the current settings alone', async () => {
    const store = createSettingsStore({ path: file, files: createFileStore(), logger: recordingLogger() });
    await store.load();
    const r = store.validate({
      'device.name': '',
      'device.country': 'XX',
      'audio.volume': '101',
      'webhook.url': 'ftp://example.com',
      'storage.max_usage_percent': 'many',
      'ntp.servers': '',
      'wifi.country': 'EU',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual([
      'audio.volume',
      'device.country',
      'device.name',
      'ntp.servers',
      'storage.max_usage_percent',
      'webhook.url',
      'wifi.country',
    ]);
    expect(english.text(r.errors['audio.volume']!)).toBe('Enter a whole number from 0 to 100.');
    // The same message in the reader's language, with the numbers in its digits.
    expect(translator('de').text(r.errors['audio.volume']!)).toBe(
      'Geben Sie eine ganze Zahl von 0 bis 100 ein.',
    );
    expect(store.current()).toEqual(defaultSettings());
  });

  it('refuses time servers on the device, the setup network or reserved addresses (a phone on the AP cannot point the clock at itself)', async () => {
    const store = createSettingsStore({ path: file, files: createFileStore(), logger: recordingLogger() });
    await store.load();
    for (const bad of [
      '192.168.2.50',
      '127.0.0.1',
      'localhost',
      '0.0.0.0',
      '169.254.1.1',
      '224.0.1.1',
      '255.255.255.255',
      'ntp_server',
      'a..b',
    ]) {
      const r = store.validate({ 'ntp.servers': `pool.ntp.org ${bad}` });
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(english.text(r.errors['ntp.servers']!)).toContain(bad);
    }
    const good = store.validate({ 'ntp.servers': 'time.cloudflare.com 192.0.2.10 10.0.0.1' });
    expect(good.ok).toBe(true);
  });
});
