// A TCP proxy for upload tests: it limits the rate of each direction (a slow link) and can cut the
// connection at a chosen moment, the way a lost Wi-Fi link does.
import net from 'node:net';

export type Direction = 'up' | 'down';

export interface ProxyOptions {
  /** Upstream port on 127.0.0.1. */
  target: number;
  /** Bytes per second in each direction (default: no limit). */
  bytesPerSecond?: number;
  /**
   * Asked before each chunk is forwarded: `cut` destroys both sides, `drop` swallows the chunk and
   * everything after it on that connection (a link that stops carrying bytes).
   */
  decide?(dir: Direction, chunk: Buffer, totalBefore: number): 'cut' | 'drop' | undefined;
}

export interface Proxy {
  port: number;
  url: string;
  /** Bytes forwarded per direction, over every connection. */
  forwarded: Record<Direction, number>;
  connections: number;
  close(): Promise<void>;
}

export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const sockets = new Set<net.Socket>();
  const forwarded: Record<Direction, number> = { up: 0, down: 0 };
  const proxy: Proxy = {
    port: 0,
    url: '',
    forwarded,
    connections: 0,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
  const server = net.createServer((client) => {
    proxy.connections++;
    const upstream = net.connect(options.target, '127.0.0.1');
    sockets.add(client).add(upstream);
    const gone = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', gone).on('close', gone);
    upstream.on('error', gone).on('close', gone);
    const pipe = (dir: Direction, from: net.Socket, to: net.Socket) => {
      let nextFree = 0;
      let dropping = false;
      from.on('data', (chunk: Buffer) => {
        if (dropping) return;
        const verdict = options.decide?.(dir, chunk, forwarded[dir]);
        if (verdict === 'cut') return gone();
        if (verdict === 'drop') {
          dropping = true;
          return;
        }
        const rate = options.bytesPerSecond;
        if (!rate) {
          forwarded[dir] += chunk.length;
          if (!to.write(chunk)) {
            from.pause();
            to.once('drain', () => from.resume());
          }
          return;
        }
        // token bucket: this chunk may leave when the link has carried the previous ones
        const now = Date.now();
        const at = Math.max(now, nextFree);
        nextFree = at + (chunk.length / rate) * 1000;
        from.pause();
        setTimeout(() => {
          if (to.destroyed) return;
          forwarded[dir] += chunk.length;
          to.write(chunk, () => from.resume());
        }, at - now);
      });
    };
    pipe('up', client, upstream);
    pipe('down', upstream, client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.port = (server.address() as net.AddressInfo).port;
  proxy.url = `http://127.0.0.1:${proxy.port}`;
  return proxy;
}
