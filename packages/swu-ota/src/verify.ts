import crypto, { type Hash } from 'node:crypto';
import fsCb from 'node:fs';
import os from 'node:os';
import { verifyCmsSignature } from './cms.js';
import { type CpioFormat, createCpioParser } from './cpio.js';
import { OtaError } from './errors.js';
import { createMd5, createMd5Worker, type Md5Stream } from './md5.js';
import type { CommandRunner } from './runner.js';
import { parseSwDescription, type SwDescription, type SwuArtifact } from './sw-description.js';

export const SW_DESCRIPTION = 'sw-description';
export const SW_DESCRIPTION_SIG = 'sw-description.sig';

export interface VerifySwuOptions {
  /** Expected MD5 of the whole file (the descriptor's `file_md5`), 32 hex digits. */
  md5?: string;
  /** Trusted certificate (chain) PEM file: the CMS signature of sw-description must verify against it. */
  certificate?: string | undefined;
  /** Hardware revision (as in `swupdate -H board:<revision>`) that `hardware-compatibility` must list. */
  hardwareRevision?: string | undefined;
  /**
   * Every artefact must carry a sha256 (default true). False accepts artefacts without one, only
   * when no `certificate` is given: a signature covers the images only through their sha256, so a
   * signed package always needs them (SWUpdate refuses a signed image without a hash as well).
   */
  requireHashes?: boolean | undefined;
  /**
   * Hash MD5 in a worker thread beside the cpio/sha256 work. Default: when the process may run on
   * more than one core (`os.availableParallelism()`, which honours the CPU affinity). On one core
   * the worker only adds thread switches: inline hashing then takes less CPU and no more time.
   */
  md5Worker?: boolean;
  /** Largest sw-description accepted (default 1 MiB). */
  maxDescriptionSize?: number;
  /** Runner for `openssl cms -verify` (default: child_process). */
  run?: CommandRunner | undefined;
  openssl?: string | undefined;
  tmpDir?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface SwuEntry {
  name: string;
  size: number;
  /** The cpio crc (byte sum) of the data; 0 in a newc archive. */
  checksum: number;
}

export interface VerifiedArtifact extends SwuArtifact {
  size: number;
}

export interface SwuReport {
  format: CpioFormat;
  /** Archive size in bytes up to and including the trailer (block padding after it excluded). */
  size: number;
  entries: SwuEntry[];
  /** Artefacts named by sw-description, each found once and its sha256 checked. */
  images: VerifiedArtifact[];
  version: string | undefined;
  description: SwDescription;
  signed: boolean;
  /** True when a certificate was given and the CMS signature verified against it. */
  signatureVerified: boolean;
  /** MD5 of the whole file, when it was asked for. */
  md5: string | undefined;
}

export type SwuSource = string | AsyncIterable<Uint8Array>;

const MAX_SIG = 64 * 1024;
const CHUNK = 512 * 1024;
const READ = 128 * 1024;

/**
 * Reads a file into pooled buffers. The reads are synchronous, 128 KiB each: from the page cache
 * that costs about half the CPU of thread-pool reads and keeps the copy on this thread's cache, and
 * the generator yields to the event loop after every 512 KiB so timers and I/O still run.
 */
async function* readFile(file: string, pool: ArrayBuffer[], signal: AbortSignal | undefined) {
  const fd = await new Promise<number>((resolve, reject) =>
    fsCb.open(file, 'r', (error, fd) => (error ? reject(error) : resolve(fd))),
  );
  try {
    for (;;) {
      signal?.throwIfAborted();
      const buf = new Uint8Array(pool.pop() ?? new ArrayBuffer(CHUNK));
      let filled = 0;
      while (filled < CHUNK) {
        const bytesRead = fsCb.readSync(fd, buf, filled, Math.min(READ, CHUNK - filled), null);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled === 0) return;
      yield buf.subarray(0, filled);
      if (filled < CHUNK) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    fsCb.closeSync(fd);
  }
}

export async function verifySwu(source: SwuSource, options: VerifySwuOptions = {}): Promise<SwuReport> {
  const expectedMd5 = options.md5?.toLowerCase();
  if (expectedMd5 !== undefined && !/^[0-9a-f]{32}$/.test(expectedMd5)) {
    throw new OtaError('OTA_OPTIONS', 'md5 must be 32 hex digits');
  }
  const maxDescription = options.maxDescriptionSize ?? 1024 * 1024;
  const requireHashes = options.requireHashes !== false || options.certificate !== undefined;
  const ownStream = typeof source === 'string';
  // Reading a path uses a few reusable 1 MiB buffers that travel to the MD5 worker and back.
  const pool: ArrayBuffer[] = [];
  const input: AsyncIterable<Uint8Array> = ownStream ? readFile(source, pool, options.signal) : source;
  const giveBack = (ab: ArrayBuffer) => {
    if (ab.byteLength === CHUNK && pool.length < 6) pool.push(ab);
  };

  const md5InWorker = options.md5Worker ?? os.availableParallelism() > 1;
  const md5: Md5Stream | undefined =
    expectedMd5 === undefined ? undefined : md5InWorker ? createMd5Worker(giveBack) : createMd5(giveBack);

  const entries: SwuEntry[] = [];
  const images: VerifiedArtifact[] = [];
  let format: CpioFormat | undefined;
  let descText: Buffer | undefined;
  let descParts: Buffer[] = [];
  let sigParts: Buffer[] = [];
  let signature: Buffer | undefined;
  let description: SwDescription | undefined;
  let byName = new Map<string, SwuArtifact[]>();
  const seen = new Set<string>();
  let sigCheck: Promise<void> | undefined;
  let archiveSize = 0;
  let current: { hash: Hash | undefined; collect: Buffer[] | undefined; limit: number } | undefined;

  const startDescription = () => {
    // The description is complete once another entry (or the trailer) starts.
    if (description || !descText) return;
    description = parseSwDescription(descText.toString('utf8'));
    const d = description;
    if (requireHashes) {
      const unhashed = d.artifacts.find((a) => a.sha256 === undefined);
      if (unhashed) {
        throw new OtaError(
          'OTA_SWU_HASH_MISSING',
          `hash not set for ${unhashed.filename} (${unhashed.location})`,
        );
      }
    }
    if (
      options.hardwareRevision !== undefined &&
      !d.hardwareCompatibility.includes(options.hardwareRevision)
    ) {
      throw new OtaError(
        'OTA_SWU_HARDWARE',
        `package is for hardware [${d.hardwareCompatibility.join(', ')}], not ${options.hardwareRevision}`,
      );
    }
    byName = new Map();
    for (const a of d.artifacts) byName.set(a.filename, [...(byName.get(a.filename) ?? []), a]);
    if (options.certificate !== undefined) {
      if (!signature) {
        throw new OtaError(
          'OTA_SWU_UNSIGNED',
          'a certificate is configured but the package has no sw-description.sig',
        );
      }
      sigCheck = verifyCmsSignature(descText, signature, options.certificate, {
        run: options.run,
        openssl: options.openssl,
        tmpDir: options.tmpDir,
      });
      sigCheck.catch(() => {}); // awaited below; avoid an unhandled rejection meanwhile
    }
  };

  const parser = createCpioParser({
    onEntry(h) {
      format ??= h.format;
      const index = entries.length;
      entries.push({ name: h.name, size: h.fileSize, checksum: h.check });
      if (index === 0) {
        if (h.name !== SW_DESCRIPTION) {
          throw new OtaError(
            'OTA_SWU_LAYOUT',
            `the first entry is ${JSON.stringify(h.name)}, not sw-description`,
          );
        }
        if (h.fileSize > maxDescription) {
          throw new OtaError(
            'OTA_SWU_TOO_LARGE',
            `sw-description is ${h.fileSize} bytes (limit ${maxDescription})`,
          );
        }
        current = { hash: undefined, collect: descParts, limit: h.fileSize };
        return;
      }
      if (index === 1 && h.name === SW_DESCRIPTION_SIG) {
        if (h.fileSize > MAX_SIG) throw new OtaError('OTA_SWU_TOO_LARGE', 'sw-description.sig is too large');
        current = { hash: undefined, collect: sigParts, limit: h.fileSize };
        return;
      }
      if (h.name === SW_DESCRIPTION || h.name === SW_DESCRIPTION_SIG) {
        throw new OtaError('OTA_SWU_LAYOUT', `${h.name} appears again at entry ${index}`);
      }
      startDescription();
      const wanted = byName.get(h.name);
      current = {
        hash: wanted ? crypto.createHash('sha256') : undefined,
        collect: undefined,
        limit: 0,
      };
    },
    onData(data) {
      if (current?.hash) current.hash.update(data);
      else if (current?.collect) current.collect.push(Buffer.from(data));
    },
    onEntryEnd(h) {
      const c = current!;
      if (entries.length === 1) {
        descText = Buffer.concat(descParts);
        descParts = [];
      } else if (c.collect === sigParts) {
        signature = Buffer.concat(sigParts);
        sigParts = [];
      } else if (c.hash) {
        const got = c.hash.digest('hex');
        for (const a of byName.get(h.name) ?? []) {
          if (a.sha256 !== undefined && a.sha256 !== got) {
            throw new OtaError(
              'OTA_SWU_HASH_MISMATCH',
              `sha256 of ${h.name} is ${got}, sw-description (${a.location}) says ${a.sha256}`,
            );
          }
        }
        if (!seen.has(h.name)) {
          seen.add(h.name);
          for (const a of byName.get(h.name) ?? []) images.push({ ...a, size: h.fileSize });
        }
      }
      current = undefined;
    },
    onTrailer() {
      archiveSize = parser.offset;
      if (entries.length === 0) throw new OtaError('OTA_SWU_LAYOUT', 'the archive is empty');
      startDescription();
    },
  });

  let failure: unknown;
  let md5Result: string | undefined;
  try {
    for await (const chunk of input) {
      if (failure === undefined) {
        try {
          parser.push(chunk);
        } catch (error) {
          failure = error;
          if (!md5) break;
        }
      }
      if (md5) {
        const wait = md5.update(chunk, ownStream);
        if (wait) await wait;
      } else if (ownStream) giveBack(chunk.buffer as ArrayBuffer);
    }
    if (failure === undefined) parser.end();
  } catch (error) {
    failure ??= error;
  }

  try {
    if (md5 && (failure === undefined || !(failure instanceof Error && failure.name === 'AbortError'))) {
      let got: string | undefined;
      try {
        got = await md5.digest();
      } catch (error) {
        failure ??= error;
      }
      if (got !== undefined && got !== expectedMd5) {
        // A corrupted download explains every later symptom: report it first.
        throw new OtaError('OTA_MD5_MISMATCH', `MD5 of the package is ${got}, expected ${expectedMd5}`, {
          cause: failure,
        });
      }
      if (failure === undefined && got !== undefined) md5Result = got;
    }
    if (sigCheck) await sigCheck;
    if (failure !== undefined) throw toOtaError(failure);
  } finally {
    md5?.close();
  }

  if (!description) throw new OtaError('OTA_SWU_LAYOUT', 'the archive has no sw-description');
  const missing = description.artifacts.find((a) => !seen.has(a.filename));
  if (missing) {
    throw new OtaError(
      'OTA_SWU_MISSING_ARTIFACT',
      `${missing.filename} (${missing.location}) is not in the archive`,
    );
  }
  return {
    format: format!,
    size: archiveSize,
    entries,
    images,
    version: description.version,
    description,
    signed: signature !== undefined,
    signatureVerified: sigCheck !== undefined,
    md5: md5Result,
  };
}

function toOtaError(e: unknown): OtaError {
  if (e instanceof OtaError) return e;
  const err = e as NodeJS.ErrnoException;
  if (err?.name === 'AbortError') return new OtaError('OTA_ABORTED', 'verification aborted', { cause: e });
  return new OtaError('OTA_IO', `cannot read the package: ${err?.message ?? String(e)}`, { cause: e });
}
