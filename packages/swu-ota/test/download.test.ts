import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import nodeFsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
  packagePath,
} from '../src/index.js';
import { md5, noSleep } from './helpers/packages.js';
import { makePki, type TestPki } from './helpers/pki.js';
import { type PackageServer, startPackageServer } from './helpers/server.js';

const here = path.dirname(fileURLToPath(import.meta.url));

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
    server.omitLength = false;
    server.endless = false;
    server.redirectTo = undefined;
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

  it('after a power cut (part file longer, zeros past the checkpoint, temp files left) resumes from the checkpoint', async () => {
    server.cuts = [300_000];
    const first = make({ retries: 0 });
    await expect(first.download(server.url, { md5: md5(body) })).rejects.toThrow(OtaError);
    const state = JSON.parse(fs.readFileSync(first.statePath, 'utf8'));
    const dirOf = path.dirname(first.statePath);
    // ext4 brought the file back longer than what was synced, with zeros, and a state write was cut
    fs.truncateSync(first.partPath, state.bytes + 200_000);
    const temps = [
      `.${path.basename(first.statePath)}.0123456789ab.tmp`,
      `.${path.basename(first.dest)}.json.ba9876543210.tmp`,
    ];
    for (const t of temps) fs.writeFileSync(path.join(dirOf, t), '{"v":2,"url":');
    const r = await make().download(server.url, { md5: md5(body) });
    expect(server.requests[1]?.range).toBe(`bytes=${state.bytes}-`);
    expect(md5(fs.readFileSync(r.path))).toBe(md5(body));
    for (const t of temps) expect(fs.existsSync(path.join(dirOf, t))).toBe(false);
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

  it('without a validator or an MD5 it does not resume; with the MD5 it resumes with Range alone', async () => {
    server.current = { body, etag: undefined };
    server.cuts = [100_000];
    const r = await make().download(server.url);
    expect(server.requests.map((q) => q.range)).toEqual([undefined, undefined]);
    expect(md5(fs.readFileSync(r.path))).toBe(md5(body));

    work = tmp.join(`case-${n++}`);
    fs.mkdirSync(work);
    server.requests = [];
    server.cuts = [100_000];
    const keyed = await make().download(server.url, { md5: md5(body) });
    expect(server.requests[0]?.range).toBeUndefined();
    expect(server.requests[1]).toMatchObject({ ifRange: undefined, status: 206 });
    expect(server.requests[1]?.range).toMatch(/^bytes=\d+-$/);
    expect(keyed.restarts).toBe(0);
    expect(md5(fs.readFileSync(keyed.path))).toBe(md5(body));
  });

  it('resumes by MD5 when only the query string of the URL changed (signed CDN links)', async () => {
    server.cuts = [200_000];
    const first = make({ retries: 0 });
    await expect(first.download(`${server.url}?sig=aaa&expires=1`, { md5: md5(body) })).rejects.toThrow(
      OtaError,
    );
    const kept = JSON.parse(fs.readFileSync(first.statePath, 'utf8')).bytes;
    expect(kept).toBeGreaterThan(100_000);
    const r = await make().download(`${server.url}?sig=bbb&expires=2`, { md5: md5(body) });
    expect(server.requests[1]).toMatchObject({ range: `bytes=${kept}-`, ifRange: '"v1"', status: 206 });
    expect(r).toMatchObject({ resumedBytes: kept, restarts: 0, requests: 1 });
    expect(md5(fs.readFileSync(r.path))).toBe(md5(body));

    // Another package (another MD5) behind the same URL never reuses those bytes.
    work = tmp.join(`case-${n++}`);
    fs.mkdirSync(work);
    server.requests = [];
    server.cuts = [200_000];
    const third = make({ retries: 0 });
    await expect(third.download(server.url, { md5: md5(body) })).rejects.toThrow(OtaError);
    const other = crypto.randomBytes(300_000);
    server.current = { body: other, etag: '"v1"' }; // a server that even keeps the ETag
    const r2 = await make().download(server.url, { md5: md5(other) });
    expect(server.requests[1]?.range).toBeUndefined();
    expect(md5(fs.readFileSync(r2.path))).toBe(md5(other));
  });

  it('a splice of two different files (no validator) fails the MD5 once, then one whole download decides', async () => {
    server.current = { body, etag: undefined };
    server.cuts = [150_000];
    // The descriptor already names the new file, but the server still has the old one for a while.
    const changed = Buffer.from(body);
    changed[10]! ^= 0xff; // inside the part kept below: only a whole download gets it right
    const first = make({ retries: 0 });
    await expect(first.download(server.url, { md5: md5(changed) })).rejects.toThrow(OtaError);
    // The server's file changes under the same URL, without any validator to tell.
    server.current = { body: changed, etag: undefined };
    const r = await make().download(server.url, { md5: md5(changed) });
    expect(server.requests.map((q) => q.status)).toEqual([200, 206, 200]);
    expect(r.restarts).toBe(1);
    expect(md5(fs.readFileSync(r.path))).toBe(md5(changed));
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

  it('attack: a server that streams forever without Content-Length is cut at maxBytes, and nothing is kept', async () => {
    server.endless = true;
    const dl = make({ maxBytes: 1024 * 1024 });
    const started = Date.now();
    const err = (await dl.download(server.url, { md5: md5(body) }).catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_DOWNLOAD_TOO_LARGE');
    expect(err.message).toMatch(/more than 1048576 bytes/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(server.requests).toHaveLength(1); // not retried
    expect(fs.existsSync(dl.partPath) || fs.existsSync(dl.statePath) || fs.existsSync(dl.dest)).toBe(false);
  });

  it('attack: the same endless server is cut at the descriptor size when the download has one', async () => {
    server.endless = true;
    const err = (await make()
      .download(server.url, { md5: md5(body), size: 300_000 })
      .catch((e: unknown) => e)) as OtaError;
    expect(err.code).toBe('OTA_DOWNLOAD_TOO_LARGE');
    expect(err.message).toBe('the server sent more than 300000 bytes, the size the descriptor announced');
  });

  it('refuses a Content-Length above the cap before writing a byte, and a size that differs from the descriptor', async () => {
    const dl = make({ maxBytes: 100_000 });
    const big = (await dl.download(server.url).catch((e: unknown) => e)) as OtaError;
    expect(big.code).toBe('OTA_DOWNLOAD_TOO_LARGE');
    expect(fs.existsSync(dl.partPath)).toBe(false);
    const over = (await make()
      .download(server.url, { size: body.length - 1 })
      .catch((e: unknown) => e)) as OtaError;
    expect(over.code).toBe('OTA_DOWNLOAD_TOO_LARGE');
    const under = (await make()
      .download(server.url, { size: body.length + 1 })
      .catch((e: unknown) => e)) as OtaError;
    expect(under.code).toBe('OTA_DOWNLOAD_PROTOCOL');
    // A chunked body of exactly the descriptor's size completes.
    server.omitLength = true;
    const r = await make().download(server.url, { md5: md5(body), size: body.length });
    expect(r.size).toBe(body.length);
  });

  it('attack: an https download that redirects to http is refused, and the http server never sees a request', async () => {
    const seen: string[] = [];
    const plain = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      res.end(body);
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const port = (plain.address() as AddressInfo).port;
      server.redirectTo = `http://127.0.0.1:${port}/pkg/software.swu`;
      const moved = server.url.replace('/pkg/', '/moved/');
      const err = (await make()
        .download(moved, { md5: md5(body) })
        .catch((e: unknown) => e)) as OtaError;
      expect(err.code).toBe('OTA_DOWNLOAD_REDIRECT');
      expect(err.message).toMatch(/does not follow a redirect to http/);
      expect(server.requests.map((q) => q.status)).toEqual([302]);
      expect(seen).toEqual([]);
      // https to https is still followed.
      server.redirectTo = server.url;
      server.requests = [];
      const r = await make().download(moved, { md5: md5(body) });
      expect(server.requests.map((q) => q.status)).toEqual([302, 200]);
      expect(r.size).toBe(body.length);
    } finally {
      plain.closeAllConnections();
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });

  it('a complete package on disk is used again without a request (declined or battery-blocked updates)', async () => {
    const first = await make().download(server.url, { md5: md5(body) });
    expect(first.cached).toBe(false);
    server.requests = [];
    const dl = make();
    expect(await dl.findComplete(md5(body))).toEqual({ path: first.path, size: body.length, md5: md5(body) });
    expect(await dl.findComplete(md5(body), body.length + 1)).toBeUndefined();
    expect(await dl.findComplete('0'.repeat(32))).toBeUndefined();
    const events: DownloadProgress[] = [];
    const again = await make({ onProgress: (p) => events.push(p) }).download(`${server.url}?sig=new`, {
      md5: md5(body),
    });
    expect(again).toMatchObject({ cached: true, requests: 0, path: first.path, size: body.length });
    expect(server.requests).toEqual([]);
    expect(fs.readFileSync(path.join(work, 'swu.done'), 'utf8')).toBe('done');
    // A UI that follows the progress sees it complete, as after a real download.
    expect(events).toEqual([
      {
        received: body.length,
        total: body.length,
        percent: 100,
        resumedFrom: body.length,
        bytesPerSecond: 0,
      },
    ]);
    expect(fs.readFileSync(path.join(work, 'curl_progress_software'), 'utf8')).toContain('100.0%');

    // A file changed after it was checked is not trusted: downloaded again.
    const fd = fs.openSync(first.path, 'r+');
    fs.writeSync(fd, Buffer.from([0x00]), 0, 1, 5);
    fs.closeSync(fd);
    fs.utimesSync(first.path, new Date(), new Date(Date.now() + 5000));
    expect(await dl.findComplete(md5(body))).toBeUndefined();
    const fresh = await dl.download(server.url, { md5: md5(body) });
    expect(fresh.cached).toBe(false);
    expect(server.requests).toHaveLength(1);

    // Without its record (a crash right after the rename), the file is hashed once and kept.
    fs.rmSync(`${first.path}.json`);
    expect(await dl.findComplete(md5(body))).toMatchObject({ size: body.length });
    expect(fs.existsSync(`${first.path}.json`)).toBe(true);
    await dl.remove();
    expect(fs.existsSync(first.path) || fs.existsSync(`${first.path}.json`)).toBe(false);
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

  it('a script whose only pending work is the wait before a resume runs to the end (exit 0)', async () => {
    server.cuts = [200_000];
    const dest = path.join(work, 'software.swu');
    const script = path.join(work, 'retry.mjs');
    const dist = path.resolve(here, '../dist/index.js');
    fs.writeFileSync(
      script,
      `import { createDownloader } from ${JSON.stringify(dist)};
import fs from 'node:fs';
const [dest, url, ca] = process.argv.slice(2);
const r = await createDownloader({ dest, ca: fs.readFileSync(ca), progressFile: false, doneFile: false, retryDelayMs: 300 }).download(url);
console.log('done', r.requests);
`,
    );
    const r = await exec(process.execPath, [script, dest, server.url, pki.caCert], {
      allowFail: true,
      timeoutMs: 20_000,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('done 2');
    expect(md5(fs.readFileSync(dest))).toBe(md5(body));
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

it('puts the package at the spec path by default: /mnt/udisk/misc/data/<system_dir>/software.swu', () => {
  expect(packagePath('system_a')).toBe('/mnt/udisk/misc/data/system_a/software.swu');
  expect(packagePath('system_b', { baseDir: '/tmp/t' })).toBe('/tmp/t/system_b/software.swu');
  for (const bad of ['', '.', '..', 'a/b', 'a\0b']) {
    expect(() => packagePath(bad)).toThrowError(expect.objectContaining({ code: 'OTA_OPTIONS' }));
  }
  const dl = createDownloader({ systemDir: 'system_a', progressFile: false, doneFile: false });
  expect([dl.dest, dl.partPath, dl.statePath]).toEqual([
    '/mnt/udisk/misc/data/system_a/software.swu',
    '/mnt/udisk/misc/data/system_a/software.swu.part',
    '/mnt/udisk/misc/data/system_a/software.swu.part.json',
  ]);
  expect(createDownloader({ systemDir: 's', baseDir: '/var/ota', progressFile: false }).dest).toBe(
    '/var/ota/s/software.swu',
  );
  expect(() => createDownloader({})).toThrowError(expect.objectContaining({ code: 'OTA_OPTIONS' }));
  expect(() => createDownloader({ dest: '/tmp/x.swu', maxBytes: 0 })).toThrowError(
    expect.objectContaining({ code: 'OTA_OPTIONS' }),
  );
});
