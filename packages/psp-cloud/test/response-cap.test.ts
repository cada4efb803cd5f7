// A hostile cloud answers with a huge body. The client reads at most maxResponseBytes (1 MiB by
// default, after decompression), fails with CLOUD_RESPONSE_TOO_LARGE and its memory stays flat.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createCloudClient, createMemoryCredentialStore } from '../src/index.js';

const MB = 1_000_000;
const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server that answers every request with `body`, streamed, counting what it managed to send. */
async function hostile(write: (res: http.ServerResponse, sent: { bytes: number }) => void) {
  const sent = { bytes: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    write(res, sent);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent };
}

/** Streams `total` bytes of a JSON string that never ends, without Content-Length. */
function endless(total: number) {
  return (res: http.ServerResponse, sent: { bytes: number }) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const block = Buffer.alloc(64 * 1024, 'a');
    res.write('{"device_secret":"');
    const pump = () => {
      while (sent.bytes < total) {
        sent.bytes += block.length;
        if (!res.write(block)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end('"}');
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  };
}

async function peakRssDuring<T>(work: () => Promise<T>): Promise<{ result: T | unknown; growthMb: number }> {
  globalThis.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  let result: T | unknown;
  try {
    result = await work();
  } catch (error) {
    result = error;
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { result, growthMb: (peak - base) / MB };
}

const client = (url: string, extra = {}) =>
  createCloudClient({
    baseUrl: url,
    credentials: createMemoryCredentialStore({ serial: 'S', registrationSecret: 'f' }),
    retry: { retries: 0 },
    ...extra,
  });

describe('unbounded cloud responses', () => {
  it('refuses a 300 MB answer to register() with CLOUD_RESPONSE_TOO_LARGE, memory flat', async () => {
    const h = await hostile(endless(300 * MB));
    const c = client(h.url);
    const { result, growthMb } = await peakRssDuring(() => c.register());
    await c.close();
    expect(result).toMatchObject({ code: 'CLOUD_RESPONSE_TOO_LARGE', details: { route: 'register' } });
    // before the cap the process grew by more than 500 MB; the client stopped reading near 1 MiB
    expect(growthMb).toBeLessThan(40);
    expect(h.sent.bytes).toBeLessThan(100 * MB);
  });

  it('refuses at once a body whose Content-Length is over the cap', async () => {
    let wrote = 0;
    const h = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * MB) });
      wrote = 1;
      res.write('{');
    });
    const c = client(h.url);
    await expect(c.register()).rejects.toMatchObject({ code: 'CLOUD_RESPONSE_TOO_LARGE' });
    expect(wrote).toBe(1);
    await c.close();
  });

  it('counts decompressed bytes: a 300 MB gzip bomb is refused', async () => {
    // 300 MB of zeros compress to about 300 kB
    const gz = zlib.createGzip({ level: 9 });
    const parts: Buffer[] = [];
    gz.on('data', (c: Buffer) => parts.push(c));
    const zeros = Buffer.alloc(MB);
    for (let i = 0; i < 300; i++) gz.write(zeros);
    await new Promise((r) => gz.end(r));
    const bomb = Buffer.concat(parts);
    expect(bomb.length).toBeLessThan(2 * MB);
    const h = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const c = client(h.url);
    const { result, growthMb } = await peakRssDuring(() => c.register());
    await c.close();
    expect(result).toMatchObject({ code: 'CLOUD_RESPONSE_TOO_LARGE' });
    expect(growthMb).toBeLessThan(40);
  });

  it('still reads a compressed answer of ordinary size', async () => {
    const body = zlib.brotliCompressSync(Buffer.from(JSON.stringify({ device_secret: 'ds', salt: 'sa' })));
    const h = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
      res.end(body);
    });
    const credentials = createMemoryCredentialStore({ serial: 'S', registrationSecret: 'f' });
    const c = createCloudClient({ baseUrl: h.url, credentials });
    await c.register();
    expect(await credentials.readEntry(0x11a)).toBe('ds');
    await c.close();
  });

  it('reports an answer cut short as a network error, not as a short body', async () => {
    const h = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"device_secret":"ab');
      setTimeout(() => res.destroy(), 20);
    });
    const c = client(h.url);
    await expect(c.register()).rejects.toMatchObject({
      code: 'CLOUD_NETWORK',
      details: { route: 'register' },
    });
    await c.close();
  });

  it('honours a smaller maxResponseBytes', async () => {
    const h = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ device_secret: 'x'.repeat(2000), salt: 's' }));
    });
    const c = client(h.url, { maxResponseBytes: 1000 });
    await expect(c.register()).rejects.toMatchObject({ code: 'CLOUD_RESPONSE_TOO_LARGE' });
    await c.close();
  });
});
