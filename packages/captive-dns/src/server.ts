// The UDP and TCP listeners around the responder. Nothing thrown by a packet leaves a socket
// handler: every handler body is guarded, and what it could not handle is counted in stats().
import dgram from 'node:dgram';
import net from 'node:net';
import { CaptiveDnsError } from './errors.js';
import { createRateLimiter, type RateLimiter, type RateLimitOptions } from './rate-limit.js';
import {
  type CaptiveDnsCounters,
  type CaptiveDnsResponderOptions,
  createCaptiveDnsResponder,
} from './responder.js';
import { createFrameDecoder, encodeFrame } from './tcp-frames.js';

/** Structured logger; any of pino, console or a custom object fits. Never receives packet payloads. */
export interface CaptiveDnsLogger {
  info?(message: string, details?: Record<string, unknown>): void;
  warn?(message: string, details?: Record<string, unknown>): void;
  error?(message: string, details?: Record<string, unknown>): void;
}

export interface CaptiveDnsTcpOptions {
  /** Close a connection with no complete query for this long (RFC 7766 §6.2.3); default 10 000. */
  idleTimeoutMs?: number;
  /** Most simultaneous connections; further ones are refused and counted; default 64. */
  maxConnections?: number;
}

export interface CaptiveDnsOptions extends CaptiveDnsResponderOptions {
  /** IP literal to bind; default `127.0.0.1`. On the appliance: `192.168.2.1` (the AP address). */
  address?: string;
  /** UDP (and TCP) port; default 53; 0 picks a free port, reported by `listen()`. */
  port?: number;
  /** Serve DNS over TCP on the same port (default true). */
  tcp?: boolean | CaptiveDnsTcpOptions;
  /** Per-source rate limit (default 200 queries/s, burst 400, 4096 sources); `false` turns it off. */
  rateLimit?: false | RateLimitOptions;
  logger?: CaptiveDnsLogger;
  /** Monotonic milliseconds, for the rate limit; default `performance.now`. */
  now?: () => number;
}

export interface CaptiveDnsStats extends CaptiveDnsCounters {
  udpQueries: number;
  tcpQueries: number;
  /** Queries dropped by the per-source rate limit. */
  rateLimited: number;
  /** Source addresses the rate limiter tracks now (bounded by maxSources). */
  sourcesTracked: number;
  tcpAccepted: number;
  /** Connections refused because maxConnections were open. */
  tcpRejected: number;
  tcpIdleClosed: number;
  tcpOpen: number;
  /** Datagrams from source port 0 (spoofed or broken), dropped: there is nowhere to reply. */
  sourcePortZero: number;
  /** Exceptions caught in a handler (expected to stay 0). */
  handlerErrors: number;
  /** Errors reported by a socket (send failures, resets). */
  socketErrors: number;
}

export interface CaptiveDns {
  /**
   * Binds UDP (and TCP); resolves with the bound address and port. Rejects with CAPTIVE_DNS_LISTEN,
   * after which listen() may be called again.
   */
  listen(): Promise<{ address: string; port: number }>;
  /** Closes the sockets and every TCP connection. Safe to call more than once. */
  close(): Promise<void>;
  stats(): CaptiveDnsStats;
}

const DEFAULT_IDLE_MS = 10_000;
const DEFAULT_MAX_CONNECTIONS = 64;
const PORT_RETRIES = 8;
const ERROR_LOG_INTERVAL_MS = 10_000;

// Replies go back to the literal address a packet came from: resolve it to itself, synchronously,
// instead of dgram's default lookup, which tests the address and defers every send by a tick.
function literalLookup4(
  address: string,
  _family: unknown,
  callback: (error: Error | null, address: string, family: number) => void,
): void {
  callback(null, address, 4);
}

function literalLookup6(
  address: string,
  _family: unknown,
  callback: (error: Error | null, address: string, family: number) => void,
): void {
  callback(null, address, 6);
}

function validatePort(port: unknown): number {
  if (!Number.isInteger(port) || (port as number) < 0 || (port as number) > 65535) {
    throw new CaptiveDnsError('CAPTIVE_DNS_OPTIONS', `port must be an integer from 0 to 65535, got ${port}`);
  }
  return port as number;
}

export function createCaptiveDns(options: CaptiveDnsOptions): CaptiveDns {
  const responder = createCaptiveDnsResponder(options);
  const address = options.address ?? '127.0.0.1';
  if (net.isIP(address) === 0) {
    throw new CaptiveDnsError(
      'CAPTIVE_DNS_OPTIONS',
      `address must be an IP literal, got ${JSON.stringify(address)}`,
    );
  }
  const requestedPort = validatePort(options.port ?? 53);
  const tcpOptions: CaptiveDnsTcpOptions | null =
    options.tcp === false ? null : options.tcp === true || options.tcp === undefined ? {} : options.tcp;
  const idleMs = tcpOptions?.idleTimeoutMs ?? DEFAULT_IDLE_MS;
  const maxConnections = tcpOptions?.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  if (tcpOptions && (!(idleMs > 0) || !Number.isInteger(maxConnections) || maxConnections < 1)) {
    throw new CaptiveDnsError(
      'CAPTIVE_DNS_OPTIONS',
      'tcp.idleTimeoutMs must be positive and tcp.maxConnections a positive integer',
    );
  }
  const now = options.now ?? (() => performance.now());
  const rl = options.rateLimit;
  const atLeast = (v: number | undefined, min: number) => v === undefined || v >= min; // false for NaN
  if (
    rl &&
    !(atLeast(rl.queriesPerSecond, Number.MIN_VALUE) && atLeast(rl.burst, 1) && atLeast(rl.maxSources, 1))
  ) {
    throw new CaptiveDnsError(
      'CAPTIVE_DNS_OPTIONS',
      'rateLimit.queriesPerSecond must be positive, burst and maxSources at least 1',
    );
  }
  const limiter: RateLimiter | null = rl === false ? null : createRateLimiter(rl ?? {}, now);
  const log = options.logger ?? {};
  const family = net.isIPv6(address) ? 'udp6' : 'udp4';

  const s = {
    udpQueries: 0,
    tcpQueries: 0,
    rateLimited: 0,
    tcpAccepted: 0,
    tcpRejected: 0,
    tcpIdleClosed: 0,
    sourcePortZero: 0,
    handlerErrors: 0,
    socketErrors: 0,
  };
  let state: 'new' | 'listening' | 'closed' = 'new';
  let udp: dgram.Socket | null = null;
  let tcp: net.Server | null = null;
  const connections = new Set<net.Socket>();
  let lastErrorLog = Number.NEGATIVE_INFINITY;

  function handlerError(where: string, error: unknown): void {
    s.handlerErrors++;
    const t = now();
    if (t - lastErrorLog >= ERROR_LOG_INTERVAL_MS) {
      lastErrorLog = t;
      log.error?.('captive-dns: handler error (packet dropped)', {
        where,
        error: error instanceof Error ? error.message : String(error),
        total: s.handlerErrors,
      });
    }
  }

  function onUdpMessage(this: dgram.Socket, msg: Buffer, rinfo: dgram.RemoteInfo): void {
    try {
      s.udpQueries++;
      if (rinfo.port === 0) {
        s.sourcePortZero++; // cannot be answered: port 0 is not a destination
        return;
      }
      if (limiter !== null && !limiter.allow(rinfo.address)) {
        s.rateLimited++;
        return;
      }
      const reply = responder.respond(msg, 'udp');
      if (reply !== null) this.send(reply, rinfo.port, rinfo.address);
    } catch (error) {
      handlerError('udp', error);
    }
  }

  function onConnection(sock: net.Socket): void {
    try {
      s.tcpAccepted++;
      connections.add(sock);
      const source = sock.remoteAddress ?? '';
      const decoder = createFrameDecoder();
      sock.setNoDelay(true);
      // The idle timer restarts only when a whole query arrives, so a client trickling bytes of a
      // frame that never completes (slowloris) is closed as well.
      const idle = setTimeout(() => {
        s.tcpIdleClosed++;
        sock.destroy();
      }, idleMs);
      sock.on('error', () => {
        s.socketErrors++;
      });
      sock.on('close', () => {
        clearTimeout(idle);
        connections.delete(sock);
      });
      sock.on('drain', () => sock.resume());
      sock.on('data', (chunk: Buffer) => {
        try {
          for (const message of decoder.push(chunk)) {
            s.tcpQueries++;
            idle.refresh();
            if (limiter !== null && !limiter.allow(source)) {
              s.rateLimited++;
              continue;
            }
            const reply = responder.respond(message, 'tcp');
            if (reply === null) {
              // Not even a header, or a response: nothing sensible can follow (RFC 7766 §6.2.4).
              sock.destroy();
              return;
            }
            if (!sock.write(encodeFrame(reply))) sock.pause(); // the peer is not reading: stop too
          }
        } catch (error) {
          handlerError('tcp', error);
          sock.destroy();
        }
      });
    } catch (error) {
      handlerError('tcp-accept', error);
      sock.destroy();
    }
  }

  function bindUdp(port: number): Promise<dgram.Socket> {
    return new Promise((resolve, reject) => {
      const sock = dgram.createSocket({
        type: family,
        lookup: (family === 'udp6' ? literalLookup6 : literalLookup4) as never,
      });
      const onError = (error: Error) => {
        sock.close();
        reject(error);
      };
      sock.once('error', onError);
      sock.bind({ address, port, exclusive: true }, () => {
        sock.off('error', onError);
        resolve(sock);
      });
    });
  }

  function bindTcp(port: number): Promise<net.Server> {
    return new Promise((resolve, reject) => {
      const server = net.createServer(onConnection);
      server.maxConnections = maxConnections;
      const onError = (error: Error) => {
        server.close();
        reject(error);
      };
      server.once('error', onError);
      server.listen({ host: address, port, exclusive: true }, () => {
        server.off('error', onError);
        resolve(server);
      });
    });
  }

  function closeUdp(sock: dgram.Socket): Promise<void> {
    return new Promise((resolve) => {
      try {
        sock.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }

  async function listen(): Promise<{ address: string; port: number }> {
    if (state !== 'new') {
      throw new CaptiveDnsError('CAPTIVE_DNS_STATE', `listen() called on a server that is ${state}`);
    }
    state = 'listening';
    let lastError: unknown;
    for (let attempt = 0; attempt < (requestedPort === 0 ? PORT_RETRIES : 1); attempt++) {
      let u: dgram.Socket;
      try {
        u = await bindUdp(requestedPort);
      } catch (error) {
        lastError = error;
        continue;
      }
      const port = u.address().port;
      if (tcpOptions) {
        try {
          tcp = await bindTcp(port);
        } catch (error) {
          // With port 0, the UDP port may be taken on TCP by someone else: pick another pair.
          lastError = error;
          await closeUdp(u);
          continue;
        }
        tcp.on('drop', () => {
          s.tcpRejected++;
        });
        tcp.on('error', (error) => {
          s.socketErrors++;
          log.warn?.('captive-dns: tcp server error', { error: error.message });
        });
      }
      udp = u;
      u.on('message', onUdpMessage);
      u.on('error', (error) => {
        s.socketErrors++;
        log.warn?.('captive-dns: udp socket error', { error: error.message });
      });
      if (state !== 'listening') {
        // close() ran while we were binding.
        await close();
        throw new CaptiveDnsError('CAPTIVE_DNS_STATE', 'the server was closed while listen() was binding');
      }
      log.info?.('captive-dns: listening', { address, port, tcp: tcpOptions !== null });
      return { address, port };
    }
    // Nothing is bound: listen() may be tried again (say, once the AP address is configured).
    if (state === 'listening') state = 'new';
    const reason = lastError instanceof Error ? lastError.message : String(lastError);
    throw new CaptiveDnsError(
      'CAPTIVE_DNS_LISTEN',
      `cannot bind ${address}:${requestedPort} (${reason}); port 53 needs root or CAP_NET_BIND_SERVICE, and the address must be configured on an interface`,
      { cause: lastError },
    );
  }

  async function close(): Promise<void> {
    state = 'closed';
    const u = udp;
    const t = tcp;
    udp = null;
    tcp = null;
    for (const c of connections) c.destroy();
    connections.clear();
    await Promise.all([
      u ? closeUdp(u) : undefined,
      t ? new Promise<void>((resolve) => t.close(() => resolve())) : undefined,
    ]);
  }

  return {
    listen,
    close,
    stats: () => ({
      ...responder.counters(),
      ...s,
      sourcesTracked: limiter?.size() ?? 0,
      tcpOpen: connections.size,
    }),
  };
}
