import crypto from 'node:crypto';
import path from 'node:path';
import { systemClock, writeFileAtomic } from '@waved/internal';
import type { UpdateDescriptor } from './descriptor.js';
import {
  type CompletePackage,
  createDownloader,
  type Downloader,
  type DownloaderOptions,
  type DownloadResult,
} from './download.js';
import { OTA_REFUSALS, OtaError, type OtaErrorCode, type OtaRefusalCategory, refusalOf } from './errors.js';
import { realFs, removeLeftTemps } from './fs-port.js';

// The device package path with a memory: a package that was refused (MD5, hash,
// signature, policy) is not downloaded again until the descriptor changes, and a package that
// was declined or held back by a low battery stays on disk to be installed later.

export interface RefusalRecord {
  /** The package's MD5 (`file_md5`). */
  md5: string;
  /** The descriptor the refusal holds for (its version, MD5, size and downgrade flag, hashed). */
  fingerprint: string;
  version: string;
  /** The reason, for a screen and telemetry. */
  code: OtaErrorCode;
  category: OtaRefusalCategory;
  /** When (ms since the epoch, from the clock). */
  at: number;
}

export interface PackageStoreOptions extends DownloaderOptions {
  /** Where refusals are kept (default `refused.json` beside the package), mode 0600. */
  refusalsFile?: string;
  /** Refusals kept; the oldest is forgotten first (default 32). */
  maxRefusals?: number;
}

export interface PackageStore {
  /** The package path (`/mnt/udisk/misc/data/<system_dir>/software.swu` by default). */
  readonly path: string;
  readonly downloader: Downloader;
  /**
   * The complete, MD5-checked package for this descriptor already on disk (e.g. declined by the
   * user or held back by the battery): install it without a new download. The installer checks
   * hashes and signature again before installing.
   */
  find(descriptor: UpdateDescriptor): Promise<CompletePackage | undefined>;
  /** The refusal recorded for this package under this descriptor, if any. */
  refusal(descriptor: UpdateDescriptor): Promise<RefusalRecord | undefined>;
  /**
   * Records `error` when it refuses the package (see `refusalOf`) and removes the package from
   * disk; resolves the record, or undefined when `error` is no refusal (network, disk, consent,
   * battery: the package may install later and is kept).
   */
  refuse(descriptor: UpdateDescriptor, error: unknown): Promise<RefusalRecord | undefined>;
  /** Forgets the refusals of one MD5, or all of them (after the device's OTA policy changed). */
  forget(md5?: string): Promise<void>;
  /**
   * The package for `descriptor`: the one on disk when complete, else downloaded (resumed when a
   * part is there, whatever the URL's query string). Rejects with `OTA_PACKAGE_REFUSED` when the
   * same package was refused under the same descriptor; a download refused for its MD5 or size is
   * recorded before the error is rethrown.
   */
  fetch(descriptor: UpdateDescriptor, options?: { signal?: AbortSignal }): Promise<DownloadResult>;
  /** Removes the package, its record and any partial download (e.g. once installed). */
  remove(): Promise<void>;
}

/** What "the descriptor changed" means for a refusal: not the URL (signed links change every time), not the notes. */
function fingerprintOf(d: UpdateDescriptor): string {
  const key = JSON.stringify([d.version, d.file_md5, d.file_size ?? null, d.allow_downgrade === true]);
  return crypto.createHash('sha256').update(key).digest('hex').slice(0, 32);
}

function isRecord(r: unknown): r is RefusalRecord {
  const x = r as RefusalRecord;
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof x.md5 === 'string' &&
    /^[0-9a-f]{32}$/.test(x.md5) &&
    typeof x.fingerprint === 'string' &&
    typeof x.version === 'string' &&
    typeof x.code === 'string' &&
    OTA_REFUSALS[x.code] === x.category &&
    Number.isFinite(x.at)
  );
}

export function createPackageStore(options: PackageStoreOptions): PackageStore {
  const downloader = createDownloader(options);
  const fs = options.fs ?? realFs;
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? {};
  const file = options.refusalsFile ?? path.join(path.dirname(downloader.dest), 'refused.json');
  const max = options.maxRefusals ?? 32;
  if (!Number.isSafeInteger(max) || max < 1)
    throw new OtaError('OTA_OPTIONS', 'maxRefusals must be at least 1');

  // once, before the list is first read: the temp file of a write a power cut interrupted
  let cleaned: Promise<unknown> | undefined;

  async function load(): Promise<RefusalRecord[]> {
    cleaned ??= removeLeftTemps(file, fs).catch(() => 0);
    await cleaned;
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed = JSON.parse(text) as { v?: unknown; refusals?: unknown };
      if (parsed?.v === 1 && Array.isArray(parsed.refusals))
        return parsed.refusals.filter(isRecord).slice(-max);
    } catch {
      // fall through
    }
    log.warn?.(`${file} is not a refusal list; starting a new one`, { file });
    return [];
  }

  // Changes are applied one after the other, so two refusals at once cannot lose one.
  let queue: Promise<unknown> = Promise.resolve();
  function update(change: (list: RefusalRecord[]) => RefusalRecord[]): Promise<void> {
    const next = queue.then(async () => {
      const list = change(await load()).slice(-max);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, JSON.stringify({ v: 1, refusals: list }), { fs });
    });
    queue = next.catch(() => {});
    return next;
  }

  async function refusal(d: UpdateDescriptor): Promise<RefusalRecord | undefined> {
    await queue;
    const fingerprint = fingerprintOf(d);
    return (await load()).find((r) => r.md5 === d.file_md5 && r.fingerprint === fingerprint);
  }

  async function refuse(d: UpdateDescriptor, error: unknown): Promise<RefusalRecord | undefined> {
    const why = refusalOf(error);
    if (!why) return undefined;
    const record: RefusalRecord = {
      md5: d.file_md5,
      fingerprint: fingerprintOf(d),
      version: d.version,
      code: why.code,
      category: why.category,
      at: clock.now(),
    };
    await update((list) => [
      ...list.filter((r) => !(r.md5 === record.md5 && r.fingerprint === record.fingerprint)),
      record,
    ]);
    const found = await downloader.findComplete(d.file_md5).catch(() => undefined);
    if (found) await downloader.remove();
    log.info?.(
      `package ${d.version} refused (${why.code}); it is not downloaded again until its descriptor changes`,
      {
        version: d.version,
        md5: d.file_md5,
        code: why.code,
      },
    );
    return record;
  }

  return {
    path: downloader.dest,
    downloader,
    find: (d) => downloader.findComplete(d.file_md5, d.file_size),
    refusal,
    refuse,
    forget: (md5) =>
      update((list) => (md5 === undefined ? [] : list.filter((r) => r.md5 !== md5.toLowerCase()))),
    async fetch(d, { signal } = {}) {
      const before = await refusal(d);
      if (before) {
        throw new OtaError(
          'OTA_PACKAGE_REFUSED',
          `package ${d.version} (MD5 ${d.file_md5}) was refused before (${before.code}); it is not downloaded again until its descriptor changes`,
        );
      }
      try {
        return await downloader.download(d.download_url, {
          md5: d.file_md5,
          ...(d.file_size !== undefined ? { size: d.file_size } : {}),
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        await refuse(d, error);
        throw error;
      }
    },
    remove: () => downloader.remove(),
  };
}
