import crypto from 'node:crypto';
import fs from 'node:fs';
import { exec, needs, tempDir } from '@waved/test-lab';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  byteSum,
  CPIO_HEADER_SIZE,
  type CpioHeader,
  cpioHeader,
  cpioHeaderLength,
  createCpioParser,
  decodeCpioHeader,
  encodeCpioHeader,
  OtaError,
  writeCpio,
} from '../src/index.js';

interface Seen {
  name: string;
  size: number;
  data: Buffer;
  sum: number;
}

/** A cheap comparable form (deep equality on Buffers is slow). */
const key = (seen: Seen[]) =>
  seen.map((e) => `${e.name}:${e.size}:${e.sum}:${e.data.toString('hex')}`).join('|');

/** Parses `archive` fed in the given pieces; returns the entries or the thrown error. */
function parse(pieces: Uint8Array[]): Seen[] {
  const out: Seen[] = [];
  let parts: Buffer[] = [];
  const p = createCpioParser({
    onEntry: () => {
      parts = [];
    },
    onData: (d) => {
      parts.push(Buffer.from(d));
    },
    onEntryEnd: (h: CpioHeader, sum: number) => {
      out.push({ name: h.name, size: h.fileSize, data: Buffer.concat(parts), sum });
    },
  });
  for (const piece of pieces) p.push(piece);
  p.end();
  return out;
}

function archive(entries: { name: string; data: Buffer }[], format: 'crc' | 'newc' = 'crc'): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(encodeCpioHeader(cpioHeader(e.name, e.data.length, { format, check: byteSum(e.data) })));
    parts.push(e.data, Buffer.alloc(((e.data.length + 3) & ~3) - e.data.length));
  }
  parts.push(encodeCpioHeader(cpioHeader('TRAILER!!!', 0, { format })));
  return Buffer.concat(parts);
}

const sample = [
  { name: 'sw-description', data: Buffer.from('software = { version = "1"; };\n') },
  { name: 'a', data: Buffer.alloc(0) },
  { name: 'rootfs.img', data: crypto.randomBytes(1001) },
  { name: 'ünïcode-näme.bin', data: Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02]) },
];

describe('cpio header codec', () => {
  it('round-trips a header into an external buffer at an offset', () => {
    const h = cpioHeader('rootfs.img', 123456, {
      check: 0xdeadbeef,
      mode: 0o100600,
      mtime: 1_700_000_000,
      ino: 7,
    });
    const len = cpioHeaderLength(h);
    expect(len % 4).toBe(0);
    const buf = Buffer.alloc(len + 9, 0xaa);
    encodeCpioHeader(h, buf, 5);
    expect(decodeCpioHeader(buf, 5)).toEqual({ value: h, bytes: len });
    expect(buf.toString('latin1', 5, 11)).toBe('070702');
  });

  it('round-trips any header (property)', () => {
    const u32 = fc.integer({ min: 0, max: 0xffffffff });
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 60 }).filter((s) => !s.includes('\0')),
        u32,
        u32,
        u32,
        fc.constantFrom('crc' as const, 'newc' as const),
        (name, size, check, mtime, format) => {
          const h = cpioHeader(name, size, { check: format === 'crc' ? check : 0, mtime, format });
          expect(decodeCpioHeader(encodeCpioHeader(h))).toEqual({ value: h, bytes: cpioHeaderLength(h) });
        },
      ),
    );
  });

  it.each([
    ['a short buffer', (b: Buffer) => b.subarray(0, 100), 'OTA_CPIO_TRUNCATED'],
    ['a cut name', (b: Buffer) => b.subarray(0, CPIO_HEADER_SIZE + 2), 'OTA_CPIO_TRUNCATED'],
    ['a bad magic', (b: Buffer) => Buffer.concat([Buffer.from('070703'), b.subarray(6)]), 'OTA_CPIO_FORMAT'],
    ['odc', (b: Buffer) => Buffer.concat([Buffer.from('070707'), b.subarray(6)]), 'OTA_CPIO_FORMAT'],
    [
      'a non-hex field',
      (b: Buffer) => Buffer.concat([b.subarray(0, 20), Buffer.from('g'), b.subarray(21)]),
      'OTA_CPIO_FORMAT',
    ],
    [
      'a missing NUL',
      (b: Buffer) => {
        const c = Buffer.from(b);
        c[CPIO_HEADER_SIZE + 10] = 0x41;
        return c;
      },
      'OTA_CPIO_FORMAT',
    ],
  ])('rejects %s', (_what, mangle, code) => {
    const good = encodeCpioHeader(cpioHeader('rootfs.img', 10));
    expect(() => decodeCpioHeader(mangle(good))).toThrowError(expect.objectContaining({ code }));
  });

  it('caps the name size', () => {
    const h = encodeCpioHeader(cpioHeader('x'.repeat(300), 0));
    expect(() => decodeCpioHeader(h, 0, 100)).toThrowError(
      expect.objectContaining({ code: 'OTA_CPIO_FORMAT' }),
    );
  });
});

describe('byteSum', () => {
  it('equals the plain byte sum modulo 2^32 at any alignment', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat(7), fc.nat(), (bytes, shift, seed) => {
        const backing = new Uint8Array(bytes.length + 8);
        backing.set(bytes, shift);
        const view = backing.subarray(shift, shift + bytes.length);
        let s = seed;
        for (const b of bytes) s = (s + b) % 2 ** 32;
        expect(byteSum(view, seed)).toBe(s);
      }),
    );
  });

  it('wraps at 2^32 on large inputs', () => {
    const ff = Buffer.alloc(1 << 20, 0xff);
    expect(byteSum(ff, 0xffffff00)).toBe((0xffffff00 + 255 * (1 << 20)) % 2 ** 32);
  });
});

describe('streaming cpio parser', () => {
  const whole = archive(sample);

  it('reads every entry with its data and checksum', () => {
    const got = parse([whole]);
    expect(got.map((e) => [e.name, e.size])).toEqual(sample.map((e) => [e.name, e.data.length]));
    got.forEach((e, i) => {
      expect(e.data.equals(sample[i]!.data)).toBe(true);
      expect(e.sum).toBe(byteSum(sample[i]!.data));
    });
  });

  it('gives the same result for the archive split at every byte boundary', () => {
    const expected = key(parse([whole]));
    for (let i = 1; i < whole.length; i++) {
      const got = key(parse([whole.subarray(0, i), whole.subarray(i)]));
      if (got !== expected) expect.fail(`split at ${i} differs`);
    }
  });

  it('gives the same result for random chunkings', () => {
    const expected = key(parse([whole]));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: whole.length }), { maxLength: 20 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const pieces: Buffer[] = [];
        let last = 0;
        for (const p of points) {
          pieces.push(whole.subarray(last, p));
          last = p;
        }
        pieces.push(whole.subarray(last));
        expect(key(parse(pieces))).toBe(expected);
      }),
    );
  });

  it('reads one byte at a time', () => {
    expect(key(parse([...whole].map((b) => Uint8Array.of(b))))).toBe(key(parse([whole])));
  });

  it('verifies the crc of every entry', () => {
    const bad = Buffer.from(whole);
    const at = whole.indexOf(sample[2]!.data.subarray(0, 16));
    bad[at + 3] = (bad[at + 3]! + 1) & 0xff;
    expect(() => parse([bad])).toThrowError(expect.objectContaining({ code: 'OTA_CPIO_CHECKSUM' }));
  });

  it('ignores the check field of a newc archive', () => {
    expect(parse([archive(sample, 'newc')]).map((e) => e.name)).toEqual(sample.map((e) => e.name));
  });

  it('reports a missing trailer as truncated', () => {
    expect(() => parse([whole.subarray(0, whole.length - 124)])).toThrowError(
      expect.objectContaining({ code: 'OTA_CPIO_TRUNCATED' }),
    );
  });

  it('never throws anything but an OtaError on hostile input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(whole.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.uint8Array({ maxLength: 400 }),
        (flips, junk) => {
          const mutated = Buffer.from(whole);
          for (const [at, v] of flips) mutated[at] = v;
          for (const input of [mutated, Buffer.from(junk), Buffer.concat([Buffer.from('070702'), junk])]) {
            try {
              parse([input]);
            } catch (error) {
              expect(error).toBeInstanceOf(OtaError);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

const lab = needs({ peers: ['cpio'] });
lab.describe('agreement with GNU cpio', () => {
  const tmp = tempDir('swu-cpio-');
  afterAll(() => tmp.remove());

  it('reads what `cpio -o -H crc` writes', async () => {
    const dir = tmp.join('in');
    fs.mkdirSync(dir);
    const files = { 'sw-description': 'x = 1;\n', 'rootfs.img': crypto.randomBytes(4099), 'b.txt': 'abc' };
    for (const [n, d] of Object.entries(files)) fs.writeFileSync(`${dir}/${n}`, d);
    await exec('sh', [
      '-c',
      `cd ${dir} && printf '%s\\n' sw-description rootfs.img b.txt | cpio -o -H crc > ../gnu.cpio 2>/dev/null`,
    ]);
    const got = parse([fs.readFileSync(tmp.join('gnu.cpio'))]);
    expect(got.map((e) => e.name)).toEqual(Object.keys(files));
    for (const e of got) expect(e.data.equals(Buffer.from(files[e.name as keyof typeof files]))).toBe(true);
  });

  it('writes archives whose crc GNU cpio verifies, and GNU cpio sees our bad crc', async () => {
    const good = tmp.join('ours.cpio');
    await writeCpio(good, sample);
    const ok = await exec('sh', ['-c', `cpio -i --only-verify-crc < ${good}`], { allowFail: true });
    expect(ok.code, ok.stderr).toBe(0);
    const listed = await exec('sh', ['-c', `cpio -t < ${good}`]);
    expect(listed.stdout.trim().split('\n')).toEqual(sample.map((e) => e.name));

    const bad = tmp.join('bad.cpio');
    await writeCpio(bad, sample, { checksumFor: (name, sum) => (name === 'rootfs.img' ? sum + 1 : sum) });
    const ko = await exec('sh', ['-c', `cpio -i --only-verify-crc < ${bad}`], { allowFail: true });
    expect(ko.stderr).toMatch(/checksum error/i);
    expect(() => parse([fs.readFileSync(bad)])).toThrowError(
      expect.objectContaining({ code: 'OTA_CPIO_CHECKSUM' }),
    );
  });
});
