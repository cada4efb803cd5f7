import crypto from 'node:crypto';
import type http from 'node:http';
import path from 'node:path';
import { type Clock, type Logger, sleep, syncDir, systemClock, writeFileAtomic } from '@waved/internal';
import { OtaError } from './errors.js';
import { type FsPort, realFs, removeLeftTemps } from './fs-port.js';

// The package is fetched with resume to the package path, a progress file
// `/tmp/curl_progress_<name>` is kept up to date and `done` is written to `/tmp/swu.done` at the end.

/** Where the device keeps packages: `/mnt/udisk/misc/data`. */
export const PACKAGE_BASE_DIR = '/mnt/udisk/misc/data';
/** The package's file name in its directory. */
export const PACKAGE_FILE = 'software.swu';
/** Largest package downloaded when neither the descriptor nor `maxBytes` says otherwise (2 GiB). */
export const DEFAULT_MAX_PACKAGE_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * The device's package path, `/mnt/udisk/misc/data/<system_dir>/software.swu`; `baseDir` replaces
 * `/mnt/udisk/misc/data` (a test directory, another mount point).
 */
export function packagePath(systemDir: string, options: { baseDir?: string } = {}): string {
  if (
    typeof systemDir !== 'string' ||
    systemDir === '' ||
    systemDir.includes('/') ||
    systemDir.includes('\0') ||
    systemDir === '.' ||
    systemDir === '..'
  ) {
    throw new OtaError('OTA_OPTIONS', 'systemDir must be a single directory name');
  }
  return path.join(options.baseDir ?? PACKAGE_BASE_DIR, systemDir, PACKAGE_FILE);
}

export const DONE_FILE = '/tmp/swu.done';

/** `/tmp/curl_progress_<name>`. */
export function progressFilePath(name: string, dir = '/tmp'): string {
  if (!/^[A-Za-z0-9._-]+$/.test(name))
    throw new OtaError('OTA_OPTIONS', 'progress name must be [A-Za-z0-9._-]+');
  return path.join(dir, `curl_progress_${name}`);
}

/** Width of the `#` bar in the progress file (curl's --progress-bar uses the terminal width). */
export const PROGRESS_BAR_WIDTH = 72;

/**
 * One line in the shape of curl's `--progress-bar`, which the vendor UI parses: a bar of `#`
 * padded with spaces to 72 columns, a space, the percentage with one decimal, `%`, newline.
 * Unknown size gives an empty bar and `0.0%`.
 */
export function formatProgressLine(received: number, total: number | undefined): string {
  const ratio = total && total > 0 ? Math.min(1, received / total) : 0;
  const filled = Math.floor(ratio * PROGRESS_BAR_WIDTH);
  const pct = (Math.floor(ratio * 1000) / 10).toFixed(1);
  return `${'#'.repeat(filled)}${' '.repeat(PROGRESS_BAR_WIDTH - filled)} ${pct.padStart(5)}%\n`;
}

export interface DownloadProgress {
  /** Bytes of the package on disk so far. */
  received: number;
  /** Package size when the server told it. */
  total: number | undefined;
  /** 0..100, when `total` is known. */
  percent: number | undefined;
  /** Where the current request started (0 for a fresh download). */
  resumedFrom: number;
  /** Average over the current request. */
  bytesPerSecond: number;
}

/**
 * @deprecated The clock of 0.1, `{ now(), sleep(ms) }`, still accepted by `createDownloader`; pass a
 * `Clock` (`{ now(), setTimeout(fn, ms), clearTimeout(handle) }`) instead. This shape goes in 1.0.
 */
export interface SleepClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface DownloaderOptions {
  /**
   * Final package path. Default: `packagePath(systemDir, { baseDir })`, the device's
   * `/mnt/udisk/misc/data/<system_dir>/software.swu`. Work files sit beside it.
   */
  dest?: string;
  /** The device's `system_dir` (from its profile), for the default `dest`. */
  systemDir?: string;
  /** Replaces `/mnt/udisk/misc/data` in the default `dest`. */
  baseDir?: string;
  /** Suffix of the progress file (default: the package's base name without extension, `software`). */
  name?: string;
  /** Progress file path, or false for none (default `/tmp/curl_progress_<name>`). */
  progressFile?: string | false;
  /** Done file path, or false for none (default `/tmp/swu.done`). */
  doneFile?: string | false;
  /** Extra trusted CA certificates (PEM) for the package server. */
  ca?: string | Buffer | Array<string | Buffer> | undefined;
  /**
   * Skip TLS certificate verification, as the vendor's curl `-k` does. Off by default; every
   * download made with it logs a warning.
   */
  insecure?: boolean;
  headers?: Record<string, string>;
  /**
   * Largest package accepted when the download has no `size` (default 2 GiB): a bigger
   * `Content-Length` is refused before any byte is written, and a body without one is cut there.
   */
  maxBytes?: number;
  /** Automatic resumes within one `download()` after a cut connection (default 5). */
  retries?: number;
  /** First retry delay, doubled each time up to 30 s (default 1000 ms). */
  retryDelayMs?: number;
  /** A connection silent for this long is cut (default 100 s). */
  idleTimeoutMs?: number;
  /** Bytes between durable checkpoints of the partial file (default 4 MiB). */
  checkpointBytes?: number;
  /** Free space to leave on the package's filesystem beyond the package itself (default 1 MiB). */
  reserveBytes?: number;
  /** Minimum time between progress file writes and events (default 200 ms). */
  progressIntervalMs?: number;
  onProgress?: ((progress: DownloadProgress) => void) | undefined;
  /** Any `{ debug?, info?, warn?, error? }` logger (console, pino, consola). */
  logger?: Logger;
  fs?: FsPort;
  /** Time and the retry backoff (default: `systemClock` with timers that keep the process alive); tests pass a manual clock. */
  clock?: Clock | SleepClock;
}

export interface DownloadOptions {
  /**
   * Expected MD5 (`file_md5`). A mismatch removes the download and throws `OTA_MD5_MISMATCH`.
   * With it, a partial download is resumed whatever the URL's query string (signed CDN links),
   * and a complete package already at `dest` is used without a request.
   */
  md5?: string;
  /** Expected size in bytes (the descriptor's `file_size`): the download stops beyond it. */
  size?: number;
  signal?: AbortSignal;
}

export interface DownloadResult {
  path: string;
  size: number;
  md5: string;
  /** Bytes that were already on disk from an earlier attempt or run and were kept. */
  resumedBytes: number;
  /** Times the download started over from zero (200 instead of 206, validator changed). */
  restarts: number;
  /** Requests made. */
  requests: number;
  /** True when the complete package was already at `dest` (no request was made). */
  cached: boolean;
}

/** A complete package at `dest` whose MD5 was checked. */
export interface CompletePackage {
  path: string;
  size: number;
  md5: string;
}

export interface Downloader {
  download(url: string, options?: DownloadOptions): Promise<DownloadResult>;
  /**
   * The complete, MD5-checked package at `dest` when it is the one with this MD5 (and size), e.g.
   * one the user declined or a low battery held back, so it can be installed without a new
   * download. Cheap when `dest` was written by this downloader; otherwise the file is hashed once.
   */
  findComplete(md5: string, size?: number): Promise<CompletePackage | undefined>;
  /** Removes the partial download and its state. */
  discard(): Promise<void>;
  /** Removes the package at `dest`, its record, and any partial download. */
  remove(): Promise<void>;
  /** The package path. */
  readonly dest: string;
  /** Paths of the work files (partial data and persisted state). */
  readonly partPath: string;
  readonly statePath: string;
}

/** Persisted beside the partial file; replaced atomically. */
interface DownloadState {
  v: 2;
  /**
   * The expected MD5 the bytes belong to, when the caller gave it: the partial download is then
   * resumed whatever the URL (signed CDN links change their query string between tries).
   */
  md5: string | undefined;
  /** The URL of the last request (0600 like the rest: it may carry a signed query). */
  url: string;
  /** Strong ETag or Last-Modified of the representation being downloaded. */
  validator: string | undefined;
  total: number | undefined;
  /** Bytes of the partial file known to be on stable storage. */
  bytes: number;
}

/** Written beside a complete package: what it is, so it can be found again without hashing. */
interface PackageRecord {
  v: 1;
  md5: string;
  size: number;
  mtimeMs: number;
}

interface Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: http.IncomingMessage;
}

/** Marks a failed write to the partial file, so that it is not mistaken for a network failure. */
class DiskError extends Error {
  constructor(cause: unknown) {
    super('write to the partial download failed', { cause });
  }
}

function isRetryable(error: unknown): boolean {
  return error instanceof OtaError && error.code === 'OTA_DOWNLOAD_INTERRUPTED';
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_SIGNATURE_FAILURE',
]);

function networkError(error: unknown, what: string): OtaError {
  if (error instanceof OtaError) return error;
  const e = error as NodeJS.ErrnoException;
  if (e?.name === 'AbortError') return new OtaError('OTA_ABORTED', 'download aborted', { cause: error });
  if (e?.code && (TLS_CODES.has(e.code) || e.code.startsWith('ERR_SSL') || e.code.startsWith('ERR_TLS'))) {
    return new OtaError('OTA_TLS', `TLS check of the package server failed (${e.code})`, { cause: error });
  }
  return new OtaError('OTA_DOWNLOAD_INTERRUPTED', `${what}: ${e?.message ?? String(error)}`, {
    cause: error,
  });
}

/** URL without credentials or query (which may carry tokens), for messages and logs. */
function safeUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

interface Want {
  md5: string | undefined;
  size: number | undefined;
  /** Most bytes accepted: `size` when known, else `maxBytes`. */
  limit: number;
}

interface Stats {
  restarts: number;
  requests: number;
  resumedBytes: number | undefined;
  /** Bytes were appended to a partial file (206 or 416): a mismatch may come from the splice. */
  spliced: boolean;
  /** The one fresh download after a spliced MD5 mismatch was already made. */
  freshRetry: boolean;
}

function resolveDest(options: DownloaderOptions): string {
  if (options.dest !== undefined) {
    if (typeof options.dest !== 'string' || options.dest === '')
      throw new OtaError('OTA_OPTIONS', 'dest must be a path');
    return options.dest;
  }
  if (options.systemDir === undefined) {
    throw new OtaError(
      'OTA_OPTIONS',
      'give dest, or systemDir for the spec path /mnt/udisk/misc/data/<system_dir>/software.swu',
    );
  }
  return packagePath(options.systemDir, options.baseDir === undefined ? {} : { baseDir: options.baseDir });
}

/**
 * systemClock, but its timers keep the process alive: the wait before a resume is work in
 * progress, and a script whose only pending work is that wait must not exit half-way
 * (systemClock's timers are unref'd).
 */
const liveClock: Clock = {
  now: systemClock.now,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export function createDownloader(options: DownloaderOptions): Downloader {
  const fs = options.fs ?? realFs;
  const clock = options.clock ?? liveClock;
  /** Waits out a retry backoff; an abort ends the wait at once (with the 0.1 clock, at its end). */
  const backoff = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
    'sleep' in clock ? clock.sleep(ms) : sleep(clock, ms, signal);
  const log = options.logger ?? {};
  const dest = resolveDest(options);
  const dir = path.dirname(dest);
  const partPath = `${dest}.part`;
  const statePath = `${dest}.part.json`;
  const recordPath = `${dest}.json`;
  const name = options.name ?? path.basename(dest).replace(/\.[^.]*$/, '');
  const progressFile = options.progressFile === undefined ? progressFilePath(name) : options.progressFile;
  const doneFile = options.doneFile === undefined ? DONE_FILE : options.doneFile;
  const retries = options.retries ?? 5;
  const checkpointBytes = options.checkpointBytes ?? 4 * 1024 * 1024;
  const reserve = options.reserveBytes ?? 1024 * 1024;
  const idleTimeoutMs = options.idleTimeoutMs ?? 100_000;
  const progressIntervalMs = options.progressIntervalMs ?? 200;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_PACKAGE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new OtaError('OTA_OPTIONS', 'maxBytes must be a positive whole number');
  }
  const headers = { 'User-Agent': 'PSP_DEVICE', Accept: '*/*', ...options.headers };

  async function loadState(): Promise<DownloadState | undefined> {
    try {
      const s = JSON.parse(await fs.readFile(statePath, 'utf8')) as DownloadState;
      if (
        s?.v !== 2 ||
        typeof s.url !== 'string' ||
        (s.md5 !== undefined && (typeof s.md5 !== 'string' || !/^[0-9a-f]{32}$/.test(s.md5))) ||
        !Number.isSafeInteger(s.bytes) ||
        s.bytes < 0 ||
        (s.total !== undefined && !Number.isSafeInteger(s.total)) ||
        (s.validator !== undefined && typeof s.validator !== 'string')
      )
        return undefined;
      return s;
    } catch {
      return undefined;
    }
  }

  const saveState = (s: DownloadState) => writeFileAtomic(statePath, JSON.stringify(s), { fs });

  async function discard(): Promise<void> {
    await fs.rm(partPath, { force: true });
    await fs.rm(statePath, { force: true });
  }

  async function writeProgress(received: number, total: number | undefined): Promise<void> {
    if (!progressFile) return;
    try {
      await writeFileAtomic(progressFile, formatProgressLine(received, total), {
        fs,
        durable: false,
        mode: 0o644,
      });
    } catch {
      // The progress file is advisory; a failure to write it must not fail the download.
    }
  }

  async function hashFile(file: string, bytes: number): Promise<crypto.Hash> {
    // A hash state cannot be persisted, so after a restart the kept bytes are read and hashed again.
    const h = crypto.createHash('md5');
    if (bytes === 0) return h;
    const fh = await fs.open(file, 'r');
    try {
      const buf = Buffer.allocUnsafe(1024 * 1024);
      let pos = 0;
      while (pos < bytes) {
        const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, bytes - pos), pos);
        if (bytesRead === 0) throw new OtaError('OTA_IO', `${file} shrank while it was read`);
        h.update(buf.subarray(0, bytesRead));
        pos += bytesRead;
      }
    } finally {
      await fh.close();
    }
    return h;
  }

  async function findComplete(md5: string, size?: number): Promise<CompletePackage | undefined> {
    const want = md5.toLowerCase();
    let st: { size: number; mtimeMs: number; isFile(): boolean };
    try {
      st = await fs.stat(dest);
    } catch {
      return undefined;
    }
    if (!st.isFile() || (size !== undefined && st.size !== size)) return undefined;
    let record: PackageRecord | undefined;
    try {
      record = JSON.parse(await fs.readFile(recordPath, 'utf8')) as PackageRecord;
    } catch {
      record = undefined;
    }
    if (record?.v === 1) {
      // A record for another package, or a file changed since it was written, is not trusted.
      const fresh = record.size === st.size && record.mtimeMs === st.mtimeMs;
      return fresh && record.md5 === want ? { path: dest, size: st.size, md5: want } : undefined;
    }
    // No record (written by something else, or a crash right after the rename): hash it once.
    if (st.size > Math.max(maxBytes, size ?? 0)) return undefined;
    const got = (await hashFile(dest, st.size)).digest('hex');
    if (got !== want) return undefined;
    await writeRecord(got, st.size);
    return { path: dest, size: st.size, md5: got };
  }

  async function writeRecord(md5: string, size: number): Promise<void> {
    const st = await fs.stat(dest);
    const record: PackageRecord = { v: 1, md5, size, mtimeMs: st.mtimeMs };
    await writeFileAtomic(recordPath, JSON.stringify(record), { fs });
  }

  async function request(
    url: URL,
    extra: Record<string, string>,
    signal: AbortSignal | undefined,
    hops = 0,
  ): Promise<Response> {
    // Loaded on first use: the TLS stack costs memory that verify-only users need not pay.
    const mod =
      url.protocol === 'https:'
        ? await import('node:https')
        : url.protocol === 'http:'
          ? await import('node:http')
          : undefined;
    if (!mod) throw new OtaError('OTA_OPTIONS', `unsupported URL scheme ${url.protocol}`);
    return new Promise<Response>((resolve, reject) => {
      const req = mod.request(url, {
        method: 'GET',
        headers: { ...headers, ...extra },
        agent: false,
        signal,
        ...(url.protocol === 'https:'
          ? { ca: options.ca, rejectUnauthorized: options.insecure !== true }
          : {}),
      });
      req.setTimeout(idleTimeoutMs, () => {
        req.destroy(
          new OtaError('OTA_DOWNLOAD_INTERRUPTED', `no data from the server for ${idleTimeoutMs} ms`),
        );
      });
      req.once('error', (e) => reject(networkError(e, `request to ${safeUrl(url)} failed`)));
      req.once('response', (res) => {
        const status = res.statusCode ?? 0;
        if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
          res.resume();
          if (hops >= 5) {
            reject(new OtaError('OTA_DOWNLOAD_HTTP', 'too many redirects'));
            return;
          }
          let next: URL;
          try {
            next = new URL(res.headers.location, url);
          } catch (error) {
            reject(
              new OtaError('OTA_DOWNLOAD_REDIRECT', 'the server redirected to something that is not a URL', {
                cause: error,
              }),
            );
            return;
          }
          // An https download never continues in clear text: on http anyone on the path could
          // swap the bytes (MD5 and signature would catch it, but only after the whole download).
          if (next.protocol !== 'https:' && (url.protocol === 'https:' || next.protocol !== 'http:')) {
            reject(
              new OtaError(
                'OTA_DOWNLOAD_REDIRECT',
                `${safeUrl(url)} redirected to ${next.protocol}//${next.host}: an https download does not follow a redirect to ${next.protocol.replace(':', '')}`,
              ),
            );
            return;
          }
          request(next, extra, signal, hops + 1).then(resolve, reject);
          return;
        }
        resolve({ status, headers: res.headers, body: res });
      });
      req.end();
    });
  }

  function tooLarge(what: string, want: Want): OtaError {
    const source =
      want.size !== undefined ? 'the size the descriptor announced' : 'the most allowed (maxBytes)';
    return new OtaError('OTA_DOWNLOAD_TOO_LARGE', `${what} ${want.limit} bytes, ${source}`);
  }

  async function attempt(
    url: URL,
    want: Want,
    signal: AbortSignal | undefined,
    stats: Stats,
  ): Promise<DownloadResult> {
    let state = await loadState();
    let offset = 0;
    // The partial bytes are this package's when their MD5 is the one expected (whatever the URL),
    // or, without an MD5 on either side, when they came from this very URL and a validator
    // (If-Range) will vouch for them. The final MD5 check catches a bad splice either way.
    const samePackage =
      state !== undefined &&
      (want.md5 !== undefined && state.md5 !== undefined
        ? state.md5 === want.md5
        : state.url === url.href && state.validator !== undefined);
    const resumable =
      state !== undefined &&
      samePackage &&
      (want.size === undefined || state.total === undefined || state.total === want.size);
    if (state && resumable) {
      let size = 0;
      try {
        size = (await fs.stat(partPath)).size;
      } catch {
        size = 0;
      }
      // Bytes past the last durable checkpoint may be garbage after a power cut: drop them.
      offset = Math.min(size, state.bytes);
      if (size !== offset) await fs.truncate(partPath, offset);
    } else {
      if (state) stats.restarts++;
      await discard();
      state = undefined;
    }
    let md5 = await hashFile(partPath, offset);
    if (stats.resumedBytes === undefined) stats.resumedBytes = offset;

    const extra: Record<string, string> = {};
    if (offset > 0) {
      extra.Range = `bytes=${offset}-`;
      if (state?.validator) extra['If-Range'] = state.validator;
    }
    stats.requests++;
    const res = await request(url, extra, signal);
    const body = res.body;
    try {
      let total: number | undefined;
      const length = res.headers['content-length'] ? Number(res.headers['content-length']) : undefined;
      if (res.status === 206 && offset > 0) {
        const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(res.headers['content-range'] ?? '');
        total = m?.[3] === undefined || m[3] === '*' ? undefined : Number(m[3]);
        if (
          !m ||
          Number(m[1]) !== offset ||
          (total !== undefined && state?.total !== undefined && total !== state.total)
        ) {
          // A range we did not ask for, or of a file of another size: start over rather than
          // splice the wrong bytes.
          await discard();
          stats.restarts++;
          throw new OtaError(
            'OTA_DOWNLOAD_INTERRUPTED',
            'server answered with a different range or size; starting over',
          );
        }
        total ??= state?.total;
        stats.spliced = true;
      } else if (res.status === 200) {
        if (offset > 0) {
          // The server ignored Range, or If-Range found the package changed: the body is the whole file.
          stats.restarts++;
          offset = 0;
          md5 = crypto.createHash('md5');
        }
        total = length !== undefined && Number.isSafeInteger(length) ? length : undefined;
      } else if (res.status === 416 && offset > 0 && state?.total === offset) {
        total = offset; // we already have every byte
        stats.spliced = true;
      } else if (res.status === 416) {
        await discard();
        stats.restarts++;
        throw new OtaError('OTA_DOWNLOAD_INTERRUPTED', 'server refused the resume range; starting over');
      } else {
        const err = new OtaError(
          'OTA_DOWNLOAD_HTTP',
          `package server answered ${res.status} for ${safeUrl(url)}`,
        );
        throw res.status >= 500 ? new OtaError('OTA_DOWNLOAD_INTERRUPTED', err.message, { cause: err }) : err;
      }

      // The size cap: the descriptor's size when it has one, else maxBytes; checked against what
      // the server announces before any byte is written, and again while the body streams.
      if (want.size !== undefined && total !== undefined && total !== want.size) {
        await discard();
        if (total > want.size) throw tooLarge(`the server announces ${total} bytes, more than`, want);
        throw new OtaError(
          'OTA_DOWNLOAD_PROTOCOL',
          `the server announces ${total} bytes, the descriptor ${want.size}`,
        );
      }
      if (total !== undefined && total > want.limit) {
        await discard();
        throw tooLarge(`the server announces ${total} bytes, more than`, want);
      }
      const announced = total !== undefined;
      total ??= want.size;

      const etag = res.headers.etag;
      const validator =
        etag && !etag.startsWith('W/')
          ? etag
          : etag
            ? undefined
            : (res.headers['last-modified'] ?? undefined);

      if (total !== undefined && total > offset) {
        const st = await fs.statfs(dir);
        const free = Number(st.bavail) * Number(st.bsize);
        if (free < total - offset + reserve) {
          await discard();
          throw new OtaError(
            'OTA_NO_SPACE',
            `not enough space in ${dir}: ${total - offset} bytes needed (+${reserve} reserve), ${free} free`,
          );
        }
      }
      state = { v: 2, md5: want.md5 ?? state?.md5, url: url.href, validator, total, bytes: offset };
      if (res.status !== 416) {
        const fh = await fs.open(partPath, offset === 0 ? 'w' : 'r+', 0o600);
        let pos = offset;
        let lastCheckpoint = offset;
        let lastProgress = 0;
        const started = clock.now();
        const report = async (force: boolean) => {
          const now = clock.now();
          if (!force && now - lastProgress < progressIntervalMs) return;
          lastProgress = now;
          const elapsed = Math.max(1, now - started);
          options.onProgress?.({
            received: pos,
            total,
            percent: total ? Math.min(100, (pos / total) * 100) : undefined,
            resumedFrom: offset,
            bytesPerSecond: ((pos - offset) * 1000) / elapsed,
          });
          await writeProgress(pos, total);
        };
        const checkpoint = async () => {
          await fh.datasync();
          state!.bytes = pos;
          await saveState(state!);
          lastCheckpoint = pos;
        };
        try {
          if (offset === 0) await fh.truncate(0);
          await saveState(state);
          await report(true);
          try {
            for await (const chunk of body as AsyncIterable<Buffer>) {
              if (pos + chunk.length > want.limit) {
                throw tooLarge('the server sent more than', want);
              }
              if (announced && pos + chunk.length > total!) {
                throw new OtaError('OTA_DOWNLOAD_PROTOCOL', 'server sent more bytes than the package size');
              }
              try {
                let done = 0;
                while (done < chunk.length) {
                  const { bytesWritten } = await fh.write(chunk, done, chunk.length - done, pos + done);
                  done += bytesWritten;
                }
              } catch (error) {
                throw new DiskError(error);
              }
              md5.update(chunk);
              pos += chunk.length;
              if (pos - lastCheckpoint >= checkpointBytes) await checkpoint();
              await report(false);
            }
          } catch (error) {
            if (error instanceof DiskError) throw error.cause;
            throw networkError(error, 'connection to the package server was cut');
          }
          if (total !== undefined && pos < total) {
            throw new OtaError('OTA_DOWNLOAD_INTERRUPTED', `connection closed at ${pos} of ${total} bytes`);
          }
          if (total === undefined) state.total = pos;
          await checkpoint();
          await report(true);
        } catch (error) {
          const errno = (error as NodeJS.ErrnoException).code;
          if (errno === 'ENOSPC' || errno === 'EDQUOT') {
            await fh.close().catch(() => {});
            await discard();
            throw new OtaError('OTA_NO_SPACE', `the disk holding ${dir} is full`, { cause: error });
          }
          if (errno !== undefined && !(error instanceof OtaError)) {
            throw new OtaError('OTA_IO', `cannot write ${partPath}: ${errno}`, { cause: error });
          }
          if (error instanceof OtaError && error.code === 'OTA_DOWNLOAD_TOO_LARGE') {
            // Nothing of an oversized body is worth keeping.
            await fh.close().catch(() => {});
            await discard();
          } else if (isRetryable(error) || (error as OtaError).code === 'OTA_ABORTED') {
            // Keep what arrived for the next attempt.
            await checkpoint().catch(() => {});
          }
          throw error;
        } finally {
          await fh.close().catch(() => {});
        }
      } else {
        body.resume();
        md5 = await hashFile(partPath, offset);
      }

      const size = state.total ?? offset;
      const digest = md5.digest('hex');
      if (want.md5 !== undefined && digest !== want.md5) {
        await discard();
        if (stats.spliced && !stats.freshRetry) {
          // Pieces from two responses may not belong together (no validator, or a server that
          // lies about it): one whole download decides.
          stats.freshRetry = true;
          stats.restarts++;
          throw new OtaError(
            'OTA_DOWNLOAD_INTERRUPTED',
            `MD5 of the resumed download is ${digest}, expected ${want.md5}; downloading it once more from the start`,
          );
        }
        throw new OtaError('OTA_MD5_MISMATCH', `MD5 of the download is ${digest}, expected ${want.md5}`);
      }
      await fs.rm(recordPath, { force: true });
      await fs.rename(partPath, dest);
      await syncDir(dir, fs);
      await writeRecord(digest, size);
      await fs.rm(statePath, { force: true });
      if (doneFile) await writeFileAtomic(doneFile, 'done', { fs, durable: false, mode: 0o644 });
      return {
        path: dest,
        size,
        md5: digest,
        resumedBytes: stats.resumedBytes ?? 0,
        restarts: stats.restarts,
        requests: stats.requests,
        cached: false,
      };
    } finally {
      if (!body.complete) body.destroy();
    }
  }

  let running = false;
  return {
    dest,
    partPath,
    statePath,
    async discard() {
      if (running) throw new OtaError('OTA_OPTIONS', 'cannot discard while a download is running');
      await discard();
    },
    async remove() {
      if (running) throw new OtaError('OTA_OPTIONS', 'cannot remove the package while a download is running');
      await discard();
      await fs.rm(recordPath, { force: true });
      await fs.rm(dest, { force: true });
    },
    findComplete(md5, size) {
      if (typeof md5 !== 'string' || !/^[0-9a-fA-F]{32}$/.test(md5)) {
        return Promise.reject(new OtaError('OTA_OPTIONS', 'md5 must be 32 hex digits'));
      }
      return findComplete(md5, size);
    },
    async download(rawUrl, dl = {}) {
      if (running) throw new OtaError('OTA_OPTIONS', `a download to ${dest} is already running`);
      running = true;
      try {
        return await run(rawUrl, dl);
      } finally {
        running = false;
      }
    },
  };

  async function run(rawUrl: string, dl: DownloadOptions): Promise<DownloadResult> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch (error) {
      throw new OtaError('OTA_OPTIONS', 'download URL is not a URL', { cause: error });
    }
    const expectedMd5 = dl.md5?.toLowerCase();
    if (expectedMd5 !== undefined && !/^[0-9a-f]{32}$/.test(expectedMd5)) {
      throw new OtaError('OTA_OPTIONS', 'md5 must be 32 hex digits');
    }
    if (dl.size !== undefined && (!Number.isSafeInteger(dl.size) || dl.size < 0)) {
      throw new OtaError('OTA_OPTIONS', 'size must be a whole number of bytes');
    }
    const want: Want = { md5: expectedMd5, size: dl.size, limit: dl.size ?? maxBytes };
    if (options.insecure && url.protocol === 'https:') {
      log.warn?.(
        `TLS certificate verification is OFF for ${url.host} (insecure option): the package's authenticity rests on its signature`,
        { host: url.host },
      );
    }
    await fs.mkdir(dir, { recursive: true });
    // the temp files of a state or record write a power cut interrupted (the files themselves are whole)
    await removeLeftTemps(statePath, fs);
    await removeLeftTemps(recordPath, fs);
    if (doneFile) await fs.rm(doneFile, { force: true });
    if (expectedMd5 !== undefined) {
      const found = await findComplete(expectedMd5, dl.size);
      if (found) {
        log.info?.(`the package with MD5 ${expectedMd5} is already complete at ${dest}`, { path: dest });
        // A UI that follows the progress sees the download complete, as after a real one.
        options.onProgress?.({
          received: found.size,
          total: found.size,
          percent: 100,
          resumedFrom: found.size,
          bytesPerSecond: 0,
        });
        await writeProgress(found.size, found.size);
        if (doneFile) await writeFileAtomic(doneFile, 'done', { fs, durable: false, mode: 0o644 });
        return { ...found, resumedBytes: 0, restarts: 0, requests: 0, cached: true };
      }
    }
    const stats: Stats = {
      restarts: 0,
      requests: 0,
      resumedBytes: undefined,
      spliced: false,
      freshRetry: false,
    };
    let delay = options.retryDelayMs ?? 1000;
    for (let tries = 0; ; tries++) {
      try {
        return await attempt(url, want, dl.signal, stats);
      } catch (error) {
        if (dl.signal?.aborted) {
          throw error instanceof OtaError && error.code === 'OTA_ABORTED'
            ? error
            : new OtaError('OTA_ABORTED', 'download aborted; the bytes so far are kept for a resume', {
                cause: error,
              });
        }
        const e = networkError(error, 'download failed');
        if (!isRetryable(e) || tries >= retries) throw e;
        log.info?.(`download interrupted (${e.message}); resuming in ${delay} ms`, { delayMs: delay });
        try {
          await backoff(delay, dl.signal);
        } catch (reason) {
          throw new OtaError('OTA_ABORTED', 'download aborted; the bytes so far are kept for a resume', {
            cause: reason,
          });
        }
        if (dl.signal?.aborted) {
          throw new OtaError('OTA_ABORTED', 'download aborted; the bytes so far are kept for a resume');
        }
        delay = Math.min(delay * 2, 30_000);
      }
    }
  }
}
