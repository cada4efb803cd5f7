import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import nodeFsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exec, needs, tempDir, waitFor } from '@waved/test-lab';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  type Clock,
  createDownloader,
  type DownloaderOptions,
  type DownloadProgress,
  type FsPort,
  formatProgressLine,
  OtaError,
} from '../src/index.js';
import { makePki, type TestPki } from './helpers/pki.js';
import { type PackageServer, startPackageServer } from './helpers/server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const md5 = (b: Uint8Array) => crypto.createHash('md5').update(b).digest('hex');
const noSleep = { now: () => Date.now(), sleep: async () => {} };

const lab = needs({ peers: ['openssl'] });

lab.describe('createDownloader against a local HTTPS server', () => {
  const tmp = tempDir('swu-dl-');
  let pki: TestPki;
  let server: PackageServer;
  let work: string;
  const body = crypto.randomBytes(600 * 1024 + 17);

  beforeAll(async () => {
    pki = await makePki(tmp.path);
    server = await startPackageServer(pki.serverCert, pki.serverKey, { body, etag: '"v1"' });
  });
  afterAll(async () => {
    await server.close();
    tmp.remove();
  });
  let n = 0;
  beforeEach(() => {
    work = tmp.join(`case-${n++}`);
    fs.mkdirSync(work);
    server.current = { body, etag: '"v1"' };
    server.cuts = [];
    server.ignoreRange = false;
    server.throttleMs = 0;
    server.requests = [];
  });

  const make = (extra: Partial<DownloaderOptions> = {}) =>
    createDownloader({
      dest: path.join(work, 'software.swu'),
      progressFile: path.join(work, 'curl_progress_software'),
      doneFile: path.join(work, 'swu.done'),
      ca: fs.readFileSync(pki.caCert),
      clock: noSleep,
      checkpointBytes: 64 * 1024,
      ...extra,
    });

  it('downloads, checks the MD5, writes the progress and done files', async () => {
    const events: DownloadProgress[] = [];
    const dl = make({ onProgress: (p) => events.push(p), progressIntervalMs: 0 });
    const r = await dl.download(server.url, { md5: md5(body) });
    expect(r).toMatchObject({ size: body.length, md5: md5(body), resumedBytes: 0, restarts: 0, requests: 1 });
    expect(md5(fs.readFileSync(r.path))).toBe(md5(body));
    expect(fs.statSync(r.path).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(work, 'swu.done'), 'utf8')).toBe('done');
    expect(fs.readFileSync(path.join(work, 'curl_progress_software'), 'utf8')).toBe(
      `${'#'.repeat(72)} 100.0%\n`,
    );
    expect(events.at(-1)).toMatchObject({ received: body.length, total: body.length, percent: 100 });
    const received = events.map((e) => e.received);
    expect(received).toEqual([...received].sort((a, b) => a - b));
    expect(fs.existsSync(dl.partPath) || fs.existsSync(dl.statePath)).toBe(false);
    expect(server.requests[0]).toMatchObject({ range: undefined, status: 200 });
  });

  it('resumes with Range and If-Range after cuts at random offsets', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { minLength: 1, maxLength: 4 }),
        async (offsets) => {
          work = tmp.join(`case-${n++}`);
          fs.mkdirSync(work);
          const sorted = [...offsets].sort((a, b) => a - b);
          server.requests = [];
          server.cuts = [...sorted];
          const r = await make({ retries: 10 }).download(server.url, { md5: md5(body) });
          expect(md5(fs.readFileSync(r.path))).toBe(md5(body));
          expect(r.restarts).toBe(0);
          // Each resume starts at or before the cut (bytes still in flight at the cut are fetched
          // again) and never before the previous resume point.
          const starts = server.requests.map((q) => Number(/^bytes=(\d+)-$/.exec(q.range ?? '')?.[1] ?? 0));
          expect(starts[0]).toBe(0);
          for (let i = 1; i < starts.length; i++) {
            expect(starts[i]).toBeGreaterThanOrEqual(starts[i - 1]!);
            expect(starts[i]).toBeLessThanOrEqual(sorted[i - 1] ?? body.length);
          }
          const resumed = server.requests.filter((q) => q.range !== undefined);
          expect(resumed.every((q) => q.ifRange === '"v1"' && q.status === 206)).toBe(true);
          // Cuts past 64 KiB cannot lose more than what was in flight: resumes really happen.
          if (sorted.some((o) => o > 200_000)) expect(resumed.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 6 },
    );
  });

  it('keeps the partial file and state across downloader instances when retries are off', async () => {
    server.cuts = [200_000];
    const first = make({ retries: 0 });
    const err = await first.download(server.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OtaError);
    expect((err as OtaError).code).toBe('OTA_DOWNLOAD_INTERRUPTED');
    const state = JSON.parse(fs.readFileSync(first.statePath, 'utf8'));
    expect(state).toMatchObject({ total: body.length, validator: '"v1"' });
    expect(state.bytes).toBeGreaterThan(100_000);
    expect(state.bytes).toBeLessThanOrEqual(200_000);
    expect(fs.statSync(first.partPath).size).toBe(state.bytes);
    expect(fs.existsSync(path.join(work, 'swu.done'))).toBe(false);

    const r = await make().download(server.url, { md5: md5(body) });
    expect(r.resumedBytes).toBe(state.bytes);
    expect(server.requests[1]).toMatchObject({ range: `bytes=${state.bytes}-`, status: 206 });
    expect(md5(fs.readFileSync(r.path))).toBe(md5(body));
  });

  it('drops bytes past the last durable checkpoint before resuming', async () => {
    server.cuts = [300_000];
    const first = make({ retries: 0 });
    await expect(first.download(server.url)).rejects.toThrow(OtaError);
    // Simulate a power cut: the state says 100 000 bytes were durable, the file has garbage after it.
    const state = JSON.parse(fs.readFileSync(first.statePath, 'utf8'));
    fs.writeFileSync(first.statePath, JSON.stringify({ ...state, bytes: 100_000 }));
    const fd = fs.openSync(first.partPath, 'r+');
    fs.writeSync(fd, Buffer.alloc(50_000, 0xee), 0, 50_000, 120_000);
    fs.closeSync(fd);
    const r = await make().download(server.url, { md5: md5(body) });
    expect(server.requests[1]?.range).toBe('bytes=100000-');
    expect(md5(fs.readFileSync(r.path))).toBe(md5(body));
  });

  it('starts over when the server ignores Range and answers 200', async () => {
    server.cuts = [250_000];
    server.ignoreRange = true;
    const r = await make().download(server.url, { md5: md5(body) });
    expect(server.requests.map((q) => [q.range?.startsWith('bytes='), q.status])).toEqual([
      [undefined, 200],
      [true, 200],
    ]);
    expect(r.restarts).toBe(1);
    expect(md5(fs.readFileSync(r.path))).toBe(md5(body));
  });

  it('starts over when the ETag changes mid-way (If-Range)', async () => {
    const next = crypto.randomBytes(400_000);
    server.cuts = [150_000];
    const first = make({ retries: 0 });
    await expect(first.download(server.url)).rejects.toThrow(OtaError);
    const kept = fs.statSync(first.partPath).size;
    expect(kept).toBeGreaterThan(0);
    server.current = { body: next, etag: '"v2"' };
    const r = await make().download(server.url, { md5: md5(next) });
    expect(server.requests[1]).toMatchObject({ range: `bytes=${kept}-`, ifRange: '"v1"', status: 200 });
    expect(r).toMatchObject({ restarts: 1, size: next.length });
    expect(md5(fs.readFileSync(r.path))).toBe(md5(next));
  });

  it('does not resume without a validator', async () => {
    server.current = { body, etag: undefined };
    server.cuts = [100_000];
    const r = await make().download(server.url, { md5: md5(body) });
    expect(server.requests.map((q) => q.range)).toEqual([undefined, undefined]);
    expect(md5(fs.readFileSync(r.path))).toBe(md5(body));
  });

  it('stops on abort keeping what arrived, refuses a second concurrent download, then resumes', async () => {
    server.throttleMs = 5;
    const ac = new AbortController();
    const events: DownloadProgress[] = [];
    const dl = make({
      progressIntervalMs: 0,
      onProgress: (p) => {
        events.push(p);
        if (p.received > 150_000) ac.abort();
      },
    });
    const first = dl.download(server.url, { signal: ac.signal });
    const second = (await dl.download(server.url).catch((e: unknown) => e)) as OtaError;
    expect(second.code).toBe('OTA_OPTIONS');
    const err = (await first.catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_ABORTED');
    const kept = JSON.parse(fs.readFileSync(dl.statePath, 'utf8')).bytes;
    expect(kept).toBeGreaterThan(150_000);
    server.throttleMs = 0;
    const r = await dl.download(server.url, { md5: md5(body) });
    expect(r.resumedBytes).toBe(kept);
    expect(md5(fs.readFileSync(r.path))).toBe(md5(body));
  });

  it('waits out its retry backoff on the given Clock, and an abort ends the wait at once', async () => {
    const timers = new Map<number, () => void>();
    let next = 0;
    const manual: Clock = {
      now: () => Date.now(),
      setTimeout: (fn) => {
        timers.set(++next, fn);
        return next;
      },
      clearTimeout: (handle) => {
        timers.delete(handle as number);
      },
    };
    // A cut, then a backoff that only the test can end: the download resumes when the timer fires.
    server.cuts = [100_000];
    const dl = make({ clock: manual, retryDelayMs: 60_000 });
    const resumed = dl.download(server.url, { md5: md5(body) });
    await waitFor(() => timers.size === 1);
    for (const [handle, fire] of timers) {
      timers.delete(handle);
      fire();
    }
    const result = await resumed;
    expect(result).toMatchObject({ requests: 2, restarts: 0, resumedBytes: expect.any(Number) });
    expect(md5(fs.readFileSync(result.path))).toBe(md5(body));

    // The same wait, aborted: rejected at once with OTA_ABORTED, the timer cleared, the bytes kept.
    await dl.discard();
    server.cuts = [100_000];
    const ac = new AbortController();
    const aborted = dl.download(server.url, { signal: ac.signal });
    await waitFor(() => timers.size === 1);
    ac.abort();
    expect(await aborted.catch((e: unknown) => e)).toMatchObject({ code: 'OTA_ABORTED' });
    expect(timers.size).toBe(0);
    expect(JSON.parse(fs.readFileSync(dl.statePath, 'utf8')).bytes).toBeGreaterThan(0);
  });

  it('refuses a package whose MD5 differs, and removes it', async () => {
    const dl = make();
    const err = (await dl.download(server.url, { md5: 'f'.repeat(32) }).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_MD5_MISMATCH');
    expect(fs.readdirSync(work)).toEqual(['curl_progress_software']); // no package, no part, no done
  });

  it('verifies TLS by default and logs the insecure option', async () => {
    const strict = make({ ca: undefined });
    const err = (await strict.download(server.url).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_TLS');
    const warnings: string[] = [];
    const loose = make({ ca: undefined, insecure: true, logger: { warn: (m) => warnings.push(m) } });
    const r = await loose.download(server.url, { md5: md5(body) });
    expect(r.size).toBe(body.length);
    expect(warnings.join('\n')).toMatch(/TLS certificate verification is OFF for 127\.0\.0\.1/);
  });

  it('reports a full disk as OTA_NO_SPACE before writing (statfs)', async () => {
    const smallFs: FsPort = {
      ...nodeFsp,
      statfs: (async (p: string) => ({
        ...(await nodeFsp.statfs(p)),
        bavail: 10,
        bsize: 4096,
      })) as FsPort['statfs'],
    };
    const err = (await make({ fs: smallFs })
      .download(server.url)
      .catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_NO_SPACE');
    expect(fs.readdirSync(work)).toEqual([]);
  });

  it('turns ENOSPC during the write into OTA_NO_SPACE and frees the space', async () => {
    let written = 0;
    const fullFs: FsPort = {
      ...nodeFsp,
      open: (async (...args: Parameters<typeof nodeFsp.open>) => {
        const h = await nodeFsp.open(...args);
        if (!String(args[0]).endsWith('.part')) return h;
        const write = h.write.bind(h) as (...a: unknown[]) => Promise<{ bytesWritten: number }>;
        return Object.assign(h, {
          write: async (...a: unknown[]) => {
            if (written > 100_000)
              throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
            const r = await write(...a);
            written += r.bytesWritten;
            return r;
          },
        });
      }) as FsPort['open'],
    };
    const err = (await make({ fs: fullFs })
      .download(server.url)
      .catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_NO_SPACE');
    expect(written).toBeGreaterThan(100_000);
    expect(fs.readdirSync(work)).toEqual(['curl_progress_software']); // the partial file is gone
  });

  it('resumes to a correct file after the downloader process is killed with SIGKILL', async () => {
    const big = crypto.randomBytes(3 * 1024 * 1024);
    server.current = { body: big, etag: '"big"' };
    server.throttleMs = 4;
    const dest = path.join(work, 'software.swu');
    const script = path.join(work, 'child.mjs');
    const dist = path.resolve(here, '../dist/index.js');
    expect(fs.existsSync(dist), 'build the package first (turbo runs build before test)').toBe(true);
    fs.writeFileSync(
      script,
      `import { createDownloader } from ${JSON.stringify(dist)};
import fs from 'node:fs';
const [dest, url, ca] = process.argv.slice(2);
await createDownloader({ dest, ca: fs.readFileSync(ca), progressFile: false, doneFile: false, checkpointBytes: 64 * 1024 }).download(url);
`,
    );
    const child = spawn(process.execPath, [script, dest, server.url, pki.caCert], { stdio: 'ignore' });
    try {
      await waitFor(
        () => {
          try {
            return JSON.parse(fs.readFileSync(`${dest}.part.json`, 'utf8')).bytes > 600_000;
          } catch {
            return false;
          }
        },
        { timeoutMs: 20_000, what: 'the child to checkpoint 600 kB' },
      );
    } finally {
      if (child.pid) process.kill(child.pid, 'SIGKILL');
    }
    await new Promise((r) => child.once('exit', r));
    const kept = fs.statSync(`${dest}.part`).size;
    expect(kept).toBeLessThan(big.length);
    server.throttleMs = 0;
    const r = await make().download(server.url, { md5: md5(big) });
    const resumedAt = Number(/bytes=(\d+)-/.exec(server.requests.at(-1)?.range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(600_000);
    expect(resumedAt).toBeLessThanOrEqual(kept);
    expect(r.resumedBytes).toBe(resumedAt);
    expect(md5(fs.readFileSync(r.path))).toBe(md5(big));
  });
});

const rootLab = needs({ root: true, peers: ['openssl', 'mount', 'umount'] });

rootLab.describe('createDownloader on a small tmpfs', () => {
  const tmp = tempDir('swu-dl-full-');
  const mnt = tmp.join('mnt');
  let pki: TestPki;
  let server: PackageServer;
  let mounted = false;
  beforeAll(async () => {
    pki = await makePki(tmp.path);
    server = await startPackageServer(pki.serverCert, pki.serverKey, {
      body: crypto.randomBytes(3 * 1024 * 1024),
      etag: '"x"',
    });
    fs.mkdirSync(mnt);
    await exec('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'waved-swu-test', mnt]);
    mounted = true;
  });
  afterEach(() => {
    for (const f of fs.readdirSync(mnt)) fs.rmSync(path.join(mnt, f), { force: true });
  });
  afterAll(async () => {
    await server?.close();
    if (mounted) await exec('umount', [mnt]);
    tmp.remove();
  });
  const opts = () => ({
    dest: path.join(mnt, 'software.swu'),
    progressFile: false as const,
    doneFile: false as const,
    ca: fs.readFileSync(pki.caCert),
    clock: noSleep,
  });

  it('checks free space first: a 3 MiB package does not start on a 2 MiB disk', async () => {
    const err = (await createDownloader(opts())
      .download(server.url)
      .catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_NO_SPACE');
    expect(fs.readdirSync(mnt)).toEqual([]);
  });

  it('handles the real ENOSPC when free space was misreported', async () => {
    const lying: FsPort = {
      ...nodeFsp,
      statfs: (async (p: string) => ({
        ...(await nodeFsp.statfs(p)),
        bavail: 1 << 20,
        bsize: 4096,
      })) as FsPort['statfs'],
    };
    const err = (await createDownloader({ ...opts(), fs: lying })
      .download(server.url)
      .catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_NO_SPACE');
    expect((err.cause as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(fs.readdirSync(mnt)).toEqual([]);
  });
});

it('formats the progress line like curl --progress-bar', () => {
  expect(formatProgressLine(0, 100)).toBe(`${' '.repeat(72)}   0.0%\n`);
  expect(formatProgressLine(50, 100)).toBe(`${'#'.repeat(36)}${' '.repeat(36)}  50.0%\n`);
  expect(formatProgressLine(999, 1000)).toBe(`${'#'.repeat(71)}${' '.repeat(1)}  99.9%\n`);
  expect(formatProgressLine(5, undefined)).toBe(`${' '.repeat(72)}   0.0%\n`);
});
