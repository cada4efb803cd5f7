import type { Server } from 'node:net';

/** Where a server listens: the shape `listen()` resolves to in every waved package. */
export interface Listening {
  address: string;
  port: number;
  /** `<protocol>://<address>:<port>/`, with IPv6 addresses in brackets. */
  url: string;
}

export interface ListenOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port, reported in the result. */
  port?: number;
  /** Scheme of `url` (default `http`). */
  protocol?: string;
}

/** The URL of a listening address: `http://127.0.0.1:8080/`, `http://[::1]:8080/`. */
export function formatUrl(protocol: string, address: string, port: number): string {
  const host = address.includes(':') ? `[${address}]` : address;
  return `${protocol}://${host}:${port}/`;
}

/**
 * Binds `server` and resolves with where it listens. A bind error (EADDRINUSE, EACCES,
 * EADDRNOTAVAIL) rejects with the system's error, its code intact, and leaves nothing bound.
 */
export function listenServer(server: Server, options: ListenOptions = {}): Promise<Listening> {
  const { host = '127.0.0.1', port = 0, protocol = 'http' } = options;
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      const bound = server.address();
      if (bound === null || typeof bound === 'string') {
        reject(new Error(`the server is not bound to an IP address (${String(bound)})`));
        return;
      }
      resolve({
        address: bound.address,
        port: bound.port,
        url: formatUrl(protocol, bound.address, bound.port),
      });
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port });
  });
}

/**
 * Stops `server`: no new connections, open ones closed (HTTP servers' idle and active connections
 * too), resolved once it is closed. Idempotent: closing a closed or never-started server resolves.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    const http = server as Server & { closeAllConnections?: () => void };
    http.closeAllConnections?.();
  });
}
