import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpApp, HttpServe, ServerHandle } from '../../core/ports/http.js';

/**
 * The real `HttpServe`: a node:http server for a fetch-style app (h3), bound to exactly the given
 * address. Short header and request timeouts keep a slow client from holding the server.
 */
export const serveHttp: HttpServe = async (app: HttpApp, options): Promise<ServerHandle> => {
  // h3's node bridge (srvx) is loaded only when a server is started.
  const { toNodeHandler } = await import('h3');
  const server = http.createServer(
    toNodeHandler({ fetch: (request: Request) => app.fetch(request) } as never),
  );
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | null = null;
  return {
    address: address.address,
    port: address.port,
    url: `http://${shown}:${address.port}/`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
};
