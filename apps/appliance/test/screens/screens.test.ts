import { manualClock } from '@waved/test-lab';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Command, StateBus } from '../../src/core/bus.js';
import {
  createScreens,
  formatWifiQr,
  renderTerminal,
  type Screens,
  type SetupView,
  type WifiView,
} from '../../src/domain/screens/index.js';

const AP = {
  state: 'ApActive',
  ssid: 'Device-3F2A',
  passphrase: '4f9a01c7',
  url: 'http://192.168.2.1/',
} as const;

let bus: StateBus;
let clock: ReturnType<typeof manualClock>;
let screens: Screens;
let commands: Command[];

beforeEach(() => {
  bus = new StateBus();
  commands = [];
  bus.on('command', (c) => commands.push(c));
  clock = manualClock();
  screens = createScreens({ bus, clock });
});
afterEach(() => screens.close());

const wifi = () => screens.view() as WifiView;
const setup = () => screens.view() as SetupView;

describe('Menu > Wi-Fi', () => {
  it('shows name, status with signal class and IPv4 without touching the radio', () => {
    expect(screens.view()).toEqual({
      screen: 'menu',
      lang: 'en',
      title: 'Menu',
      buttons: [{ action: 'open-wifi', label: 'Wi-Fi' }],
    });
    bus.publish('ConnectionDetails', {
      ssid: 'Home',
      status: 'COMPLETED',
      signal: 'good',
      rssi: -55,
      ipv4: '10.0.0.23',
    });
    screens.press('open-wifi');
    expect(wifi()).toMatchObject({
      screen: 'wifi',
      name: 'Home',
      connected: true,
      statusLine: 'Connected · Good signal',
      ipv4: '10.0.0.23',
      rows: [
        { label: 'Network', value: 'Home' },
        { label: 'Status', value: 'Connected · Good signal' },
        { label: 'IPv4', value: '10.0.0.23' },
      ],
      buttons: [
        { action: 'wifi-button', label: 'Change network' },
        { action: 'back', label: 'Back' },
      ],
      confirm: null,
    });
    expect(commands).toEqual([]);
  });

  it('not connected: the button is Set up Wi-Fi and opens setup directly', () => {
    bus.publish('ConnectionDetails', {
      ssid: null,
      status: 'DISCONNECTED',
      signal: null,
      rssi: null,
      ipv4: null,
    });
    screens.press('open-wifi');
    expect(wifi()).toMatchObject({
      status: 'Not connected',
      statusLine: 'Not connected',
      rows: [
        { label: 'Network', value: '—' },
        { label: 'Status', value: 'Not connected' },
        { label: 'IPv4', value: '—' },
      ],
      buttons: [
        { action: 'wifi-button', label: 'Set up Wi-Fi' },
        { action: 'back', label: 'Back' },
      ],
    });
    screens.press('wifi-button');
    expect(commands).toEqual([{ type: 'OpenWifiProvisioning' }]);
    expect(setup()).toMatchObject({
      screen: 'setup',
      progress: 'Starting the setup network…',
      countdown: '05:00',
      countdownText: 'Setup closes in 05:00',
    });
  });

  it('connected: Change network asks “Change network?” first; Stay connected keeps the network', () => {
    bus.publish('ConnectionDetails', {
      ssid: 'Home',
      status: 'COMPLETED',
      signal: 'weak',
      rssi: -80,
      ipv4: '10.0.0.2',
    });
    screens.press('open-wifi');
    screens.press('wifi-button');
    expect(wifi()).toMatchObject({
      confirm: {
        question: 'Change network?',
        detail: 'The device leaves “Home” while the setup network is open.',
      },
      buttons: [
        { action: 'confirm', label: 'Change network' },
        { action: 'dismiss', label: 'Stay connected' },
      ],
    });
    expect(commands).toEqual([]);
    screens.press('dismiss');
    expect(wifi().confirm).toBeNull();
    screens.press('wifi-button');
    screens.press('confirm');
    expect(commands).toEqual([{ type: 'OpenWifiProvisioning' }]);
    expect(screens.view().screen).toBe('setup');
  });
});

describe('Set up Wi-Fi', () => {
  function open() {
    screens.press('open-wifi');
    screens.press('wifi-button');
  }

  it('follows the provisioning states: QR with manual fallback, progress, countdown', () => {
    open();
    bus.publish('ProvisioningState', { state: 'Idle' }); // the old state, re-published: ignored
    expect(screens.view().screen).toBe('setup');
    bus.publish('ProvisioningState', { state: 'Scanning' });
    expect(setup()).toMatchObject({
      progress: 'Looking for networks…',
      qr: null,
      buttons: [{ action: 'cancel', label: 'Cancel' }],
    });
    bus.publish('ProvisioningState', AP);
    clock.advanceSync(61_000);
    expect(setup()).toMatchObject({
      phase: 'ApActive',
      qr: 'WIFI:T:WPA;S:Device-3F2A;P:4f9a01c7;H:false;;',
      ssid: 'Device-3F2A',
      passphrase: '4f9a01c7',
      address: '192.168.2.1',
      rows: [
        { label: 'Network', value: 'Device-3F2A' },
        { label: 'Password', value: '4f9a01c7' },
        { label: 'Open', value: '192.168.2.1' },
      ],
      buttons: [{ action: 'cancel', label: 'Cancel' }],
      countdown: '03:59',
      countdownText: 'Setup closes in 03:59',
      remainingSeconds: 239,
    });
    bus.publish('ProvisioningState', { state: 'Connecting', ssid: 'Home' });
    expect(setup()).toMatchObject({
      progress: 'Connecting to Home…',
      qr: null,
      buttons: [{ action: 'cancel', label: 'Cancel' }],
    });
    bus.publish('ProvisioningState', { state: 'Connected', ssid: 'Home' });
    expect(setup()).toMatchObject({
      progress: 'Connected to Home.',
      buttons: [{ action: 'done', label: 'Done' }],
      countdown: null,
    });
    screens.press('done');
    expect(screens.view().screen).toBe('wifi');
  });

  it('re-renders every second while the countdown runs, and stops the ticker after', () => {
    const seen: string[] = [];
    screens.subscribe((v) => {
      if (v.screen === 'setup' && v.countdown) seen.push(v.countdown);
    });
    open();
    bus.publish('ProvisioningState', AP);
    seen.length = 0;
    clock.advanceSync(3000);
    expect(seen).toEqual(['04:59', '04:58', '04:57']);
    screens.press('cancel');
    expect(clock.pending).toBe(0);
  });

  it('on failure shows the reason, keeps the QR, and Try again restarts the session', () => {
    open();
    bus.publish('ProvisioningState', AP);
    bus.publish('ProvisioningState', { state: 'Connecting', ssid: 'Home' });
    clock.advanceSync(100_000);
    bus.publish('ProvisioningState', { state: 'Failed', reason: 'wrong-password', message: 'WRONG_KEY' });
    expect(setup()).toMatchObject({
      error: 'The Wi-Fi password was not accepted. Check it (it is case-sensitive) and try again.',
      progress: 'Could not connect to Home.',
      buttons: [
        { action: 'try-again', label: 'Try again' },
        { action: 'cancel', label: 'Cancel' },
      ],
      qr: formatWifiQr({ ssid: 'Device-3F2A', passphrase: '4f9a01c7' }),
      countdown: '03:20',
    });
    commands.length = 0;
    screens.press('try-again');
    expect(commands).toEqual([{ type: 'OpenWifiProvisioning' }]);
    // The setup network is still up: the same session and its countdown go on.
    bus.publish('ProvisioningState', AP);
    expect(setup()).toMatchObject({ phase: 'ApActive', countdown: '03:20', qr: expect.any(String) });
  });

  it('Try again after the setup network itself failed starts a new session and countdown', () => {
    open();
    clock.advanceSync(30_000);
    bus.publish('ProvisioningState', { state: 'Failed', reason: 'ap-failed', message: 'hostapd exited' });
    expect(setup()).toMatchObject({
      error: 'The setup network could not be started. Try again.',
      qr: null,
      countdown: '04:30',
    });
    screens.press('try-again');
    expect(setup().countdown).toBe('05:00');
  });

  it('Cancel sends CancelProvisioning and returns to the Wi-Fi screen', () => {
    open();
    bus.publish('ProvisioningState', AP);
    commands.length = 0;
    screens.press('cancel');
    expect(commands).toEqual([{ type: 'CancelProvisioning' }]);
    expect(wifi()).toMatchObject({ screen: 'wifi', notice: null });
    bus.publish('ProvisioningState', { state: 'Idle' });
    expect(screens.view().screen).toBe('wifi');
  });

  it('the 300 s timeout (Idle from the controller) closes setup with a note', () => {
    open();
    bus.publish('ProvisioningState', AP);
    clock.advanceSync(300_000);
    expect(setup().countdown).toBe('00:00');
    bus.publish('ProvisioningState', { state: 'Idle' });
    expect(wifi()).toMatchObject({
      screen: 'wifi',
      notice: 'Setup closed after 5 minutes. The device went back to its saved networks.',
    });
  });

  it('a session started elsewhere brings the setup screen up with its QR', () => {
    bus.publish('ProvisioningState', { state: 'Scanning' });
    bus.publish('ProvisioningState', AP);
    expect(setup()).toMatchObject({ ssid: 'Device-3F2A', countdown: '05:00' });
  });

  it('ignores actions that the current screen does not offer', () => {
    screens.press('cancel');
    screens.press('try-again');
    screens.press('confirm');
    expect(commands).toEqual([]);
    expect(screens.view().screen).toBe('menu');
  });
});

describe('formatWifiQr (ZXing escaping)', () => {
  it.each([
    [{ ssid: 'Device-3F2A', passphrase: '4f9a01c7' }, 'WIFI:T:WPA;S:Device-3F2A;P:4f9a01c7;H:false;;'],
    [{ ssid: 'a;b,c:d', passphrase: 'p\\q"r' }, 'WIFI:T:WPA;S:a\\;b\\,c\\:d;P:p\\\\q\\"r;H:false;;'],
    [{ ssid: 'Café ☕', passphrase: '12345678' }, 'WIFI:T:WPA;S:Café ☕;P:12345678;H:false;;'],
    [{ ssid: ';;', passphrase: '\\\\' }, 'WIFI:T:WPA;S:\\;\\;;P:\\\\\\\\;H:false;;'],
  ])('%j', (input, expected) => {
    expect(formatWifiQr(input)).toBe(expected);
  });

  it('can be split back into the original values (a reader’s view)', () => {
    const ssid = 'x\\;y,:"z';
    const passphrase = ';p:"\\';
    const payload = formatWifiQr({ ssid, passphrase });
    const fields: Record<string, string> = {};
    const body = payload.slice('WIFI:'.length);
    let key = '';
    let value = '';
    let inKey = true;
    for (let i = 0; i < body.length; i++) {
      const c = body[i]!;
      if (c === '\\' && !inKey) value += body[++i];
      else if (c === ':' && inKey) inKey = false;
      else if (c === ';') {
        if (key) fields[key] = value;
        key = '';
        value = '';
        inKey = true;
      } else if (inKey) key += c;
      else value += c;
    }
    expect(fields).toEqual({ T: 'WPA', S: ssid, P: passphrase, H: 'false' });
  });
});

describe('renderTerminal', () => {
  it('draws the QR with SSID, passphrase and 192.168.2.1 beneath', () => {
    screens.press('open-wifi');
    screens.press('wifi-button');
    bus.publish('ProvisioningState', AP);
    const text = renderTerminal(screens.view());
    const lines = text.split('\n');
    const qrLines = lines.filter((l) => /[█▀▄]{10}/.test(l));
    expect(qrLines.length).toBeGreaterThan(10);
    const last = lines.findLastIndex((l) => /[█▀▄]{10}/.test(l));
    const after = lines.slice(last).join('\n');
    expect(after).toContain('Network:  Device-3F2A');
    expect(after).toContain('Password: 4f9a01c7');
    expect(after).toContain('Open:     192.168.2.1');
    expect(after).toMatch(/Setup closes in 05:00/);
    expect(after).toContain('[ Cancel ]');
    // Every line of the box has the same width.
    expect(new Set(lines.map((l) => [...l].length)).size).toBe(1);
  });

  it('draws the Wi-Fi screen and its confirmation', () => {
    bus.publish('ConnectionDetails', {
      ssid: 'Home',
      status: 'COMPLETED',
      signal: 'excellent',
      rssi: -40,
      ipv4: '10.0.0.9',
    });
    screens.press('open-wifi');
    let text = renderTerminal(screens.view());
    expect(text).toContain('Status:  Connected · Excellent signal');
    expect(text).toContain('IPv4:    10.0.0.9');
    expect(text).toContain('[ Change network ]');
    screens.press('wifi-button');
    text = renderTerminal(screens.view());
    expect(text).toContain('Change network?');
    expect(text).toContain('[ Stay connected ]');
  });
});

describe('renderQrText', () => {
  it('draws exactly the modules of the QR code, with a light quiet zone', async () => {
    const { default: QRCode } = await import('qrcode');
    const { renderQrText } = await import('../../src/domain/screens/index.js');
    const payload = formatWifiQr({ ssid: 'Device-3F2A', passphrase: '4f9a01c7' });
    const lines = renderQrText(payload);
    const qr = QRCode.create(payload, { errorCorrectionLevel: 'M' });
    const size = qr.modules.size;
    // Unfold the half blocks back into module rows (ink = light module).
    const rows: boolean[][] = [];
    for (const line of lines) {
      const chars = [...line];
      rows.push(chars.map((c) => c === '█' || c === '▀'));
      rows.push(chars.map((c) => c === '█' || c === '▄'));
    }
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        expect(rows[r + 2]![c + 2], `${r},${c}`).toBe(qr.modules.get(r, c) !== 1);
      }
    }
    expect(rows[0]!.every(Boolean)).toBe(true);
    expect(
      rows
        .map((row) => row[0])
        .slice(0, size + 4)
        .every(Boolean),
    ).toBe(true);
  });
});
