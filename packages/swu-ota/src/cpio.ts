import { OtaError } from './errors.js';

// The "new ASCII" cpio format SWUpdate reads (cpio(5), "New ASCII Format" and "New CRC Format"):
// a 110-byte header of a 6-byte magic and thirteen 8-digit hex fields, the NUL-terminated name,
// padding to a multiple of 4, the data, padding to a multiple of 4. `TRAILER!!!` ends the archive.

export const CPIO_HEADER_SIZE = 110;
export const CPIO_MAGIC_NEWC = '070701';
export const CPIO_MAGIC_CRC = '070702';
export const CPIO_TRAILER = 'TRAILER!!!';
/** Longest entry name accepted (with its NUL); SWUpdate's own limit is far below this. */
export const CPIO_MAX_NAME = 4096;

export type CpioFormat = 'newc' | 'crc';

export interface CpioHeader {
  format: CpioFormat;
  name: string;
  fileSize: number;
  /** For `crc`: the low 32 bits of the sum of the data bytes. For `newc`: 0. */
  check: number;
  mode: number;
  ino: number;
  uid: number;
  gid: number;
  nlink: number;
  mtime: number;
  devMajor: number;
  devMinor: number;
  rdevMajor: number;
  rdevMinor: number;
}

const FIELDS = [
  'ino',
  'mode',
  'uid',
  'gid',
  'nlink',
  'mtime',
  'fileSize',
  'devMajor',
  'devMinor',
  'rdevMajor',
  'rdevMinor',
  'namesize',
  'check',
] as const;

export const pad4 = (n: number): number => (n + 3) & ~3;

/** A header with defaults for everything but the name and size. */
export function cpioHeader(
  name: string,
  fileSize: number,
  rest: Partial<Omit<CpioHeader, 'name' | 'fileSize'>> = {},
): CpioHeader {
  return {
    format: 'crc',
    check: 0,
    mode: 0o100644,
    ino: 0,
    uid: 0,
    gid: 0,
    nlink: 1,
    mtime: 0,
    devMajor: 0,
    devMinor: 0,
    rdevMajor: 0,
    rdevMinor: 0,
    ...rest,
    name,
    fileSize,
  };
}

/** Bytes taken by the header, the name and the padding after the name. */
export function cpioHeaderLength(header: Pick<CpioHeader, 'name'>): number {
  return pad4(CPIO_HEADER_SIZE + Buffer.byteLength(header.name) + 1);
}

function u32(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new OtaError(
      'OTA_CPIO_FORMAT',
      `cpio field ${field} must be an integer 0..0xffffffff, got ${value}`,
    );
  }
  return value;
}

/** Encodes a header (with name and padding) into `buf` at `offset`, or into a new Buffer. */
export function encodeCpioHeader(header: CpioHeader, buf?: Uint8Array, offset = 0): Buffer {
  const nameBytes = Buffer.from(header.name, 'utf8');
  if (nameBytes.length === 0 || nameBytes.includes(0) || nameBytes.length + 1 > CPIO_MAX_NAME) {
    throw new OtaError(
      'OTA_CPIO_FORMAT',
      `cpio entry name must be 1..${CPIO_MAX_NAME - 1} bytes without NUL`,
    );
  }
  const length = cpioHeaderLength(header);
  const out = buf ? Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength) : Buffer.alloc(length);
  if (offset < 0 || offset + length > out.length) {
    throw new OtaError('OTA_CPIO_FORMAT', 'buffer too small for the cpio header');
  }
  let text = header.format === 'crc' ? CPIO_MAGIC_CRC : CPIO_MAGIC_NEWC;
  for (const f of FIELDS) {
    const v =
      f === 'namesize' ? nameBytes.length + 1 : f === 'check' && header.format === 'newc' ? 0 : header[f];
    text += u32(v, f).toString(16).padStart(8, '0');
  }
  out.write(text, offset, 'latin1');
  nameBytes.copy(out, offset + CPIO_HEADER_SIZE);
  out.fill(0, offset + CPIO_HEADER_SIZE + nameBytes.length, offset + length);
  return offset === 0 && !buf ? out : out.subarray(offset, offset + length);
}

function hexField(buf: Uint8Array, at: number, field: string): number {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const c = buf[at + i]!;
    let d: number;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
    else throw new OtaError('OTA_CPIO_FORMAT', `cpio header field ${field} is not 8 hex digits`);
    v = v * 16 + d;
  }
  return v;
}

/**
 * Decodes one header at `offset`. Throws `OTA_CPIO_TRUNCATED` when `buf` ends before the header,
 * name and padding do, `OTA_CPIO_FORMAT` for anything malformed.
 */
export function decodeCpioHeader(
  buf: Uint8Array,
  offset = 0,
  maxName = CPIO_MAX_NAME,
): { value: CpioHeader; bytes: number } {
  if (offset < 0 || buf.length - offset < CPIO_HEADER_SIZE) {
    throw new OtaError('OTA_CPIO_TRUNCATED', 'the archive ends inside a cpio header');
  }
  const magic = Buffer.from(buf.buffer, buf.byteOffset + offset, 6).toString('latin1');
  let format: CpioFormat;
  if (magic === CPIO_MAGIC_NEWC) format = 'newc';
  else if (magic === CPIO_MAGIC_CRC) format = 'crc';
  else if (magic === '070707') {
    throw new OtaError(
      'OTA_CPIO_FORMAT',
      'old portable (odc) cpio is not supported; build with -H crc or newc',
    );
  } else throw new OtaError('OTA_CPIO_FORMAT', 'not a cpio newc/crc header (bad magic)');
  const f: Record<(typeof FIELDS)[number], number> = Object.create(null);
  FIELDS.forEach((name, i) => {
    f[name] = hexField(buf, offset + 6 + i * 8, name);
  });
  const namesize = f.namesize;
  if (namesize < 2 || namesize > maxName) {
    throw new OtaError('OTA_CPIO_FORMAT', `cpio name size ${namesize} outside 2..${maxName}`);
  }
  const bytes = pad4(CPIO_HEADER_SIZE + namesize);
  if (buf.length - offset < bytes) {
    throw new OtaError('OTA_CPIO_TRUNCATED', 'the archive ends inside a cpio entry name');
  }
  const nameStart = offset + CPIO_HEADER_SIZE;
  if (buf[nameStart + namesize - 1] !== 0) {
    throw new OtaError('OTA_CPIO_FORMAT', 'cpio entry name is not NUL-terminated');
  }
  const nameBytes = buf.subarray(nameStart, nameStart + namesize - 1);
  if (nameBytes.includes(0)) throw new OtaError('OTA_CPIO_FORMAT', 'cpio entry name contains NUL');
  const name = Buffer.from(nameBytes.buffer, nameBytes.byteOffset, nameBytes.length).toString('utf8');
  // For newc, cpio(5) says the check field is zero when written and ignored when read.
  return {
    value: {
      format,
      name,
      fileSize: f.fileSize,
      check: f.check,
      mode: f.mode,
      ino: f.ino,
      uid: f.uid,
      gid: f.gid,
      nlink: f.nlink,
      mtime: f.mtime,
      devMajor: f.devMajor,
      devMinor: f.devMinor,
      rdevMajor: f.rdevMajor,
      rdevMinor: f.rdevMinor,
    },
    bytes,
  };
}

/**
 * Low 32 bits of the sum of the bytes of `buf` added to `seed`: the "crc" of cpio's 070702 format.
 * Sums four bytes at a time in two 16-bit lanes (SWAR) where the buffer is aligned.
 */
export function byteSum(buf: Uint8Array, seed = 0): number {
  let s = seed >>> 0;
  let i = 0;
  const n = buf.length;
  const misalign = (4 - ((buf.byteOffset + i) & 3)) & 3;
  const head = Math.min(misalign, n);
  for (; i < head; i++) s += buf[i]!;
  const words = (n - i) >>> 2;
  if (words > 0) {
    const u = new Uint32Array(buf.buffer, buf.byteOffset + i, words);
    let w = 0;
    while (w < words) {
      // Two accumulators of two 16-bit lanes each: 256 words add at most 256 * 255 = 65280 per
      // lane, so no lane carries into the next. `| 0` keeps the additions in 32-bit integers.
      const end = Math.min(words, w + 256);
      let even = 0;
      let odd = 0;
      for (; w < end; w++) {
        const x = u[w]!;
        even = (even + (x & 0x00ff00ff)) | 0;
        odd = (odd + ((x >>> 8) & 0x00ff00ff)) | 0;
      }
      s = (s + (even & 0xffff) + (even >>> 16) + (odd & 0xffff) + (odd >>> 16)) % 0x100000000;
    }
    i += words * 4;
  }
  for (; i < n; i++) s += buf[i]!;
  return s >>> 0;
}

export interface CpioParserHandlers {
  /** A new entry starts. */
  onEntry?(header: CpioHeader): void;
  /** Part of the current entry's data (a view into the pushed chunk: copy it to keep it). */
  onData?(data: Uint8Array, header: CpioHeader): void;
  /** The current entry's data is complete and, for `crc`, its checksum matched. */
  onEntryEnd?(header: CpioHeader, sum: number): void;
  /** `TRAILER!!!` was read; bytes after it (block padding) are ignored. */
  onTrailer?(): void;
}

export interface CpioParser {
  /** Feeds the next bytes of the archive. Throws an `OtaError` on a malformed archive. */
  push(chunk: Uint8Array): void;
  /** Declares the end of input; throws `OTA_CPIO_TRUNCATED` if the trailer was not reached. */
  end(): void;
  /** Archive bytes consumed so far. */
  readonly offset: number;
  readonly done: boolean;
}

/**
 * Streaming cpio newc/crc reader: constant memory (it only buffers a header, at most
 * `maxName` + 113 bytes), verifies the crc checksum of every entry of a 070702 archive.
 */
export function createCpioParser(
  handlers: CpioParserHandlers,
  { maxName = CPIO_MAX_NAME }: { maxName?: number } = {},
): CpioParser {
  let state: 'header' | 'data' | 'pad' | 'trailer' = 'header';
  let pending: Buffer = Buffer.alloc(0);
  let header: CpioHeader | undefined;
  let remaining = 0;
  let padRemaining = 0;
  let sum = 0;
  let offset = 0;

  const finishEntry = () => {
    const h = header!;
    if (h.format === 'crc' && sum !== h.check) {
      throw new OtaError(
        'OTA_CPIO_CHECKSUM',
        `cpio checksum of ${JSON.stringify(h.name)} is wrong: computed 0x${sum.toString(16)}, header says 0x${h.check.toString(16)}`,
      );
    }
    handlers.onEntryEnd?.(h, sum);
    padRemaining = pad4(h.fileSize) - h.fileSize;
    state = 'pad';
  };

  const parser: CpioParser = {
    get offset() {
      return offset;
    },
    get done() {
      return state === 'trailer';
    },
    push(chunk) {
      let i = 0;
      const n = chunk.length;
      while (i < n) {
        if (state === 'trailer') {
          offset += n - i;
          return;
        }
        if (state === 'pad') {
          const take = Math.min(padRemaining, n - i);
          i += take;
          offset += take;
          padRemaining -= take;
          if (padRemaining === 0) state = 'header';
          continue;
        }
        if (state === 'data') {
          const take = Math.min(remaining, n - i);
          const part = chunk.subarray(i, i + take);
          if (header!.format === 'crc') sum = byteSum(part, sum);
          handlers.onData?.(part, header!);
          i += take;
          offset += take;
          remaining -= take;
          if (remaining === 0) finishEntry();
          continue;
        }
        // header: gather the fixed part, then the name and its padding.
        const need = pending.length < CPIO_HEADER_SIZE ? CPIO_HEADER_SIZE : headerBytes(pending, maxName);
        const take = Math.min(need - pending.length, n - i);
        pending = Buffer.concat([pending, chunk.subarray(i, i + take)]);
        i += take;
        offset += take;
        if (pending.length < need) continue;
        if (need === CPIO_HEADER_SIZE && headerBytes(pending, maxName) > pending.length) continue;
        const { value } = decodeCpioHeader(pending, 0, maxName);
        pending = Buffer.alloc(0);
        if (value.name === CPIO_TRAILER) {
          state = 'trailer';
          handlers.onTrailer?.();
          continue;
        }
        header = value;
        sum = 0;
        handlers.onEntry?.(value);
        remaining = value.fileSize;
        if (remaining === 0) finishEntry();
        else state = 'data';
      }
    },
    end() {
      if (state !== 'trailer') {
        throw new OtaError('OTA_CPIO_TRUNCATED', 'the archive ended before the cpio trailer');
      }
    },
  };
  return parser;
}

/** Full header length once the 110 fixed bytes are known (validates magic and namesize). */
function headerBytes(fixed: Buffer, maxName: number): number {
  // Only the magic and namesize are needed here; decodeCpioHeader validates the rest.
  const magic = fixed.toString('latin1', 0, 6);
  if (magic !== CPIO_MAGIC_NEWC && magic !== CPIO_MAGIC_CRC) {
    decodeCpioHeader(fixed, 0, maxName); // throws the right error
  }
  const namesize = hexField(fixed, 6 + 11 * 8, 'namesize');
  if (namesize < 2 || namesize > maxName) {
    throw new OtaError('OTA_CPIO_FORMAT', `cpio name size ${namesize} outside 2..${maxName}`);
  }
  return pad4(CPIO_HEADER_SIZE + namesize);
}
