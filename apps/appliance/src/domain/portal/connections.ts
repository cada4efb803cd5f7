import type http from 'node:http';
import type { Socket } from 'node:net';

/**
 * Connection limits of the portal's HTTP server. Anyone on the setup network can open connections
 * and send their headers one byte at a time; without limits a few hundred of them use up the
 * process's file descriptors and every other phone's request fails.
 */
export interface ConnectionLimits {
  /** Connections from one address at once (a browser opens about 6). Default 16. */
  perClient?: number;
  /** Connections in all. Default 128, well below a device's usual 1024 descriptors. */
  total?: number;
}

export const PORTAL_MAX_CONNECTIONS_PER_CLIENT = 16;
export const PORTAL_MAX_CONNECTIONS = 128;
/** The whole header block must arrive within this time (slowloris). */
export const PORTAL_HEADERS_TIMEOUT_MS = 5_000;
/** The whole request (headers and a body of at most 32 KiB) must arrive within this time. */
export const PORTAL_REQUEST_TIMEOUT_MS = 15_000;
/** How often Node looks for connections past those timeouts (its default is 30 s). */
export const PORTAL_TIMEOUT_CHECK_MS = 1_000;

interface Tracked {
  socket: Socket;
  address: string;
  /** A request is being answered on it (never evicted then). */
  busy: boolean;
}

/**
 * Applies the limits to `server`. A connection over the per-client limit is closed at once. When
 * the total is reached, the oldest connection that is not answering a request (one still sending
 * its headers, or an idle keep-alive) is closed to make room; if every connection is busy, the new
 * one is closed. So one address cannot take every place, and many addresses cannot keep a phone's
 * request out for longer than the header timeout.
 */
export function limitConnections(server: http.Server, limits: ConnectionLimits = {}): () => void {
  const perClient = limits.perClient ?? PORTAL_MAX_CONNECTIONS_PER_CLIENT;
  const total = limits.total ?? PORTAL_MAX_CONNECTIONS;
  /** In arrival order (a Map keeps insertion order). */
  const open = new Map<Socket, Tracked>();
  const byAddress = new Map<string, number>();

  const forget = (socket: Socket) => {
    const t = open.get(socket);
    if (!t) return;
    open.delete(socket);
    const n = (byAddress.get(t.address) ?? 1) - 1;
    if (n <= 0) byAddress.delete(t.address);
    else byAddress.set(t.address, n);
  };

  const onConnection = (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if ((byAddress.get(address) ?? 0) >= perClient) {
      socket.destroy();
      return;
    }
    if (open.size >= total) {
      let victim: Tracked | undefined;
      for (const t of open.values()) {
        if (!t.busy) {
          victim = t;
          break;
        }
      }
      if (!victim) {
        socket.destroy();
        return;
      }
      forget(victim.socket);
      victim.socket.destroy();
    }
    open.set(socket, { socket, address, busy: false });
    byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
    socket.once('close', () => forget(socket));
  };

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const t = open.get(req.socket);
    if (!t) return;
    t.busy = true;
    res.once('close', () => {
      t.busy = false;
    });
  };

  server.on('connection', onConnection);
  server.on('request', onRequest);
  return () => {
    server.off('connection', onConnection);
    server.off('request', onRequest);
  };
}
