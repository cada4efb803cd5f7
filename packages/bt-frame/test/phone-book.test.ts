import fs from 'node:fs';
import zlib from 'node:zlib';
import { tempDir } from '@waved/test-lab';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BtFrameError,
  type Contact,
  createBtModule,
  downloadPhoneBook,
  encodeFrame,
  normalizeNumber,
  numbersMatch,
  PHONEBOOK_PATH,
  parsePhoneBook,
  parseVCards,
  readPhoneBookFile,
  searchByNumber,
  serializePhoneBook,
  writePhoneBookFile,
} from '../src/index.js';
import { fakePort, frame } from './helpers.js';

const dir = tempDir('bt-frame-pb-');
afterAll(() => dir.remove());

const book: Contact[] = [
  { name: 'Ada Lovelace', numbers: ['+44 20 7946 0958', '07700 900123'] },
  { name: 'Zoë Ünal 李', numbers: ['(030) 1234-5678'] },
  { name: 'Emergency', numbers: ['112'] },
  { name: 'Grace', numbers: ['+1 (415) 555-0100 ext. 12'] },
  { name: '', numbers: [] },
];

describe('phone book file format', () => {
  it('round-trips contacts with UTF-8 names and keeps the documented layout', () => {
    const bin = serializePhoneBook(book);
    expect([...bin.subarray(0, 10)]).toEqual([0x57, 0x56, 0x50, 0x42, 0, 1, 0, 0, 0, 5]);
    expect(parsePhoneBook(bin)).toEqual(book);
    expect(parsePhoneBook(serializePhoneBook([]))).toEqual([]);
    // the trailer is the CRC-32 of everything before it
    expect(bin.readUInt32BE(bin.length - 4)).toBe(zlib.crc32(bin.subarray(0, bin.length - 4)));
  });

  it('round-trips arbitrary contacts', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.string({ unit: 'grapheme', maxLength: 30 }),
            numbers: fc.array(fc.string({ maxLength: 20 }), { maxLength: 4 }),
          }),
          { maxLength: 20 },
        ),
        (contacts) => {
          expect(parsePhoneBook(serializePhoneBook(contacts))).toEqual(contacts);
        },
      ),
    );
  });

  const codeOf = (buf: Uint8Array): string => {
    try {
      parsePhoneBook(buf);
      return 'parsed';
    } catch (e) {
      expect(e).toBeInstanceOf(BtFrameError);
      return (e as BtFrameError).code;
    }
  };
  /** Rewrites the CRC (zlib's CRC-32, an independent implementation) to reach checks behind it. */
  const reseal = (b: Buffer): Buffer => {
    const fixed = Buffer.from(b);
    fixed.writeUInt32BE(zlib.crc32(fixed.subarray(0, fixed.length - 4)), fixed.length - 4);
    return fixed;
  };

  it('refuses hostile and damaged files with a code', () => {
    const good = serializePhoneBook(book);
    expect(codeOf(Buffer.from('hello world, not a phone book'))).toBe('BT_PHONEBOOK_MAGIC');
    expect(codeOf(new Uint8Array(0))).toBe('BT_PHONEBOOK_MAGIC');
    expect(codeOf(good.subarray(0, 8))).toBe('BT_PHONEBOOK_TRUNCATED');
    const v2 = Buffer.from(good);
    v2[5] = 2;
    expect(codeOf(v2)).toBe('BT_PHONEBOOK_VERSION');
    const flipped = Buffer.from(good);
    flipped[20]! ^= 0x01;
    expect(codeOf(flipped)).toBe('BT_PHONEBOOK_CHECKSUM');
    expect(codeOf(good.subarray(0, good.length - 1))).toBe('BT_PHONEBOOK_CHECKSUM');
    // valid CRC, but a count of 4 billion contacts
    const huge = Buffer.from(good);
    huge.writeUInt32BE(0xffffffff, 6);
    expect(codeOf(reseal(huge))).toBe('BT_PHONEBOOK_LIMIT');
    const many = Buffer.from(good);
    many.writeUInt32BE(6, 6);
    expect(codeOf(reseal(many))).toBe('BT_PHONEBOOK_TRUNCATED');
    const few = Buffer.from(good);
    few.writeUInt32BE(4, 6);
    expect(codeOf(reseal(few))).toBe('BT_PHONEBOOK_TRAILING');
    // a name that is not UTF-8
    const latin1 = serializePhoneBook([{ name: 'abc', numbers: [] }]);
    latin1[12] = 0xff;
    expect(codeOf(reseal(latin1))).toBe('BT_PHONEBOOK_ENCODING');
    expect(() => serializePhoneBook([{ name: 'x'.repeat(2000), numbers: [] }])).toThrow(
      expect.objectContaining({ code: 'BT_PHONEBOOK_LIMIT' }),
    );
    expect(() => serializePhoneBook([{ name: 'x', numbers: [5 as unknown as string] }])).toThrow(
      expect.objectContaining({ code: 'BT_PHONEBOOK_INVALID' }),
    );
  });

  it('never crashes on fuzzed files: random bytes, mutations and truncations, resealed or not', () => {
    const good = serializePhoneBook(book);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.concat([good.subarray(0, 10), b])),
          fc
            .array(fc.tuple(fc.nat(good.length - 1), fc.nat(255)), { minLength: 1, maxLength: 6 })
            .map((edits) => {
              const b = Buffer.from(good);
              for (const [at, v] of edits) b[at] = v;
              return b;
            }),
          fc.nat(good.length).map((n) => Buffer.from(good.subarray(0, n))),
        ),
        fc.boolean(),
        (buf, sealed) => {
          const input = sealed && buf.length >= 14 ? reseal(buf) : buf;
          const code = codeOf(input);
          expect(code).toMatch(/^(parsed|BT_PHONEBOOK_[A-Z]+)$/);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('number search', () => {
  it('normalises spaces, dashes, brackets, + and 00 prefixes and the trunk zero', () => {
    expect(normalizeNumber('+44 (0)20 7946-0958')).toBe('+442079460958');
    expect(normalizeNumber('+44 20 7946 0958')).toBe('+442079460958');
    expect(normalizeNumber('0044 20 7946 0958')).toBe('+442079460958');
    expect(normalizeNumber('020 7946 0958')).toBe('2079460958');
    expect(normalizeNumber('020 7946 0958', { countryCode: '44' })).toBe('+442079460958');
    expect(normalizeNumber('(030) 1234-5678')).toBe('3012345678');
    expect(normalizeNumber('+1 (415) 555-0100 ext. 12')).toBe('+14155550100');
    expect(normalizeNumber('555.0100;123')).toBe('5550100');
    expect(normalizeNumber('abc')).toBe('');
  });

  it('finds contacts across national and international forms', () => {
    const names = (q: string, cc?: string) =>
      searchByNumber(book, q, cc ? { countryCode: cc } : {}).map((c) => c.name);
    expect(names('020 7946 0958')).toEqual(['Ada Lovelace']);
    expect(names('00442079460958')).toEqual(['Ada Lovelace']);
    expect(names('+44 7700 900123')).toEqual(['Ada Lovelace']);
    expect(names('+49 30 12345678')).toEqual(['Zoë Ünal 李']);
    expect(names('030-12345678', '49')).toEqual(['Zoë Ünal 李']);
    expect(names('4155550100')).toEqual(['Grace']);
    expect(names('112')).toEqual(['Emergency']);
    expect(names('+33 112')).toEqual([]); // too short to match by tail
    expect(names('+44 20 7946 0959')).toEqual([]);
    expect(names('')).toEqual([]);
    expect(numbersMatch('+44 20 7946 0958', '+1 20 7946 0958')).toBe(false);
  });
});

describe('vCard import', () => {
  it('reads FN, N and TEL from PBAP vCards 2.1 and 3.0 (folding, groups, quoted-printable)', () => {
    const text = [
      'BEGIN:VCARD',
      'VERSION:2.1',
      'N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=9Cnal;Zo=C3=AB;;;',
      'TEL;CELL:+49 30 12345678',
      'TEL;HOME:030 12345678',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Ada',
      '  Lovelace',
      'item1.TEL;TYPE=WORK:+44 20 7946 0958',
      'TEL;VALUE=uri:tel:+44-7700-900123',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'END:VCARD',
    ].join('\r\n');
    expect(parseVCards(text)).toEqual([
      { name: 'Zoë Ünal', numbers: ['+49 30 12345678', '030 12345678'] },
      { name: 'Ada Lovelace', numbers: ['+44 20 7946 0958', '+44-7700-900123'] },
    ]);
  });
});

describe('phone book files and download', () => {
  it('writes atomically with mode 0600 and reads back; the default path is the spec one', async () => {
    const file = dir.join('PHONE_BOOK.bin');
    await writePhoneBookFile(book, file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(await readPhoneBookFile(file)).toEqual(book);
    expect(fs.readdirSync(dir.path).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    await expect(readPhoneBookFile(dir.join('missing.bin'))).rejects.toMatchObject({
      code: 'BT_PHONEBOOK_IO',
    });
    fs.writeFileSync(dir.join('junk.bin'), 'junk');
    await expect(readPhoneBookFile(dir.join('junk.bin'))).rejects.toMatchObject({
      code: 'BT_PHONEBOOK_MAGIC',
    });
    expect(PHONEBOOK_PATH).toBe('/tmp/PHONE_BOOK.bin');
  });

  it('downloads over bt_get_phone_book: status reply, vCard chunks, empty end frame', async () => {
    const f = fakePort();
    const vcards = Buffer.from(
      Array.from(
        { length: 40 },
        (_, i) =>
          `BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person ${i}\r\nTEL:+4477009${String(i).padStart(5, '0')}\r\nEND:VCARD\r\n`,
      ).join(''),
    );
    f.onCommand((c) => {
      if (c.payload[0] !== 0x11) return;
      const out = [encodeFrame(frame(2, 0x11, 0))];
      for (let at = 0; at < vcards.length; at += 200)
        out.push(encodeFrame(frame(2, 0x11, ...vcards.subarray(at, at + 200))));
      out.push(encodeFrame(frame(2, 0x11)));
      // delivered in odd-sized chunks, as a UART would
      const all = Buffer.concat(out);
      for (let at = 0; at < all.length; at += 61) f.reply(all.subarray(at, at + 61));
    });
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    const file = dir.join('download.bin');
    const contacts = await downloadPhoneBook(m, { path: file });
    expect(contacts).toHaveLength(40);
    expect(contacts[7]).toEqual({ name: 'Person 7', numbers: ['+447700900007'] });
    expect(await readPhoneBookFile(file)).toEqual(contacts);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(searchByNumber(contacts, '07700 900039').map((c) => c.name)).toEqual(['Person 39']);
    await m.close();
  });

  it('reports a refused or stalled download and writes nothing', async () => {
    const f = fakePort();
    let mode: 'refuse' | 'stall' = 'refuse';
    f.onCommand(() => {
      if (mode === 'refuse') f.reply(encodeFrame(frame(2, 0x11, 3)));
      else f.reply(Buffer.concat([encodeFrame(frame(2, 0x11, 0)), encodeFrame(frame(2, 0x11, 0x42))]));
    });
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    const file = dir.join('never.bin');
    await expect(downloadPhoneBook(m, { path: file })).rejects.toMatchObject({
      code: 'BT_PHONEBOOK_DOWNLOAD',
    });
    mode = 'stall';
    await expect(downloadPhoneBook(m, { path: file, idleTimeoutMs: 50 })).rejects.toMatchObject({
      code: 'BT_PHONEBOOK_DOWNLOAD',
      message: expect.stringMatching(/stalled/),
    });
    expect(fs.existsSync(file)).toBe(false);
    await m.close();
  });

  it('fails the download when the link closes mid-transfer', async () => {
    const f = fakePort();
    f.onCommand(() => {
      f.reply(Buffer.concat([encodeFrame(frame(2, 0x11, 0)), encodeFrame(frame(2, 0x11, 0x42))]));
      setTimeout(() => f.emit('close'), 10);
    });
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    await expect(downloadPhoneBook(m, { path: dir.join('closed.bin') })).rejects.toMatchObject({
      code: 'BT_PHONEBOOK_DOWNLOAD',
      cause: { code: 'BT_MODULE_CLOSED' },
    });
    expect(fs.existsSync(dir.join('closed.bin'))).toBe(false);
  });

  it('refuses an oversized file before reading it', async () => {
    const big = dir.join('big.bin');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 17 * 1024 * 1024); // sparse: costs no disk
    await expect(readPhoneBookFile(big)).rejects.toMatchObject({ code: 'BT_PHONEBOOK_LIMIT' });
  });

  it('parseVCards survives arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(
              'BEGIN:VCARD',
              'END:VCARD',
              'FN:',
              'N:;;;',
              'TEL;ENCODING=QUOTED-PRINTABLE:=E2=',
              ' ',
              '=',
              ':',
            ),
            fc.string({ maxLength: 30 }),
          ),
          { maxLength: 30 },
        ),
        (lines) => {
          const contacts = parseVCards(lines.join('\r\n'));
          // whatever comes out can always be stored
          expect(parsePhoneBook(serializePhoneBook(contacts))).toEqual(contacts);
        },
      ),
    );
  });
});
