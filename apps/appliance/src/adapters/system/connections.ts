import type http from 'node:http';
import type { Socket } from 'node:net';

/** Connections per client and in all (the portal's defaults: domain/portal/connections.ts). */
export interface ConnectionLimits {
  perClient: number;
  total: number;
}

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
export function limitConnections(server: http.Server, limits: ConnectionLimits): () => void {
  const { perClient, total } = limits;
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
