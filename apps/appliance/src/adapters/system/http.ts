import http from 'node:http';
import { closeServer, listenServer } from '@waved/internal';
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
  const bound = await listenServer(server, { host: options.host, port: options.port });
  return { ...bound, close: () => closeServer(server) };
};
