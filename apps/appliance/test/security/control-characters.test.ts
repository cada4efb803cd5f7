import { manualClock } from '@waved/test-lab';
import { afterEach, describe, expect, it } from 'vitest';
import { StateBus } from '../../src/core/bus.js';
import { createLogger } from '../../src/core/log/logger.js';
import { escapeControls, stripControls } from '../../src/core/log/sanitize.js';
import { createScreens, renderTerminal, type Screens } from '../../src/domain/screens/index.js';

/**
 * Attack: text from outside carries terminal escape sequences. A hidden network name typed on the
 * portal, the release notes of an update and a Bluetooth module's name reach the device's screen
 * and its log. ESC [2J clears the screen, OSC 0 sets the window title, OSC 52 writes the operator's
 * clipboard, BEL, CR rewrites a line, and RLO (U+202E) reverses what is shown.
 */
const ESC_PAYLOAD = 'Net\x1b[2J\x1b]0;owned\x07\x1b]52;c;ZXZpbA==\x07\r\x9b31m\u202eexe.txt';
/** Anything a terminal would act on. */
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe('the log: control characters are made visible, records cannot be forged', () => {
  const capture = () => {
    const lines: string[] = [];
    const l = createLogger({ level: 5, write: (line) => lines.push(line) });
    return { ...l, lines, text: () => lines.join('') };
  };

  it('a Bluetooth name, an OTA note and a typed SSID with escapes are logged without a single control byte', () => {
    const c = capture();
    c.logger.info(`bluetooth: module ${ESC_PAYLOAD} 1.0 (00:11:22:33:44:55)`);
    c.logger.warn('ota: release notes:', ESC_PAYLOAD, { ssid: ESC_PAYLOAD, [ESC_PAYLOAD]: 1 });
    c.logger.error(new Error(`server said ${ESC_PAYLOAD}`));
    const text = c.text();
    expect(text.replace(/\n/g, '')).not.toMatch(ACTIVE);
    // The evidence is kept, readable.
    expect(text).toContain('Net\\x1b[2J\\x1b]0;owned\\x07');
    expect(text).toContain('\\u202eexe.txt');
  });

  it('a newline inside a value cannot start a line that looks like a record', () => {
    const c = capture();
    c.logger.info(`portal: network Attic\n2026-01-01T00:00:00.000Z INFO settings: PIN removed`);
    const lines = c
      .text()
      .split('\n')
      .filter((l) => l !== '');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^\s+2026-01-01T00:00:00.000Z INFO settings: PIN removed$/);
    for (const line of lines.slice(1)) expect(line).not.toMatch(/^\d{4}-/);
  });

  it('escaping is idempotent and leaves ordinary text, tabs and non-Latin names alone', () => {
    const plain = 'Büro 2.4 ☕ 日本語\tok';
    expect(escapeControls(plain)).toBe(plain);
    expect(escapeControls(escapeControls(ESC_PAYLOAD))).toBe(escapeControls(ESC_PAYLOAD));
    expect(stripControls(ESC_PAYLOAD)).not.toMatch(ACTIVE);
  });
});

describe('the terminal screen: control characters are never drawn', () => {
  let screens: Screens;
  afterEach(() => screens?.close());

  it('a hidden SSID typed on the portal, shown while connecting and on Menu › Wi-Fi', () => {
    const bus = new StateBus();
    screens = createScreens({ bus, clock: manualClock() });
    screens.press('open-wifi');
    screens.press('wifi-button');
    bus.publish('ProvisioningState', { state: 'Connecting', ssid: ESC_PAYLOAD });
    const connecting = renderTerminal(screens.view());
    expect(connecting).toContain('Net');
    expect(connecting).not.toMatch(ACTIVE);
    bus.publish('ConnectionDetails', {
      ssid: ESC_PAYLOAD,
      status: 'COMPLETED',
      signal: 'good',
      rssi: -50,
      ipv4: '10.0.0.2',
    });
    bus.publish('ProvisioningState', { state: 'Connected', ssid: ESC_PAYLOAD });
    screens.press('done');
    screens.press('open-wifi');
    const wifi = renderTerminal(screens.view());
    expect(wifi).toContain('Network:');
    expect(wifi).not.toMatch(ACTIVE);
  });

  it('the release notes of an offered update', () => {
    const bus = new StateBus();
    screens = createScreens({ bus, clock: manualClock() });
    screens.otaEvent({
      type: 'available',
      kind: 'psp_firmware',
      version: `9.9.9${ESC_PAYLOAD}`,
      forced: true,
      notes: `<p>Fixes ${ESC_PAYLOAD}</p>`,
    });
    const text = renderTerminal(screens.view());
    expect(text).toContain('Fixes');
    expect(text).not.toMatch(ACTIVE);
  });
});
