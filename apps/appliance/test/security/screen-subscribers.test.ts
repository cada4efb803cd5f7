import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@waved/test-lab';
import { toNodeHandler } from 'h3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { StateBus } from '../../src/core/bus.js';
import {
  createScreenPage,
  createScreens,
  MAX_SCREEN_SUBSCRIBERS,
  type Screens,
} from '../../src/domain/screens/index.js';

/**
 * Attack: a client opens event streams on the screen page without end. Each stream renders every
 * view with its QR code, so the device would spend its time and memory on them. Only a few streams
 * are served at once; the others are told to come back, and a closed stream frees its place.
 */
let screens: Screens;
let server: http.Server;
let port: number;

beforeEach(async () => {
  screens = createScreens({ bus: new StateBus() });
  server = http.createServer(toNodeHandler(createScreenPage({ screens })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterEach(async () => {
  screens.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Opens /events on a connection of its own; resolves with the status and the request to abort. */
function open(): Promise<{ status: number; req: http.ClientRequest; res: http.IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/events', agent: false }, (res) =>
      resolve({ status: res.statusCode ?? 0, req, res }),
    );
    req.on('error', reject);
  });
}

it(`serves at most ${MAX_SCREEN_SUBSCRIBERS} event streams; the rest get 503 until one closes`, async () => {
  const opened = [];
  for (let i = 0; i < 40; i++) opened.push(await open());
  const statuses = opened.map((o) => o.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_SCREEN_SUBSCRIBERS);
  expect(statuses.filter((s) => s === 503)).toHaveLength(40 - MAX_SCREEN_SUBSCRIBERS);
  expect(statuses.slice(0, MAX_SCREEN_SUBSCRIBERS).every((s) => s === 200)).toBe(true);
  const refused = opened[MAX_SCREEN_SUBSCRIBERS]!.res;
  expect(refused.headers['retry-after']).toBe('5');
  for (const o of opened.slice(MAX_SCREEN_SUBSCRIBERS)) o.req.destroy();

  // A page that goes away frees its place.
  opened[0]!.req.destroy();
  const again = await waitFor(
    async () => {
      const o = await open();
      if (o.status === 200) return o;
      o.req.destroy();
      return null;
    },
    { timeoutMs: 5_000, what: 'a free place after one stream closed' },
  );
  expect(again.status).toBe(200);
  again.req.destroy();
  for (const o of opened.slice(1, MAX_SCREEN_SUBSCRIBERS)) o.req.destroy();
});
