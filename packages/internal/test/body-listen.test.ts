import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeServer, formatUrl, listenServer, readLimitedBody } from '../src/index.js';

const streamOf = (chunks: Uint8Array[], fail = false) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      if (fail) controller.error(new Error('connection reset'));
      else controller.close();
    },
  });

describe('readLimitedBody', () => {
  it('reads a body within the limit', async () => {
    const r = await readLimitedBody(new Request('http://x/', { method: 'POST', body: 'a=1&b=2' }), 32);
    expect(r).toEqual({ ok: true, body: new TextEncoder().encode('a=1&b=2') });
  });

  it('refuses a declared Content-Length over the limit before reading', async () => {
    let pulled = false;
    const body = new ReadableStream<Uint8Array>({
      pull() {
        pulled = true;
      },
    });
    const r = await readLimitedBody({ headers: new Headers({ 'content-length': '33' }), body }, 32);
    expect(r).toEqual({ ok: false, reason: 'too-large' });
    expect(pulled).toBe(false);
  });

  it('stops reading a body that lies about its length or sends none', async () => {
    const seen: number[] = [];
    const chunks = [new Uint8Array(20), new Uint8Array(20), new Uint8Array(1_000_000)];
    const r = await readLimitedBody(
      { headers: new Headers({ 'content-length': '10' }), body: streamOf(chunks) },
      32,
      (c) => seen.push(c.byteLength),
    );
    expect(r).toEqual({ ok: false, reason: 'too-large' });
    expect(seen).toEqual([20]);
  });

  it('tells an aborted body from a large one', async () => {
    const r = await readLimitedBody(
      { headers: new Headers(), body: streamOf([new Uint8Array(3)], true) },
      32,
    );
    expect(r).toEqual({ ok: false, reason: 'aborted' });
    expect(await readLimitedBody({ headers: new Headers(), body: null }, 32)).toEqual({
      ok: true,
      body: new Uint8Array(0),
    });
  });
});

describe('listenServer / closeServer', () => {
  it('resolves { address, port, url } and close() is idempotent', async () => {
    const server = http.createServer((_q, s) => s.end('hi'));
    const where = await listenServer(server, { host: '127.0.0.1', port: 0 });
    expect(where.address).toBe('127.0.0.1');
    expect(where.url).toBe(`http://127.0.0.1:${where.port}/`);
    expect(await (await fetch(where.url)).text()).toBe('hi');
    await closeServer(server);
    await closeServer(server);
    await expect(fetch(where.url)).rejects.toThrow();
  });

  it('closes open keep-alive connections too', async () => {
    const server = http.createServer((_q, s) => s.end('hi'));
    const { port } = await listenServer(server);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const closed = new Promise((r) => socket.once('close', r));
    await closeServer(server);
    await closed;
  });

  it('rejects with the system error code when the port is taken, leaving nothing bound', async () => {
    const a = net.createServer();
    const { port } = await listenServer(a);
    const b = net.createServer();
    await expect(listenServer(b, { port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(b.listening).toBe(false);
    await closeServer(a);
  });

  it('formats IPv6 addresses in brackets', () => {
    expect(formatUrl('http', '::1', 80)).toBe('http://[::1]:80/');
    expect(formatUrl('https', '192.168.2.1', 443)).toBe('https://192.168.2.1:443/');
  });
});
