import crypto from 'node:crypto';
import type http from 'node:http';
import path from 'node:path';
import { type Clock, type Logger, sleep, syncDir, systemClock, writeFileAtomic } from '@waved/internal';
import { OtaError } from './errors.js';
import { type FsPort, realFs } from './fs-port.js';

// The package is fetched with resume to the package path, a progress file
// `/tmp/curl_progress_<name>` is kept up to date and `done` is written to `/tmp/swu.done` at the end.

/** The device's package path: `/mnt/udisk/misc/data/<system_dir>/software.swu`. */
export function packagePath(systemDir: string): string {
  if (systemDir === '' || systemDir.includes('/') || systemDir === '.' || systemDir === '..') {
    throw new OtaError('OTA_OPTIONS', 'systemDir must be a single directory name');
  }
  return `/mnt/udisk/misc/data/${systemDir}/software.swu`;
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
  /** Final package path, e.g. `packagePath(systemDir)`. Work files sit beside it. */
  dest: string;
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
  onProgress?: (progress: DownloadProgress) => void;
  /** Any `{ debug?, info?, warn?, error? }` logger (console, pino, consola). */
  logger?: Logger;
  fs?: FsPort;
  /** Time and the retry backoff (default `systemClock`); tests pass a manual clock. */
  clock?: Clock | SleepClock;
}

export interface DownloadOptions {
  /** Expected MD5 (`file_md5`): a mismatch removes the download and throws `OTA_MD5_MISMATCH`. */
  md5?: string;
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
}

export interface Downloader {
  download(url: string, options?: DownloadOptions): Promise<DownloadResult>;
  /** Removes the partial download and its state. */
  discard(): Promise<void>;
  /** Paths of the work files (partial data and persisted state). */
  readonly partPath: string;
  readonly statePath: string;
}

/** Persisted beside the partial file; replaced atomically. */
interface DownloadState {
  v: 1;
  url: string;
  /** Strong ETag or Last-Modified of the representation being downloaded. */
  validator: string | undefined;
  total: number | undefined;
  /** Bytes of the partial file known to be on stable storage. */
  bytes: number;
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

export function createDownloader(options: DownloaderOptions): Downloader {
  const fs = options.fs ?? realFs;
  const clock = options.clock ?? systemClock;
  /** Waits out a retry backoff; an abort ends the wait at once (with the 0.1 clock, at its end). */
  const backoff = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
    'sleep' in clock ? clock.sleep(ms) : sleep(clock, ms, signal);
  const dest = options.dest;
  const dir = path.dirname(dest);
  const partPath = `${dest}.part`;
  const statePath = `${dest}.part.json`;
  const name = options.name ?? path.basename(dest).replace(/\.[^.]*$/, '');
  const progressFile = options.progressFile === undefined ? progressFilePath(name) : options.progressFile;
  const doneFile = options.doneFile === undefined ? DONE_FILE : options.doneFile;
  const retries = options.retries ?? 5;
  const checkpointBytes = options.checkpointBytes ?? 4 * 1024 * 1024;
  const reserve = options.reserveBytes ?? 1024 * 1024;
  const idleTimeoutMs = options.idleTimeoutMs ?? 100_000;
  const progressIntervalMs = options.progressIntervalMs ?? 200;
  const headers = { 'User-Agent': 'PSP_DEVICE', Accept: '*/*', ...options.headers };

  async function loadState(): Promise<DownloadState | undefined> {
    try {
      const s = JSON.parse(await fs.readFile(statePath, 'utf8')) as DownloadState;
      if (s?.v !== 1 || typeof s.url !== 'string' || !Number.isSafeInteger(s.bytes) || s.bytes < 0)
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

  async function hashPrefix(bytes: number): Promise<crypto.Hash> {
    // A hash state cannot be persisted, so after a restart the kept bytes are read and hashed again.
    const h = crypto.createHash('md5');
    if (bytes === 0) return h;
    const fh = await fs.open(partPath, 'r');
    try {
      const buf = Buffer.allocUnsafe(1024 * 1024);
      let pos = 0;
      while (pos < bytes) {
        const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, bytes - pos), pos);
        if (bytesRead === 0) throw new OtaError('OTA_IO', 'partial download shrank while it was read');
        h.update(buf.subarray(0, bytesRead));
        pos += bytesRead;
      }
    } finally {
      await fh.close();
    }
    return h;
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
          request(new URL(res.headers.location, url), extra, signal, hops + 1).then(resolve, reject);
          return;
        }
        resolve({ status, headers: res.headers, body: res });
      });
      req.end();
    });
  }

  async function attempt(
    url: URL,
    expectedMd5: string | undefined,
    signal: AbortSignal | undefined,
    stats: { restarts: number; requests: number; resumedBytes: number | undefined },
  ): Promise<DownloadResult> {
    let state = await loadState();
    let offset = 0;
    if (state && state.url === url.href && state.validator !== undefined) {
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
    let md5 = await hashPrefix(offset);
    if (stats.resumedBytes === undefined) stats.resumedBytes = offset;

    const extra: Record<string, string> = {};
    if (offset > 0 && state?.validator) {
      extra.Range = `bytes=${offset}-`;
      extra['If-Range'] = state.validator;
    }
    stats.requests++;
    const res = await request(url, extra, signal);
    const body = res.body;
    try {
      let total: number | undefined;
      const length = res.headers['content-length'] ? Number(res.headers['content-length']) : undefined;
      if (res.status === 206 && offset > 0) {
        const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(res.headers['content-range'] ?? '');
        if (!m || Number(m[1]) !== offset) {
          // A range we did not ask for: start over rather than splice the wrong bytes.
          await discard();
          stats.restarts++;
          throw new OtaError(
            'OTA_DOWNLOAD_INTERRUPTED',
            'server answered with a different range; starting over',
          );
        }
        total = m[3] === '*' ? undefined : Number(m[3]);
      } else if (res.status === 200) {
        if (offset > 0) {
          // The server ignored Range, or If-Range found the package changed: the body is the whole file.
          stats.restarts++;
          offset = 0;
          md5 = crypto.createHash('md5');
        }
        total = length;
      } else if (res.status === 416 && offset > 0 && state?.total === offset) {
        total = offset; // we already have every byte
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
      state = { v: 1, url: url.href, validator, total, bytes: offset };
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
              if (total !== undefined && pos + chunk.length > total) {
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
          if (isRetryable(error) || (error as OtaError).code === 'OTA_ABORTED') {
            // Keep what arrived for the next attempt.
            await checkpoint().catch(() => {});
          }
          throw error;
        } finally {
          await fh.close().catch(() => {});
        }
      } else {
        body.resume();
        md5 = await hashPrefix(offset);
      }

      const size = state.total ?? offset;
      const digest = md5.digest('hex');
      if (expectedMd5 !== undefined && digest !== expectedMd5) {
        await discard();
        throw new OtaError('OTA_MD5_MISMATCH', `MD5 of the download is ${digest}, expected ${expectedMd5}`);
      }
      await fs.rename(partPath, dest);
      await syncDir(dir, fs);
      await fs.rm(statePath, { force: true });
      if (doneFile) await writeFileAtomic(doneFile, 'done', { fs, durable: false, mode: 0o644 });
      return {
        path: dest,
        size,
        md5: digest,
        resumedBytes: stats.resumedBytes ?? 0,
        restarts: stats.restarts,
        requests: stats.requests,
      };
    } finally {
      if (!body.complete) body.destroy();
    }
  }

  let running = false;
  return {
    partPath,
    statePath,
    async discard() {
      if (running) throw new OtaError('OTA_OPTIONS', 'cannot discard while a download is running');
      await discard();
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
    if (options.insecure && url.protocol === 'https:') {
      options.logger?.warn?.(
        `TLS certificate verification is OFF for ${url.host} (insecure option): the package's authenticity rests on its signature`,
      );
    }
    await fs.mkdir(dir, { recursive: true });
    if (doneFile) await fs.rm(doneFile, { force: true });
    const stats = { restarts: 0, requests: 0, resumedBytes: undefined as number | undefined };
    let delay = options.retryDelayMs ?? 1000;
    for (let tries = 0; ; tries++) {
      try {
        return await attempt(url, expectedMd5, dl.signal, stats);
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
        options.logger?.info?.(`download interrupted (${e.message}); resuming in ${delay} ms`);
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
