// The UDP and TCP listeners around the responder. Nothing thrown by a packet leaves a socket
// handler: every handler body is guarded, and what it could not handle is counted in stats().
import dgram from 'node:dgram';
import net from 'node:net';
import { getSystemErrorName } from 'node:util';
import { type Clock, formatUrl, type Listening, type Logger, monotonicClock } from '@waved/internal';
import { CaptiveDnsError } from './errors.js';
import { loadNativeUdp, type NativeUdpBinding, type NativeUdpHandle } from './native.js';
import { createRateLimiter, type RateLimiter, type RateLimitOptions } from './rate-limit.js';
import {
  type CaptiveDnsCounters,
  type CaptiveDnsResponderOptions,
  createCaptiveDnsResponder,
} from './responder.js';
import { createFrameDecoder, encodeFrame } from './tcp-frames.js';

/** @deprecated The shared `Logger` shape (the same optional levels, plus `debug`); this alias goes in 1.0. */
export type CaptiveDnsLogger = Logger;

export interface CaptiveDnsTcpOptions {
  /** Close a connection with no complete query for this long (RFC 7766 §6.2.3); default 10 000. */
  idleTimeoutMs?: number;
  /** Most simultaneous connections; further ones are refused and counted; default 64. */
  maxConnections?: number;
  /**
   * Most simultaneous connections from one source address; further ones from it are closed at once
   * and counted in `tcpSourceRejected`, so one client cannot hold every slot; default 8.
   */
  maxConnectionsPerSource?: number;
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
  /** Any `{ debug?, info?, warn?, error? }` logger (console, pino, consola). Never gets packet contents. */
  logger?: Logger;
  /**
   * The shared `Clock`, read by the rate limit and the error-log throttle and running the TCP idle
   * timers. Default: a clock that never steps (`performance.timeOrigin + performance.now()`), so
   * setting the system time does not refill or drain the rate limit.
   */
  clock?: Clock;
  /** @deprecated Pass `clock` instead; this alias goes in 1.0. Monotonic milliseconds, read in place of `clock.now()`. */
  now?: () => number;
  /**
   * How UDP is served. `'batch'`: the prebuilt native transport of @waved/native (IPv4 only; many datagrams
   * per system call and per call into JavaScript); `'dgram'`: node:dgram; `'auto'` (default):
   * `'batch'` when the addon loads and `address` is IPv4, else `'dgram'`. TCP always uses node:net.
   */
  transport?: CaptiveDnsTransportOption;
}

export type CaptiveDnsTransportOption = 'auto' | 'dgram' | 'batch';
/** The UDP transport a server uses, decided by createCaptiveDns(). */
export type CaptiveDnsTransport = 'dgram' | 'batch';

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
  /** Connections closed at once because their source already held maxConnectionsPerSource. */
  tcpSourceRejected: number;
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
   * Binds UDP (and TCP); resolves with the bound address, port and `url` (`dns://127.0.0.1:5353/`).
   * Rejects with CAPTIVE_DNS_LISTEN, after which listen() may be called again.
   */
  listen(): Promise<Listening>;
  /** Closes the sockets and every TCP connection. Safe to call more than once. */
  close(): Promise<void>;
  stats(): CaptiveDnsStats;
  /** The UDP transport in use: `'batch'` (native) or `'dgram'`. */
  readonly transport: CaptiveDnsTransport;
}

/**
 * Whether the native batch transport can be used in this process, and if not, why (no prebuild
 * of @waved/native for this platform, or it does not load here).
 */
export function nativeUdpTransport(): { available: boolean; reason: string } {
  const { binding, reason } = loadNativeUdp();
  return { available: binding !== null, reason };
}

/** A bound UDP socket of either transport. */
interface UdpListener {
  readonly port: number;
  close(): Promise<void>;
  /** What the native side counted: send and receive errors, exceptions out of the batch callback. */
  nativeErrors(): { socket: number; handler: number };
}

const DEFAULT_IDLE_MS = 10_000;
const DEFAULT_MAX_CONNECTIONS = 64;
const DEFAULT_MAX_CONNECTIONS_PER_SOURCE = 8;
const PORT_RETRIES = 8;
const ERROR_LOG_INTERVAL_MS = 10_000;
const EMPTY = Buffer.alloc(0);
const TRANSPORTS: readonly CaptiveDnsTransportOption[] = ['auto', 'dgram', 'batch'];

function chooseTransport(
  option: unknown,
  address: string,
): { kind: CaptiveDnsTransport; native: NativeUdpBinding | null } {
  if (!TRANSPORTS.includes(option as CaptiveDnsTransportOption)) {
    throw new CaptiveDnsError(
      'CAPTIVE_DNS_OPTIONS',
      `transport must be 'auto', 'dgram' or 'batch', got ${JSON.stringify(option)}`,
    );
  }
  if (option === 'dgram') return { kind: 'dgram', native: null };
  const ipv4 = net.isIPv4(address);
  const { binding, reason } = loadNativeUdp();
  if (option === 'batch') {
    if (!ipv4) {
      throw new CaptiveDnsError(
        'CAPTIVE_DNS_OPTIONS',
        `transport 'batch' serves IPv4 only, and address is ${address}`,
      );
    }
    if (binding === null) {
      throw new CaptiveDnsError(
        'CAPTIVE_DNS_TRANSPORT',
        `transport 'batch' is not available here: ${reason}`,
      );
    }
  }
  return ipv4 && binding !== null ? { kind: 'batch', native: binding } : { kind: 'dgram', native: null };
}

/** Dotted quad of an IPv4 address held in an int32 (host order). */
function ipv4String(ip: number): string {
  return `${ip >>> 24}.${(ip >>> 16) & 255}.${(ip >>> 8) & 255}.${ip & 255}`;
}

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

/** `clock`, or the deprecated `now` on the default clock's timers. */
function clockOf(options: Pick<CaptiveDnsOptions, 'clock' | 'now'>): Clock {
  if (options.clock) return options.clock;
  const now = options.now;
  return now ? { ...monotonicClock, now: () => now() } : monotonicClock;
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
  const maxPerSource =
    tcpOptions?.maxConnectionsPerSource ?? Math.min(DEFAULT_MAX_CONNECTIONS_PER_SOURCE, maxConnections);
  if (
    tcpOptions &&
    (!(idleMs > 0) ||
      !Number.isInteger(maxConnections) ||
      maxConnections < 1 ||
      !Number.isInteger(maxPerSource) ||
      maxPerSource < 1)
  ) {
    throw new CaptiveDnsError(
      'CAPTIVE_DNS_OPTIONS',
      'tcp.idleTimeoutMs must be positive, tcp.maxConnections and tcp.maxConnectionsPerSource positive integers',
    );
  }
  const clock = clockOf(options);
  const now = () => clock.now();
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
  const { kind, native } = chooseTransport(options.transport ?? 'auto', address);

  const s = {
    udpQueries: 0,
    tcpQueries: 0,
    rateLimited: 0,
    tcpAccepted: 0,
    tcpRejected: 0,
    tcpSourceRejected: 0,
    tcpIdleClosed: 0,
    sourcePortZero: 0,
    handlerErrors: 0,
    socketErrors: 0,
  };
  let state: 'new' | 'listening' | 'closed' = 'new';
  let udp: UdpListener | null = null;
  let tcp: net.Server | null = null;
  const connections = new Set<net.Socket>();
  /** Open connections per source address (entries removed at zero, so at most maxConnections). */
  const perSource = new Map<string, number>();
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
      const source = sock.remoteAddress ?? '';
      const held = perSource.get(source) ?? 0;
      if (held >= maxPerSource) {
        // One source may not hold every slot with idle connections (slowloris from one client).
        s.tcpSourceRejected++;
        sock.on('error', () => {});
        sock.destroy();
        return;
      }
      perSource.set(source, held + 1);
      s.tcpAccepted++;
      connections.add(sock);
      // The idle timer restarts only when a whole query arrives, so a client trickling bytes of a
      // frame that never completes (slowloris) is closed as well.
      const onIdle = () => {
        s.tcpIdleClosed++;
        sock.destroy();
      };
      let idle = clock.setTimeout(onIdle, idleMs);
      sock.on('close', () => {
        clock.clearTimeout(idle);
        connections.delete(sock);
        const left = (perSource.get(source) ?? 1) - 1;
        if (left > 0) perSource.set(source, left);
        else perSource.delete(source);
      });
      sock.on('error', () => {
        s.socketErrors++;
      });
      const decoder = createFrameDecoder();
      sock.setNoDelay(true);
      sock.on('drain', () => sock.resume());
      sock.on('data', (chunk: Buffer) => {
        try {
          for (const message of decoder.push(chunk)) {
            s.tcpQueries++;
            clock.clearTimeout(idle);
            idle = clock.setTimeout(onIdle, idleMs);
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

  function bindUdp(port: number): Promise<UdpListener> {
    return native === null ? bindDgram(port) : Promise.resolve(bindBatch(native, port));
  }

  // The native transport calls onBatch once per recvmmsg with the count of datagrams in the shared
  // buffers; the replies written to `out` (and their lengths to meta) go out in one sendmmsg.
  function bindBatch(binding: NativeUdpBinding, port: number): UdpListener {
    let handle: NativeUdpHandle | null = null;
    let meta: Int32Array = new Int32Array(0);
    let input: Buffer = EMPTY;
    let output: Buffer = EMPTY;
    let slot = 0;
    let errorsSeen = 0;
    let lastSocketErrorLog = Number.NEGATIVE_INFINITY;
    // Sources usually come in runs: keep the string of the last one.
    let lastIp = 0;
    let lastAddress = '0.0.0.0';
    const onBatch = (count: number): void => {
      for (let i = 0; i < count; i++) {
        try {
          s.udpQueries++;
          const at = i * 4;
          const length = meta[at]!;
          if (meta[at + 2] === 0) {
            s.sourcePortZero++; // cannot be answered: port 0 is not a destination
            continue;
          }
          if (limiter !== null) {
            const ip = meta[at + 1]!;
            if (ip !== lastIp) {
              lastIp = ip;
              lastAddress = ipv4String(ip);
            }
            if (!limiter.allow(lastAddress)) {
              s.rateLimited++;
              continue;
            }
          }
          // A datagram larger than a slot (MSG_TRUNC) is not a DNS query we can read whole: the
          // responder counts it as malformed, as it does any packet shorter than a header.
          const query = length < 0 ? EMPTY : input.subarray(i * slot, i * slot + length);
          const reply = responder.respond(query, 'udp');
          if (reply === null) continue;
          if (reply.length > slot) throw new Error(`a reply of ${reply.length} bytes exceeds a slot`);
          reply.copy(output, i * slot);
          meta[at + 3] = reply.length;
        } catch (error) {
          handlerError('udp', error);
        }
      }
      // Send errors of the previous batch (sendmmsg runs after this callback): counted, and logged
      // at most once per interval.
      const errors = meta[counters]! + meta[counters + 1]!;
      if (errors !== errorsSeen) {
        errorsSeen = errors;
        try {
          const t = now();
          if (t - lastSocketErrorLog >= ERROR_LOG_INTERVAL_MS) {
            lastSocketErrorLog = t;
            const errno = meta[counters + 3]!;
            log.warn?.('captive-dns: udp socket error', {
              error: errno > 0 ? getSystemErrorName(-errno) : 'unknown',
              total: errors,
            });
          }
        } catch {
          s.handlerErrors++; // a throwing clock or logger: counted, never thrown into the addon
        }
      }
    };
    let counters = 0;
    const nativeErrors = () =>
      handle === null
        ? { socket: 0, handler: 0 }
        : { socket: meta[counters]! + meta[counters + 1]!, handler: meta[counters + 2]! };
    const h = binding.open(address, port, onBatch);
    try {
      meta = new Int32Array(h.meta.buffer, h.meta.byteOffset, h.meta.byteLength / 4);
      input = h.inBytes;
      output = h.outBytes;
      slot = h.slot;
      counters = h.batch * 4;
      handle = h;
    } catch (error) {
      binding.close(h);
      throw error;
    }
    return {
      port: h.port,
      nativeErrors,
      close() {
        binding.close(h);
        return Promise.resolve();
      },
    };
  }

  function bindDgram(port: number): Promise<UdpListener> {
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
        sock.on('message', onUdpMessage);
        sock.on('error', (error) => {
          s.socketErrors++;
          log.warn?.('captive-dns: udp socket error', { error: error.message });
        });
        resolve({
          port: sock.address().port,
          nativeErrors: () => ({ socket: 0, handler: 0 }),
          close: () => closeUdp(sock),
        });
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

  async function listen(): Promise<Listening> {
    if (state !== 'new') {
      throw new CaptiveDnsError('CAPTIVE_DNS_STATE', `listen() called on a server that is ${state}`);
    }
    state = 'listening';
    let lastError: unknown;
    for (let attempt = 0; attempt < (requestedPort === 0 ? PORT_RETRIES : 1); attempt++) {
      let u: UdpListener;
      try {
        u = await bindUdp(requestedPort);
      } catch (error) {
        lastError = error;
        continue;
      }
      const port = u.port;
      if (tcpOptions) {
        try {
          tcp = await bindTcp(port);
        } catch (error) {
          // With port 0, the UDP port may be taken on TCP by someone else: pick another pair.
          lastError = error;
          await u.close();
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
      if (state !== 'listening') {
        // close() ran while we were binding.
        await close();
        throw new CaptiveDnsError('CAPTIVE_DNS_STATE', 'the server was closed while listen() was binding');
      }
      log.info?.('captive-dns: listening', { address, port, tcp: tcpOptions !== null, transport: kind });
      return { address, port, url: formatUrl('dns', address, port) };
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
    if (u) {
      const counted = u.nativeErrors();
      s.socketErrors += counted.socket;
      s.handlerErrors += counted.handler;
    }
    for (const c of connections) c.destroy();
    connections.clear();
    await Promise.all([u?.close(), t ? new Promise<void>((resolve) => t.close(() => resolve())) : undefined]);
  }

  return {
    listen,
    close,
    transport: kind,
    stats: () => {
      const live = udp?.nativeErrors() ?? { socket: 0, handler: 0 };
      return {
        ...responder.counters(),
        ...s,
        socketErrors: s.socketErrors + live.socket,
        handlerErrors: s.handlerErrors + live.handler,
        sourcesTracked: limiter?.size() ?? 0,
        tcpOpen: connections.size,
      };
    },
  };
}
