import dgram from 'node:dgram';
import { formatUrl, type Listening } from '@waved/internal';
import { bindToInterface } from './bind.js';
import { DhcpError } from './errors.js';
import { formatIpv4 } from './ipv4.js';
import { createDhcpMachine, type DhcpMachineOptions, type DhcpStats } from './machine.js';
import { decodeMessage, encodeMessage } from './message.js';
import type { DhcpLease } from './pool.js';
import type { LeaseStore } from './store.js';

export interface DhcpServerOptions extends Omit<DhcpMachineOptions, 'serverPort'> {
  /**
   * Serve only this interface (`wlan0`, `ap0`): the socket is bound to it with SO_BINDTOIFINDEX, so
   * it hears only that link and its broadcasts leave through it even without a default route.
   */
  interface?: string;
  /** Keeps leases across restarts; new holders are saved before their ACK is sent. */
  store?: LeaseStore;
  /** Longest delay before a renewal (expiry-only change) is written to the store (default 1000 ms). */
  storeDelayMs?: number;
  /** UDP port to listen on (default 67; relays are answered on it too). */
  port?: number;
  /** Address to bind (default 0.0.0.0, which is what receives broadcasts). */
  listenAddress?: string;
  /** Clock in ms since the epoch (default Date.now). */
  now?: () => number;
}

export interface DhcpServer {
  /**
   * Loads the store, binds the socket (and the interface), starts answering. Resolves where it
   * listens, `{ address, port, url }` (`url`: `dhcp://0.0.0.0:67/`), plus `ifindex` when bound to an
   * interface.
   */
  listen(): Promise<Listening & { ifindex?: number }>;
  /** Stops answering and waits for the last lease write. */
  close(): Promise<void>;
  /** The lease table: offered, bound, released/expired (remembered) and declined addresses. */
  leases(): DhcpLease[];
  /** Counters since start, and the pool by state. */
  stats(): DhcpStats;
}

const BROADCAST_TEXT = '255.255.255.255';

type LookupCallback = (error: Error | null, address: string, family: number) => void;

/** dgram's `lookup` for IPv4 literals: answers at once, no DNS and no deferred callback. */
function literalLookup(address: string, options: unknown, callback?: LookupCallback): void {
  const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
  cb(null, address, 4);
}

/** Creates an RFC 2131 DHCPv4 server: the pure state machine from `createDhcpMachine` on a UDP socket. */
export function createDhcpServer(options: DhcpServerOptions): DhcpServer {
  const port = options.port ?? 67;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new DhcpError('DHCP_CONFIG', `port must be an integer from 0 to 65535, got ${options.port}`);
  }
  // Port 0 (tests) picks a free port; relays are then still answered on 67.
  const machine = createDhcpMachine({ ...options, serverPort: port === 0 ? 67 : port });
  const now = options.now ?? Date.now;
  const log = options.logger;
  const store = options.store;
  let socket: dgram.Socket | undefined;
  let closing = false;
  let lastSendErrorLog = Number.NEGATIVE_INFINITY;

  // Group commit: replies that hand an address to a new holder wait for the write that records it.
  let held: { bytes: Buffer; port: number; address: string }[] = [];
  let savedVersion = machine.version;
  let savedDurable = machine.durableVersion;
  let saving: Promise<void> | undefined;
  let saveAgain = false;
  let lazy: NodeJS.Timeout | undefined;
  let retryAt = 0;
  const storeDelayMs = options.storeDelayMs ?? 1000;

  // One callback for every send (no closure per packet). Node drops a synchronous send error
  // silently when send() has no callback, so the callback is what makes sendErrors visible.
  function sent(error: Error | null): void {
    if (!error) return;
    machine.count('sendErrors');
    const t = now();
    if (t - lastSendErrorLog > 10_000) {
      lastSendErrorLog = t;
      log?.error?.('DHCP reply could not be sent', { code: (error as NodeJS.ErrnoException).code });
    }
  }

  function send(bytes: Buffer, toPort: number, address: string): void {
    socket?.send(bytes, toPort, address, sent);
  }

  // Replies mostly go to the same few addresses (255.255.255.255, a relay): keep the last text form.
  let lastAddress = -1;
  let lastAddressText = '';
  function addressText(address: number): string {
    if (address === 0xffffffff) return BROADCAST_TEXT;
    if (address !== lastAddress) {
      lastAddress = address;
      lastAddressText = formatIpv4(address);
    }
    return lastAddressText;
  }

  function flush(): void {
    if (!store) return;
    if (lazy) {
      clearTimeout(lazy);
      lazy = undefined;
    }
    if (saving) {
      saveAgain = true;
      return;
    }
    saving = (async () => {
      let failed = false;
      do {
        saveAgain = false;
        const batch = held;
        held = [];
        const version = machine.version;
        const durable = machine.durableVersion;
        try {
          await store.save(machine.leases(now()));
          savedVersion = version;
          savedDurable = durable;
        } catch (error) {
          // Availability first: the replies still go out, the failure is counted and logged, and the
          // next attempt waits storeDelayMs (no retry storm against a full or broken disk).
          failed = true;
          retryAt = now() + storeDelayMs;
          machine.count('storeErrors');
          log?.error?.('DHCP lease store write failed', {
            code: (error as { code?: string }).code ?? 'unknown',
          });
        }
        for (const r of batch) send(r.bytes, r.port, r.address);
      } while (!failed && (saveAgain || held.length > 0 || machine.durableVersion !== savedDurable));
    })().finally(() => {
      saving = undefined;
      if (machine.version !== savedVersion && !lazy && !closing) lazy = setTimeout(flush, storeDelayMs);
    });
  }

  function onMessage(buf: Buffer): void {
    try {
      machine.count('received');
      let request: ReturnType<typeof decodeMessage>['value'];
      try {
        request = decodeMessage(buf).value;
      } catch {
        machine.count('malformed');
        return;
      }
      const reply = machine.handle(request, now());
      if (reply !== undefined) {
        const bytes = encodeMessage(reply.message);
        const address = addressText(reply.address);
        if (store && reply.persist) held.push({ bytes, port: reply.port, address });
        else send(bytes, reply.port, address);
      }
      if (store) {
        // Hand-overs are written at once (and their ACKs wait for it); renewals within storeDelayMs.
        if ((held.length > 0 || machine.durableVersion !== savedDurable) && now() >= retryAt) flush();
        else if (machine.version !== savedVersion && !lazy && !saving) lazy = setTimeout(flush, storeDelayMs);
      }
    } catch (error) {
      // Nothing a client sends may take the server down.
      machine.count('handlerErrors');
      log?.error?.('DHCP handler error (packet dropped)', { message: (error as Error).message });
    }
  }

  return {
    async listen() {
      if (socket) throw new DhcpError('DHCP_STATE', 'listen() was already called');
      closing = false;
      if (store) {
        const records = await store.load();
        const restored = machine.restore(records, now());
        savedVersion = machine.version;
        savedDurable = machine.durableVersion;
        log?.info?.('DHCP leases restored', { count: restored });
      }
      const s = dgram.createSocket({
        type: 'udp4',
        reuseAddr: options.interface !== undefined,
        // Replies only ever go to dotted quads this module formatted: skip the resolver round trip.
        lookup: literalLookup,
      });
      socket = s;
      const address = options.listenAddress ?? '0.0.0.0';
      try {
        await new Promise<void>((resolve, reject) => {
          s.once('error', reject);
          s.bind({ port, address, exclusive: true }, () => {
            s.off('error', reject);
            resolve();
          });
        });
      } catch (error) {
        socket = undefined;
        s.close();
        throw new DhcpError('DHCP_BIND', `cannot bind UDP ${address}:${port} (another DHCP server? root?)`, {
          cause: error,
        });
      }
      let ifindex: number | undefined;
      try {
        s.setBroadcast(true);
        if (options.interface !== undefined) ifindex = await bindToInterface(s, options.interface);
      } catch (error) {
        socket = undefined;
        s.close();
        throw error;
      }
      try {
        s.setRecvBufferSize(1 << 20);
      } catch {
        /* the kernel caps it at net.core.rmem_max; the default works too */
      }
      s.on('message', onMessage);
      s.on('error', (error) => {
        log?.error?.('DHCP socket error', { code: (error as NodeJS.ErrnoException).code });
      });
      const bound = s.address();
      log?.info?.('DHCP server listening', {
        address: bound.address,
        port: bound.port,
        interface: options.interface,
        server: formatIpv4(machine.serverId),
      });
      const where = {
        address: bound.address,
        port: bound.port,
        url: formatUrl('dhcp', bound.address, bound.port),
      };
      return ifindex === undefined ? where : { ...where, ifindex };
    },
    async close() {
      if (closing) return;
      closing = true;
      const s = socket;
      if (s) {
        s.off('message', onMessage);
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
      socket = undefined;
      if (lazy) clearTimeout(lazy);
      lazy = undefined;
      if (saving) await saving;
      if (store && machine.version !== savedVersion) {
        flush();
        if (saving) await saving;
      }
    },
    leases: () => machine.leases(now()),
    stats: () => machine.stats(now()),
  };
}
