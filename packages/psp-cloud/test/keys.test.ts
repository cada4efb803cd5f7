import crypto from 'node:crypto';
import fs from 'node:fs';
import { tempDir } from '@waved/test-lab';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CloudError,
  createSysfsMacReader,
  decodeKeyContainer,
  deriveLogKey,
  encodeKeyContainer,
  normalizeMac,
  openUdidFromMac,
} from '../src/index.js';

// Vectors built here from the spec's words, without the package's helpers.
function specContainer(key: Uint8Array, fill: Uint8Array): Uint8Array {
  const out = Uint8Array.from(fill);
  for (let i = 0; i < 32; i++) {
    const offset = i * 32 + (i % 8);
    out[offset] = 0xaa;
    out[offset + 1] = key[i]!;
    out[offset + 2] = 0xaa;
  }
  out.set([0xde, 0xad, 0xbe, 0xef, 0x20, 0x20], 1018);
  return out;
}

describe('key container (dilute_encryption_key)', () => {
  const key = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 5) & 0xff);
  const fill = Uint8Array.from({ length: 1024 }, (_, i) => (i * 13 + 1) & 0xff);

  it('encodes byte for byte as the spec describes', () => {
    const mine = encodeKeyContainer(key, () => Uint8Array.from(fill));
    expect(Buffer.from(mine).equals(Buffer.from(specContainer(key, fill)))).toBe(true);
    // spot checks at hand-computed offsets: i=0 → 0, i=1 → 0x21, i=9 → 0x121, i=31 → 0x3e7
    expect([...mine.subarray(0, 3)]).toEqual([0xaa, key[0], 0xaa]);
    expect([...mine.subarray(0x21, 0x24)]).toEqual([0xaa, key[1], 0xaa]);
    expect([...mine.subarray(0x121, 0x124)]).toEqual([0xaa, key[9], 0xaa]);
    expect([...mine.subarray(0x3e7, 0x3ea)]).toEqual([0xaa, key[31], 0xaa]);
    expect(Buffer.from(mine.subarray(0x3fa)).toString('hex')).toBe('deadbeef2020');
    expect(mine.length).toBe(1024);
  });

  it('decodes a container built independently, and random ones round-trip', () => {
    expect(Buffer.from(decodeKeyContainer(specContainer(key, fill))).equals(Buffer.from(key))).toBe(true);
    const k = crypto.randomBytes(32);
    const a = encodeKeyContainer(k);
    const b = encodeKeyContainer(k);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false); // fresh random fill each time
    expect(Buffer.from(decodeKeyContainer(a)).equals(k)).toBe(true);
  });

  it.each([
    ['CLOUD_KEY_CONTAINER_SIZE', new Uint8Array(1023)],
    ['CLOUD_KEY_CONTAINER_SIZE', new Uint8Array(1025)],
    [
      'CLOUD_KEY_CONTAINER_MAGIC',
      (() => {
        const c = specContainer(key, fill);
        c[0x3ff] = 0x21;
        return c;
      })(),
    ],
    [
      'CLOUD_KEY_CONTAINER_MARKER',
      (() => {
        const c = specContainer(key, fill);
        c[0x121 + 2] = 0;
        return c;
      })(),
    ],
  ] as const)('refuses with %s', (code, bytes) => {
    expect(() => decodeKeyContainer(bytes)).toThrow(expect.objectContaining({ code }));
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => encodeKeyContainer(new Uint8Array(31))).toThrow(CloudError);
  });

  it('never throws anything but a CloudError on hostile input (fuzz)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 1100 }), fc.boolean(), (bytes, withMagic) => {
        const input = bytes.length >= 1024 && withMagic ? bytes.slice(0, 1024) : bytes;
        if (input.length === 1024 && withMagic) input.set([0xde, 0xad, 0xbe, 0xef, 0x20, 0x20], 0x3fa);
        try {
          const k = decodeKeyContainer(input);
          expect(k.length).toBe(32);
        } catch (error) {
          expect(error).toBeInstanceOf(CloudError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('log encryption key', () => {
  const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
  const macs = (table: Record<string, string>) => (iface: string) => table[iface];

  it('uses eth0 first', async () => {
    const r = await deriveLogKey({
      readMac: macs({ eth0: '02:AA:bb:cc:dd:01', wlan0: '02:00:00:00:00:02' }),
      timestamp: 1700000000,
    });
    expect(r.source).toBe('eth0');
    expect(Buffer.from(r.key).toString('hex')).toBe(sha('02:aa:bb:cc:dd:011700000000'));
  });

  it('falls back to wlan0, then to default-device', async () => {
    const w = await deriveLogKey({ readMac: macs({ wlan0: '02:00:00:00:00:02' }), timestamp: 1700000001.9 });
    expect(w.source).toBe('wlan0');
    expect(Buffer.from(w.key).toString('hex')).toBe(sha('02:00:00:00:00:021700000001'));
    const d = await deriveLogKey({
      readMac: macs({ eth0: '00:00:00:00:00:00', wlan0: 'garbage' }),
      timestamp: 5,
    });
    expect(d.source).toBe('default-device');
    expect(Buffer.from(d.key).toString('hex')).toBe(sha('default-device5'));
  });

  it('reads MACs from a sysfs tree', async () => {
    const dir = tempDir('psp-cloud-sysfs-');
    try {
      fs.mkdirSync(dir.join('wlan0'));
      fs.writeFileSync(dir.join('wlan0', 'address'), '02:11:22:33:44:55\n');
      const reader = createSysfsMacReader(dir.path);
      expect(await reader('eth0')).toBeUndefined();
      expect(await reader('../etc')).toBeUndefined();
      const r = await deriveLogKey({ readMac: reader, timestamp: 42 });
      expect(r.source).toBe('wlan0');
      expect(Buffer.from(r.key).toString('hex')).toBe(sha('02:11:22:33:44:5542'));
    } finally {
      dir.remove();
    }
  });

  it('normalises MACs and derives the open UDID from them', () => {
    expect(normalizeMac(' 02:AB:CD:EF:00:11\n')).toBe('02:ab:cd:ef:00:11');
    expect(normalizeMac('02-ab-cd-ef-00-11')).toBeUndefined();
    expect(openUdidFromMac('02:AB:CD:EF:00:11')).toBe(sha('02:ab:cd:ef:00:11').slice(0, 32));
  });
});
