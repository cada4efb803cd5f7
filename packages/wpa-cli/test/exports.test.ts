import { expect, it } from 'vitest';
import {
  classifySignal,
  isWpaCliError,
  SIGNAL_EXCELLENT_DBM,
  SIGNAL_FAIR_DBM,
  SIGNAL_GOOD_DBM,
  WifiError,
  WpaCliError,
  type WpaCliErrorCode,
} from '../src/index.js';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "CONFIG_FILE_MODE",
      "DEFAULT_TIMEOUT_MS",
      "SIGNAL_EXCELLENT_DBM",
      "SIGNAL_FAIR_DBM",
      "SIGNAL_GOOD_DBM",
      "SSID_MAX_BYTES",
      "WifiError",
      "WpaCliError",
      "bandOf",
      "classifySignal",
      "createWpaCli",
      "decodeSsid",
      "encodeSsidHex",
      "formatSsid",
      "isWpaCliError",
      "maskCommand",
      "parseFormattedSsid",
      "parseListNetworks",
      "parseScanResults",
      "parseSignalPoll",
      "parseStatus",
      "provisionNetwork",
      "runCommand",
      "securityOf",
      "syncSavedConfig",
    ]
  `);
});

const codes: WpaCliErrorCode[] = [
  'WPA_CLI_FAIL',
  'WPA_CLI_FAIL_BUSY',
  'WPA_CLI_UNKNOWN_COMMAND',
  'WPA_CLI_CONNECT',
  'WPA_CLI_TIMEOUT',
  'WPA_CLI_SPAWN',
  'WPA_CLI_EXIT',
  'WPA_CLI_PARSE',
  'WPA_CLI_ARGUMENT',
  'WPA_CLI_CONFIG_MODE',
  'WPA_CLI_CONFIG_SYNC',
];
it.each(codes.map((c) => [c]))('WpaCliError carries code %s, its cause and the masked command', (code) => {
  const cause = new Error('inner');
  const e = new WpaCliError(code, 'msg', { cause, command: 'set_network 0 psk ****' });
  expect(e).toBeInstanceOf(Error);
  expect(e.name).toBe('WpaCliError');
  expect(e.code).toBe(code);
  expect(e.cause).toBe(cause);
  expect(e.command).toBe('set_network 0 psk ****');
  expect(new WpaCliError(code, 'no cause').cause).toBeUndefined();
  expect(e.code).toMatch(/^WPA_CLI_/);
  expect(isWpaCliError(e)).toBe(true);
  expect(isWpaCliError(e, code)).toBe(true);
  expect(
    isWpaCliError(
      e,
      codes.find((c) => c !== code),
    ),
  ).toBe(false);
  expect(isWpaCliError(Object.assign(new Error('msg'), { code }))).toBe(false);
});

it('keeps WifiError, the name before 0.2, as the same class', () => {
  expect(WifiError).toBe(WpaCliError);
  expect(new WifiError('WPA_CLI_FAIL', 'msg')).toBeInstanceOf(WpaCliError);
  expect(isWpaCliError(new WifiError('WPA_CLI_FAIL', 'msg'), 'WPA_CLI_FAIL')).toBe(true);
});

it.each([
  [-20, 'excellent'],
  [-50, 'excellent'],
  [-50.5, 'good'],
  [-60, 'good'],
  [-61, 'fair'],
  [-70, 'fair'],
  [-71, 'weak'],
  [-100, 'weak'],
  [Number.NEGATIVE_INFINITY, 'weak'],
])('classifySignal(%d) is %s', (rssi, cls) => {
  expect(classifySignal(rssi)).toBe(cls);
});

it('classifies on the exported thresholds and refuses NaN', () => {
  expect([SIGNAL_EXCELLENT_DBM, SIGNAL_GOOD_DBM, SIGNAL_FAIR_DBM]).toEqual([-50, -60, -70]);
  expect(classifySignal(SIGNAL_GOOD_DBM)).toBe('good');
  expect(() => classifySignal(Number.NaN)).toThrow(expect.objectContaining({ code: 'WPA_CLI_ARGUMENT' }));
});
