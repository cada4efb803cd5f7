import crypto from 'node:crypto';
import nodeFs from 'node:fs/promises';
import path from 'node:path';
import { syncDir } from '@waved/internal';
import { type CmsSigner, signCms } from './cms.js';
import { byteSum, CPIO_TRAILER, type CpioFormat, cpioHeader, encodeCpioHeader, pad4 } from './cpio.js';
import { OtaError } from './errors.js';
import { formatLibconfig, type LibconfigGroup, type LibconfigValue } from './libconfig.js';
import type { CommandRunner } from './runner.js';
import { ARTIFACT_LISTS } from './sw-description.js';
import { SW_DESCRIPTION, SW_DESCRIPTION_SIG } from './verify.js';

/** One archive member: from a file on disk or from bytes in memory. */
export interface CpioSource {
  name: string;
  path?: string;
  data?: Uint8Array | string;
}

export interface WriteCpioOptions {
  format?: CpioFormat | undefined;
  /** Pad the archive to a multiple of 512 bytes after the trailer, as GNU cpio does (default true). */
  blockPad?: boolean;
  /** Override the checksum written for an entry (to make broken archives in tests). */
  checksumFor?: (name: string, sum: number) => number;
}

interface Measured {
  source: CpioSource;
  size: number;
  sum: number;
  sha256: string;
}

const CHUNK = 1024 * 1024;

async function measure(source: CpioSource): Promise<Measured> {
  const sha = crypto.createHash('sha256');
  if (source.data !== undefined) {
    const bytes = typeof source.data === 'string' ? Buffer.from(source.data) : source.data;
    sha.update(bytes);
    return { source, size: bytes.length, sum: byteSum(bytes), sha256: sha.digest('hex') };
  }
  if (source.path === undefined) throw new OtaError('OTA_OPTIONS', `${source.name}: give path or data`);
  const h = await nodeFs.open(source.path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let size = 0;
    let sum = 0;
    for (;;) {
      const { bytesRead } = await h.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const part = buf.subarray(0, bytesRead);
      sha.update(part);
      sum = byteSum(part, sum);
      size += bytesRead;
    }
    return { source, size, sum, sha256: sha.digest('hex') };
  } finally {
    await h.close();
  }
}

/**
 * Writes a cpio newc/crc archive of `sources` in the given order to `output`, atomically (temp file,
 * fsync, rename, directory fsync). Returns the archive size and each member's sha256.
 */
export async function writeCpio(
  output: string,
  sources: readonly CpioSource[],
  options: WriteCpioOptions = {},
): Promise<{ size: number; sha256: Record<string, string> }> {
  const format = options.format ?? 'crc';
  const measured: Measured[] = [];
  for (const s of sources) measured.push(await measure(s));
  const tmp = `${output}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  const out = await nodeFs.open(tmp, 'wx', 0o644);
  let offset = 0;
  const put = async (bytes: Uint8Array) => {
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await out.write(bytes, done, bytes.length - done);
      done += bytesWritten;
    }
    offset += bytes.length;
  };
  try {
    const zeros = Buffer.alloc(512);
    let ino = 1;
    for (const m of measured) {
      const check = format === 'crc' ? (options.checksumFor?.(m.source.name, m.sum) ?? m.sum) : 0;
      await put(encodeCpioHeader(cpioHeader(m.source.name, m.size, { format, check, ino: ino++ })));
      if (m.source.data !== undefined) {
        await put(typeof m.source.data === 'string' ? Buffer.from(m.source.data) : m.source.data);
      } else {
        const h = await nodeFs.open(m.source.path!, 'r');
        try {
          const buf = Buffer.allocUnsafe(CHUNK);
          let copied = 0;
          for (;;) {
            const { bytesRead } = await h.read(buf, 0, CHUNK, null);
            if (bytesRead === 0) break;
            copied += bytesRead;
            await put(buf.subarray(0, bytesRead));
          }
          if (copied !== m.size) {
            throw new OtaError('OTA_IO', `${m.source.path} changed size while the archive was written`);
          }
        } finally {
          await h.close();
        }
      }
      await put(zeros.subarray(0, pad4(m.size) - m.size));
    }
    await put(encodeCpioHeader(cpioHeader(CPIO_TRAILER, 0, { format })));
    if (options.blockPad !== false && offset % 512 !== 0) await put(zeros.subarray(0, 512 - (offset % 512)));
    await out.sync();
    await out.close();
  } catch (error) {
    await out.close().catch(() => {});
    await nodeFs.rm(tmp, { force: true });
    throw error;
  }
  await nodeFs.rename(tmp, output);
  await syncDir(path.dirname(output));
  return { size: offset, sha256: Object.fromEntries(measured.map((m) => [m.source.name, m.sha256])) };
}

export interface BuildSwuOptions {
  /**
   * sw-description as libconfig text (used as is), or as values (`{ software: { ... } }`): then
   * every artefact with a `filename` among `files` and no `sha256` gets the file's sha256.
   */
  description: string | LibconfigGroup;
  /** Artefacts, written after sw-description (and its signature) in this order. */
  files: readonly CpioSource[];
  /** Where the .swu is written (atomically). */
  output: string;
  /** Sign sw-description with CMS through openssl. */
  signer?: CmsSigner;
  format?: CpioFormat;
  run?: CommandRunner;
  openssl?: string;
  tmpDir?: string;
}

export interface BuildSwuResult {
  output: string;
  size: number;
  /** The sw-description text written. */
  description: string;
  sha256: Record<string, string>;
}

function fillHashes(value: LibconfigValue, hashes: Map<string, string>): LibconfigValue {
  if (Array.isArray(value)) return value.map((v) => fillHashes(v, hashes));
  if (typeof value !== 'object' || value === null) return value;
  const out: LibconfigGroup = {};
  for (const [k, v] of Object.entries(value)) {
    if ((ARTIFACT_LISTS as readonly string[]).includes(k) && Array.isArray(v)) {
      out[k] = v.map((item) => {
        if (typeof item !== 'object' || Array.isArray(item) || typeof item.filename !== 'string') {
          return fillHashes(item, hashes);
        }
        const sha = hashes.get(item.filename);
        return item.sha256 === undefined && sha ? { ...item, sha256: sha } : item;
      });
    } else out[k] = fillHashes(v, hashes);
  }
  return out;
}

/** Builds a .swu: sw-description, its CMS signature when a signer is given, then the files. */
export async function buildSwu(options: BuildSwuOptions): Promise<BuildSwuResult> {
  let text: string;
  const measured = new Map<string, string>();
  if (typeof options.description === 'string') {
    text = options.description;
  } else {
    for (const f of options.files) measured.set(f.name, (await measure(f)).sha256);
    text = formatLibconfig(fillHashes(options.description, measured) as LibconfigGroup);
  }
  for (const f of options.files) {
    if (f.name === SW_DESCRIPTION || f.name === SW_DESCRIPTION_SIG || f.name === CPIO_TRAILER) {
      throw new OtaError('OTA_OPTIONS', `${f.name} is a reserved entry name`);
    }
  }
  const sources: CpioSource[] = [{ name: SW_DESCRIPTION, data: text }];
  if (options.signer) {
    const sig = await signCms(Buffer.from(text), options.signer, {
      run: options.run,
      openssl: options.openssl,
      tmpDir: options.tmpDir,
    });
    sources.push({ name: SW_DESCRIPTION_SIG, data: sig });
  }
  sources.push(...options.files);
  const { size, sha256 } = await writeCpio(options.output, sources, { format: options.format });
  return { output: options.output, size, description: text, sha256 };
}
