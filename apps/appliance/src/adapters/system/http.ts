import http from 'node:http';
import { closeServer, listenServer } from '@waved/internal';
import type { HttpApp, HttpServe, ServerHandle } from '../../core/ports/http.js';
import { limitConnections } from './connections.js';

/**
 * The real `HttpServe`: a node:http server for a fetch-style app (h3), bound to exactly the given
 * address. Short header and request timeouts keep a slow client from holding the server; with
 * `perClient` / `total` limits, connections over them are closed (adapters/system/connections.ts).
 */
export const serveHttp: HttpServe = async (app: HttpApp, options): Promise<ServerHandle> => {
  // h3's node bridge (srvx) is loaded only when a server is started.
  const { toNodeHandler } = await import('h3');
  const limits = options.limits ?? {};
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs ?? 10_000,
      requestTimeout: limits.requestTimeoutMs ?? 30_000,
      keepAliveTimeout: limits.keepAliveTimeoutMs ?? 5_000,
      connectionsCheckingInterval: limits.timeoutCheckMs || undefined,
    },
    toNodeHandler({ fetch: (request: Request) => app.fetch(request) } as never),
  );
  if (limits.perClient !== undefined || limits.total !== undefined) {
    limitConnections(server, {
      perClient: limits.perClient ?? Number.POSITIVE_INFINITY,
      total: limits.total ?? Number.POSITIVE_INFINITY,
    });
  }
  const bound = await listenServer(server, { host: options.host, port: options.port });
  return { ...bound, close: () => closeServer(server) };
};
