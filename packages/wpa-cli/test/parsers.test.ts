import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bandOf,
  parseListNetworks,
  parseScanResults,
  parseSignalPoll,
  parseStatus,
  securityOf,
  WpaCliError,
} from '../src/index.js';
import { fixture } from './helpers/fixtures.js';

describe('parseStatus (captured from wpa_supplicant 2.10)', () => {
  it('reads a disconnected interface', () => {
    const s = parseStatus(fixture('status-disconnected'));
    expect(s.wpaState).toBe('DISCONNECTED');
    expect(s.connected).toBe(false);
    expect(s.ssid).toBeUndefined();
    expect(s.address).toMatch(/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/);
  });

  it('reads an associated WPA2-PSK profile (wired driver: no handshake)', () => {
    const s = parseStatus(fixture('status-associated'));
    expect(s).toMatchObject({
      wpaState: 'ASSOCIATED',
      connected: false,
      bssid: '01:80:c2:00:00:03',
      frequency: 0,
      ssidDisplay: 'IEEE',
      networkId: 0,
      mode: 'station',
      keyMgmt: 'WPA2-PSK',
      pairwiseCipher: 'CCMP',
    });
    expect(s.ssid).toEqual(Buffer.from('IEEE'));
  });

  it('reads a completed WPA2-PSK connection on mac80211_hwsim', () => {
    const s = parseStatus(fixture('status-completed-hwsim'));
    expect(s).toMatchObject({
      wpaState: 'COMPLETED',
      connected: true,
      bssid: '02:00:00:00:00:00',
      frequency: 2412,
      ssidDisplay: 'TestAP',
      networkId: 0,
      keyMgmt: 'WPA2-PSK',
    });
    expect(s.raw.p2p_device_address).toBe('42:00:00:00:05:00');
  });

  it('reads the state after a wrong key', () => {
    expect(parseStatus(fixture('status-after-wrong-key'))).toMatchObject({
      wpaState: 'SCANNING',
      connected: false,
    });
  });

  it('reads a completed open connection (wired driver)', () => {
    const s = parseStatus(fixture('status-completed'));
    expect(s).toMatchObject({ wpaState: 'COMPLETED', connected: true, networkId: 6, keyMgmt: 'NONE' });
    expect(s.ssid).toEqual(Buffer.from('OpenNet'));
  });

  it('decodes an escaped SSID to its bytes', () => {
    const s = parseStatus('wpa_state=COMPLETED\nssid=a\\"b\\xff\nid=3\n');
    expect(s.ssid).toEqual(Buffer.from([0x61, 0x22, 0x62, 0xff]));
    expect(s.ssidDisplay).toBe('a"b\\xff');
  });

  it.each([
    ['', 'no wpa_state'],
    ['address=00:11:22:33:44:55\n', 'no wpa_state'],
    ['wpa_state=SLEEPING\n', 'unknown state'],
    ['wpa_state=COMPLETED\nnot a pair\n', 'not key=value'],
    ['wpa_state=COMPLETED\nid=x\n', 'bad id'],
    ['wpa_state=COMPLETED\nbssid=zz\n', 'bad bssid'],
    ['FAIL\n', 'an error token'],
  ])('refuses %j (%s)', (text) => {
    expect(() => parseStatus(text)).toThrow(expect.objectContaining({ code: 'WPA_CLI_PARSE' }));
  });
});

describe('parseListNetworks (captured)', () => {
  it('reads the empty list', () => {
    expect(parseListNetworks(fixture('list-networks-empty'))).toEqual([]);
  });

  it('reads ids, bssid and the CURRENT/DISABLED flags', () => {
    const nets = parseListNetworks(fixture('list-networks-mixed'));
    expect(nets.map((n) => [n.id, n.ssidDisplay, n.bssid, n.current, n.disabled, n.tempDisabled])).toEqual([
      [0, 'IEEE', null, true, false, false],
      [1, 'a"b\\\\c ', null, false, true, false],
      [2, 'café 📶', null, false, true, false],
      [3, '\\xff\\x00\\xc6\\x1b\\x0a\\x0d\\x09A', null, false, true, false],
      [4, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', null, false, true, false],
      [5, '\\\\x41', null, false, true, false],
      [6, 'OpenNet', null, false, true, false],
    ]);
    expect(nets[4]!.ssid.length).toBe(32);
  });

  it('reads a reply cut at the 4 KiB control buffer up to its last whole line', () => {
    const text = fixture('list-networks-truncated');
    expect(text.length).toBeGreaterThan(3800);
    const nets = parseListNetworks(text);
    expect(nets.at(-1)!.id).toBe(32);
    expect(nets.at(-1)!.ssid).toEqual(Buffer.alloc(32, 0xff));
  });

  it('reads TEMP-DISABLED after a wrong key (captured on mac80211_hwsim)', () => {
    const nets = parseListNetworks(fixture('list-networks-temp-disabled'));
    expect(nets.map((n) => [n.id, n.disabled, n.tempDisabled])).toEqual([
      [0, true, false],
      [1, false, true],
    ]);
    expect(nets[1]!.ssid).toEqual(Buffer.from('61225c6320f09f93b6ff', 'hex'));
  });

  it('reads TEMP-DISABLED and P2P-PERSISTENT', () => {
    const nets = parseListNetworks(
      'network id / ssid / bssid / flags\n1\tA\t02:00:00:00:00:00\t[TEMP-DISABLED]\n2\tB\tany\t[DISABLED][P2P-PERSISTENT]\n',
    );
    expect(nets[0]).toMatchObject({ id: 1, bssid: '02:00:00:00:00:00', tempDisabled: true, disabled: false });
    expect(nets[1]!.flags).toEqual(['DISABLED', 'P2P-PERSISTENT']);
  });

  it.each([
    ['', 'no header'],
    ['FAIL\n', 'error token'],
    ['network id / ssid / bssid / flags\n0\tA\tany\n', '3 fields'],
    ['network id / ssid / bssid / flags\nx\tA\tany\t\n', 'bad id'],
    ['network id / ssid / bssid / flags\n0\tA\tnowhere\t\n', 'bad bssid'],
    ['network id / ssid / bssid / flags\n0\tA\tany\t[DISABLED\n', 'bad flags'],
    ['network id / ssid / bssid / flags\n0\ta\\\tany\t\n', 'bad SSID escape'],
  ])('refuses %j (%s)', (text) => {
    expect(() => parseListNetworks(text)).toThrow(expect.objectContaining({ code: 'WPA_CLI_PARSE' }));
  });
});

describe('parseScanResults', () => {
  it('reads the captured empty reply (wired driver)', () => {
    expect(parseScanResults(fixture('scan-results-empty'))).toEqual([]);
  });

  it('reads the captured mac80211_hwsim scan: security, band, hidden entry, escaped SSID bytes', () => {
    const rs = parseScanResults(fixture('scan-results-hwsim'));
    expect(
      rs.map((r) => [r.bssid, r.frequency, r.band, r.signal, r.security, r.akms, r.hidden, r.ssidDisplay]),
    ).toEqual([
      ['02:00:00:00:04:00', 2412, '2.4GHz', -30, 'sae', ['SAE'], false, 'Wpa3Only'],
      ['02:00:00:00:00:00', 2412, '2.4GHz', -30, 'psk', ['PSK'], false, 'TestAP'],
      ['02:00:00:00:02:00', 2462, '2.4GHz', -30, 'psk', ['PSK'], true, ''],
      ['02:00:00:00:01:00', 2437, '2.4GHz', -30, 'psk', ['PSK'], false, 'a"\\\\c 📶\\xff'],
      ['02:00:00:00:03:00', 2437, '2.4GHz', -30, 'open', [], false, 'OpenCafe'],
    ]);
    expect(rs[3]!.ssid).toEqual(Buffer.from('61225c6320f09f93b6ff', 'hex'));
    expect(rs[3]!.flags).toEqual(['WPA-PSK-TKIP', 'WPA2-PSK-CCMP', 'ESS']);
  });

  it('marks hidden entries (empty or all-zero SSID)', () => {
    const rs = parseScanResults(
      'bssid / frequency / signal level / flags / ssid\n' +
        '02:00:00:00:02:00\t2462\t-40\t[WPA2-PSK-CCMP][ESS]\t\n' +
        '02:00:00:00:03:00\t5180\t-71\t[ESS]\t\\x00\\x00\\x00\n',
    );
    expect(rs.map((r) => [r.hidden, r.ssid.length, r.band, r.security])).toEqual([
      [true, 0, '2.4GHz', 'psk'],
      [true, 3, '5GHz', 'open'],
    ]);
  });

  it('rejects malformed lines', () => {
    const h = 'bssid / frequency / signal level / flags / ssid\n';
    for (const bad of [
      `${h}02:00:00:00:00:00\t2437\t-30\t[ESS]\n`,
      `${h}02:00:00:00:00\t2437\t-30\t[ESS]\tX\n`,
      `${h}02:00:00:00:00:00\tnope\t-30\t[ESS]\tX\n`,
      `${h}02:00:00:00:00:00\t2437\t-30.5\t[ESS]\tX\n`,
      `${h}02:00:00:00:00:00\t2437\t-30\tESS\tX\n`,
      'bssid / frequency\n',
    ]) {
      expect(() => parseScanResults(bad)).toThrow(expect.objectContaining({ code: 'WPA_CLI_PARSE' }));
    }
  });
});

describe('securityOf / bandOf', () => {
  it.each([
    [['WPA2-PSK-CCMP', 'ESS'], 'psk', ['PSK']],
    [['WPA-PSK-TKIP', 'WPA2-PSK-CCMP+TKIP', 'ESS'], 'psk', ['PSK']],
    [['WPA2-PSK+SAE-CCMP', 'ESS'], 'psk', ['PSK', 'SAE']],
    [['WPA2-SAE-CCMP', 'ESS'], 'sae', ['SAE']],
    [['WPA2-EAP-CCMP-preauth', 'ESS'], 'eap', ['EAP']],
    [['WPA2-FT/PSK+PSK-SHA256-GCMP-256', 'ESS'], 'psk', ['FT/PSK', 'PSK-SHA256']],
    [['WPA2-OWE-CCMP', 'ESS'], 'owe', ['OWE']],
    [['WEP', 'ESS'], 'wep', []],
    [['ESS'], 'open', []],
    [['WPA2-?'], 'other', ['?']],
  ])('%j -> %s', (flags, security, akms) => {
    expect(securityOf(flags)).toEqual({ security, akms });
  });

  it.each([
    [2412, '2.4GHz'],
    [2484, '2.4GHz'],
    [5180, '5GHz'],
    [5885, '5GHz'],
    [5955, '6GHz'],
    [58320, '60GHz'],
    [0, 'unknown'],
  ])('%i MHz is %s', (f, band) => {
    expect(bandOf(f)).toBe(band);
  });
});

describe('parseSignalPoll', () => {
  it('reads the captured mac80211_hwsim reply', () => {
    const p = parseSignalPoll(fixture('signal-poll-hwsim'));
    expect(p).toMatchObject({
      rssi: -30,
      linkSpeed: 54,
      noise: -92,
      frequency: 2412,
      width: '20 MHz (no HT)',
      centerFrequency1: 2412,
      averageRssi: -30,
      averageBeaconRssi: -30,
    });
    expect(p.centerFrequency2).toBeUndefined();
  });

  it.each([['FAIL\n'], [''], ['LINKSPEED=6\n'], ['RSSI=strong\n']])('refuses %j', (text) => {
    expect(() => parseSignalPoll(text)).toThrow(expect.objectContaining({ code: 'WPA_CLI_PARSE' }));
  });
});

describe('every parser treats its input as hostile', () => {
  const headers = [
    'network id / ssid / bssid / flags\n',
    'bssid / frequency / signal level / flags / ssid\n',
    '',
  ];
  const text = fc
    .tuple(
      fc.constantFrom(...headers),
      fc.array(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc.array(fc.string({ maxLength: 20 }), { maxLength: 6 }).map((a) => a.join('\t')),
          fc.constantFrom('wpa_state=COMPLETED', 'RSSI=-40', 'ssid=\\x', 'id=', '0\tA\tany\t[CURRENT]'),
        ),
        { maxLength: 8 },
      ),
    )
    .map(([h, lines]) => h + lines.join('\n'));
  it.each([
    ['parseStatus', parseStatus],
    ['parseSignalPoll', parseSignalPoll],
    ['parseListNetworks', parseListNetworks],
    ['parseScanResults', parseScanResults],
  ] as const)('%s returns a value or a WpaCliError, nothing else', (_, parse) => {
    fc.assert(
      fc.property(text, (t) => {
        try {
          parse(t);
        } catch (error) {
          expect(error).toBeInstanceOf(WpaCliError);
          expect((error as WpaCliError).code).toBe('WPA_CLI_PARSE');
        }
      }),
      { numRuns: 800 },
    );
  });
});
