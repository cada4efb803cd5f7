import type { Server } from 'node:net';

/**
 * "Common request headers on every cloud POST" (device-wifi-spec.md, Endpoints B), as the text
 * gives them; the cloud fakes of several workspaces hold requests against this one list.
 */
export const SPEC_CLOUD_POST_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
  'user-agent': 'PSP_DEVICE',
  accept: '*/*',
  'cache-control': 'no-cache',
  'accept-encoding': 'gzip, deflate, br',
  connection: 'keep-alive',
});

/** Starts `server` (an `http.Server` or any `net.Server`) on 127.0.0.1, a free port; resolves its base URL. */
export async function listenLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  return `http://127.0.0.1:${address.port}`;
}
