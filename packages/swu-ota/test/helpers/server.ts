import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Served {
  body: Buffer;
  etag: string | undefined;
}

export interface SeenRequest {
  range: string | undefined;
  ifRange: string | undefined;
  status: number;
}

export interface PackageServer {
  url: string;
  /** What is served now; change it to simulate a new upload. */
  current: Served;
  /** Ignore Range and always answer 200 with the whole body. */
  ignoreRange: boolean;
  /**
   * Absolute offsets, used in order: a request whose body would pass the next offset closes its
   * connection there (a cut at or before the request's start is skipped).
   */
  cuts: number[];
  /** Delay between 16 KiB writes (slow server). */
  throttleMs: number;
  /** Send no Content-Length (chunked transfer coding). */
  omitLength: boolean;
  /** A hostile server: 200 without Content-Length, random bytes until the client hangs up. */
  endless: boolean;
  /** Answer requests for paths under `/moved/` with this redirect (302 Location). */
  redirectTo: string | undefined;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** An HTTPS server on loopback that serves one package with Range/If-Range and can misbehave. */
export async function startPackageServer(cert: string, key: string, served: Served): Promise<PackageServer> {
  const state: Omit<PackageServer, 'url' | 'close'> = {
    current: served,
    ignoreRange: false,
    cuts: [],
    throttleMs: 0,
    omitLength: false,
    endless: false,
    redirectTo: undefined,
    requests: [],
  };
  const server = https.createServer(
    { cert: fs.readFileSync(cert), key: fs.readFileSync(key) },
    (req, res) => {
      const { body, etag } = state.current;
      const range = req.headers.range;
      const ifRange = req.headers['if-range'] as string | undefined;
      let start = 0;
      let status = 200;
      const m = /^bytes=(\d+)-$/.exec(range ?? '');
      if (m && !state.ignoreRange && (ifRange === undefined || ifRange === etag)) {
        start = Number(m[1]);
        status = start >= body.length ? 416 : 206;
      }
      if (state.redirectTo !== undefined && req.url?.startsWith('/moved/')) {
        state.requests.push({ range, ifRange, status: 302 });
        res.writeHead(302, { Location: state.redirectTo });
        res.end();
        return;
      }
      if (state.endless) {
        state.requests.push({ range, ifRange, status: 200 });
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 0x5a);
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', more);
        };
        res.once('close', () => res.removeAllListeners('drain'));
        more();
        return;
      }
      state.requests.push({ range, ifRange, status });
      const headers: Record<string, string | number> = { 'Content-Type': 'application/octet-stream' };
      if (etag) headers.ETag = etag;
      if (status === 416) {
        res.writeHead(416, { 'Content-Range': `bytes */${body.length}` });
        res.end();
        return;
      }
      if (status === 206) headers['Content-Range'] = `bytes ${start}-${body.length - 1}/${body.length}`;
      if (!state.omitLength) headers['Content-Length'] = body.length - start;
      res.writeHead(status, headers);
      while (state.cuts.length > 0 && state.cuts[0]! <= start) state.cuts.shift();
      const cut = state.cuts.shift();
      const end = cut === undefined ? body.length : Math.min(body.length, cut);
      let pos = start;
      const step = () => {
        if (res.destroyed) return;
        if (pos >= end) {
          if (end < body.length) res.socket?.end();
          else res.end();
          return;
        }
        const next = Math.min(end, pos + 16 * 1024);
        const ok = res.write(body.subarray(pos, next));
        pos = next;
        if (state.throttleMs > 0) setTimeout(step, state.throttleMs);
        else if (ok) setImmediate(step);
        else res.once('drain', step);
      };
      step();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `https://127.0.0.1:${port}/pkg/software.swu`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
