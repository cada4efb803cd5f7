import http from 'node:http';
import net from 'node:net';
import { expect, it } from 'vitest';
import { listenLoopback } from '../src/index.js';

it('listenLoopback serves on 127.0.0.1 at the URL it resolves', async () => {
  const server = http.createServer((_req, res) => res.end('here'));
  const url = await listenLoopback(server);
  try {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(url)).text()).toBe('here');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

it('listenLoopback rejects when the server cannot listen', async () => {
  const server = net.createServer();
  await listenLoopback(server);
  try {
    // a server that already listens cannot listen again
    await expect(listenLoopback(server)).rejects.toThrow();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
