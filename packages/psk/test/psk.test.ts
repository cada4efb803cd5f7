import { exec, needs } from '@waved/test-lab';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivePsk, derivePskSync, PskError, ssidBytes } from '../src/index.js';

// IEEE 802.11i-2004 Annex H.4.2 test vectors (the first two); the rest observed with wpa_passphrase 2.10.
const vectors: Array<[string, string, string]> = [
  ['IEEE', 'password', 'f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e'],
  ['ThisIsASSID', 'ThisIsAPassword', '0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af'],
  // 32-byte SSID, 63-character passphrase
  [
    'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ',
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    '2d43d0dabfdd635377172efa1fc4b4b87dbfc4219193909ded9a7cfb89a3097b',
  ],
  ['My SSID', '12345678', '5b3a39803f2bde92b2e30c7d7e09a45e092b959d60398d7ff4471b32d2de149b'],
  ['TestAP', 'password', 'd5eb010d73ea7391a382128ff8f97ad84f081db816ba3cb4fc68737a7ace69ea'],
];

describe('derivePsk', () => {
  it.each(vectors)('derives the 802.11i vector for SSID %j', async (ssid, pass, psk) => {
    expect(await derivePsk(ssid, pass)).toBe(psk);
    expect(derivePskSync(ssid, pass)).toBe(psk);
    expect(derivePskSync(Buffer.from(ssid), pass)).toBe(psk);
  });

  it('passes a 64-hex PSK through, lowercased', async () => {
    const raw = 'F42C6FC52DF0EBEF9EBB4B90B38A5F902E83FE1B135A70E23AED762E9710A12E';
    expect(await derivePsk('IEEE', raw)).toBe(raw.toLowerCase());
  });

  it('treats SSID bytes as bytes, not text', () => {
    const bytes = Uint8Array.from([0xff, 0x00, 0x41]);
    const view = Uint8Array.from([9, 9, 0xff, 0x00, 0x41]).subarray(2);
    expect(ssidBytes(view)).toEqual(Buffer.from(bytes));
    expect(derivePskSync(bytes, 'password')).toMatch(/^[0-9a-f]{64}$/);
  });

  const rejects: Array<[string, string | Uint8Array, string]> = [
    ['PSK_SSID_LENGTH', '', 'password'],
    ['PSK_SSID_LENGTH', 'x'.repeat(33), 'password'],
    ['PSK_SSID_LENGTH', '€'.repeat(11), 'password'],
    ['PSK_PASSPHRASE_LENGTH', 'ssid', 'short'],
    ['PSK_PASSPHRASE_LENGTH', 'ssid', 'x'.repeat(64)],
    ['PSK_PASSPHRASE_LENGTH', 'ssid', 'g'.repeat(64)],
    ['PSK_PASSPHRASE_CHARSET', 'ssid', 'pässword'],
    ['PSK_PASSPHRASE_CHARSET', 'ssid', 'pass\tword'],
  ];
  it.each(rejects)('rejects with %s', async (code, ssid, pass) => {
    expect(() => derivePskSync(ssid as string, pass as string)).toThrow(expect.objectContaining({ code }));
    await expect(derivePsk(ssid as string, pass as string)).rejects.toBeInstanceOf(PskError);
  });

  it('never puts the passphrase in an error message', () => {
    const secret = 'secret-ümlaut';
    try {
      derivePskSync('ssid', secret);
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(secret);
    }
  });
});

const lab = needs({ peers: ['wpa_passphrase'] });
lab.describe('derivePsk against the real wpa_passphrase', () => {
  const printable = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: 8,
    maxLength: 63,
  });
  const ssid = fc
    .oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }),
      fc.string({
        unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
        minLength: 32,
        maxLength: 32,
      }),
    )
    .filter((s) => {
      const n = Buffer.byteLength(s);
      return n >= 1 && n <= 32 && !s.includes('\0');
    });
  const fixed: Array<[string, string]> = [
    ['Æther café', 'pass word with spaces'],
    ['📶 Home', '12345678'],
    ['x'.repeat(32), 'p'.repeat(63)],
    ['semi;colon"quote\\', ' leading and trailing '],
    ['ssid', '!@#$%^&*()_+-={}[]|:;<>?,./~`'],
  ];

  async function peer(s: string, p: string): Promise<string> {
    const { stdout } = await exec('wpa_passphrase', [s, p]);
    const m = /^\s*psk=([0-9a-f]{64})$/m.exec(stdout);
    if (!m) throw new Error(`no psk in wpa_passphrase output for ${JSON.stringify(s)}`);
    return m[1]!;
  }

  it.each(fixed)('agrees for SSID %j', async (s, p) => {
    expect(await derivePsk(s, p)).toBe(await peer(s, p));
  });

  it('agrees on 150 generated SSID/passphrase pairs (UTF-8, 32-byte SSIDs, symbols, 8 and 63 characters)', async () => {
    const cases = fc.sample(
      fc.tuple(
        ssid,
        fc.oneof(
          printable,
          printable.map((s) => s.padEnd(63, '~').slice(0, 63)),
        ),
      ),
      { numRuns: 150, seed: 42 },
    );
    for (const [s, p] of cases) expect(derivePskSync(s, p), JSON.stringify([s, p])).toBe(await peer(s, p));
  });

  it('rejects what wpa_passphrase rejects for passphrase length', async () => {
    const r = await exec('wpa_passphrase', ['ssid', 'short'], { allowFail: true });
    expect(r.code).not.toBe(0);
    expect(() => derivePskSync('ssid', 'short')).toThrow(PskError);
  });
});
