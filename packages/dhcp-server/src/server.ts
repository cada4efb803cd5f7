import dgram from 'node:dgram';
import os from 'node:os';
import { type Clock, formatUrl, type Listening, systemClock, type TimerHandle } from '@waved/internal';
import {
  type ArpWriter,
  closeUdpBatch,
  createArpWriter,
  nativeStatus,
  openUdpBatch,
  SOL_SOCKET,
  setSocketOption,
  type UdpBatchHandle,
} from '@waved/native';
import { bindToInterface } from './bind.js';
import { MessageType, Option } from './constants.js';
import { DhcpError } from './errors.js';
import { formatIpv4, parseIpv4 } from './ipv4.js';
import { createDhcpMachineCore, type DhcpMachineOptions, type DhcpStats } from './machine.js';
import { type DhcpMessage, decodeMessageValue, encodeMessage } from './message.js';
import type { DhcpLease } from './pool.js';
import type { LeaseStore } from './store.js';

const isAck = (m: DhcpMessage) => m.options.get(Option.MESSAGE_TYPE)?.[0] === MessageType.ACK;

export interface DhcpServerOptions extends Omit<DhcpMachineOptions, 'serverPort'> {
  /**
   * Serve only this interface (`wlan0`, `ap0`): the socket is bound to it with SO_BINDTOIFINDEX, so
   * it hears only that link and its broadcasts leave through it even without a default route.
   */
  interface?: string;
  /**
   * With `interface`: an OFFER or ACK for a client that has no address yet and did not set the
   * broadcast flag goes to its new address and hardware address, after the server writes the ARP
   * cache entry for it (RFC 2131 §4.1, as dnsmasq and ISC dhcpd do): no copy of every reply to every
   * station, and none looped back into the server's own host. Needs `CAP_NET_ADMIN`; without it
   * (logged once) or with `false`, those replies are broadcast. Default `true`.
   */
  unicast?: boolean;
  /** Keeps leases across restarts; new holders are saved before their ACK is sent. */
  store?: LeaseStore;
  /** Longest delay before a renewal (expiry-only change) is written to the store (default 1000 ms). */
  storeDelayMs?: number;
  /** UDP port to listen on (default 67; relays are answered on it too). */
  port?: number;
  /** Address to bind (default 0.0.0.0, which is what receives broadcasts). */
  listenAddress?: string;
  /** The shared `Clock`: lease times, the error-log throttle and the store's delayed write (default `systemClock`). */
  clock?: Clock;
  /** @deprecated Pass `clock` instead; this alias goes in 1.0. Milliseconds since the epoch, read in place of `clock.now()`. */
  now?: () => number;
  /**
   * How datagrams are read and sent. `'batch'`: the recvmmsg/sendmmsg transport of @waved/native
   * (no allocation and one call into JavaScript per wake-up, the least CPU per exchange); it cannot
   * hold a reply back for the store, so it serves only servers without `store`. `'dgram'`:
   * `node:dgram`. Default `'auto'`: batch when there is no store and the prebuilt addon loads.
   */
  transport?: 'auto' | 'batch' | 'dgram';
  /**
   * With the batch transport, libuv's idle-time metrics are off for this thread's event loop while
   * the server listens (default `false`): Node turns them on, and libuv then starts every wait for
   * packets with an extra `epoll_pwait` that finds nothing, a second call into the kernel per
   * wake-up. Meanwhile `performance.eventLoopUtilization()` counts no idle time. `true` keeps them.
   */
  idleTimeMetrics?: boolean;
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
const SO_RCVBUF = 8;
const RECV_BUFFER = 1 << 20;

/** errno number -> name (ENETUNREACH, ...), for the log line of a failed native send. */
let errnoNames: Map<number, string> | undefined;
function errnoName(errno: number): string {
  errnoNames ??= new Map(Object.entries(os.constants.errno).map(([name, n]) => [n, name]));
  return errnoNames.get(errno) ?? `errno ${errno}`;
}

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
  const transport = options.transport ?? 'auto';
  if (transport !== 'auto' && transport !== 'batch' && transport !== 'dgram') {
    throw new DhcpError(
      'DHCP_CONFIG',
      `transport must be 'auto', 'batch' or 'dgram', got ${String(transport)}`,
    );
  }
  if (transport === 'batch' && options.store !== undefined) {
    throw new DhcpError(
      'DHCP_CONFIG',
      "transport 'batch' cannot hold replies for the lease store: use 'dgram' or 'auto' with a store",
    );
  }
  const machine = createDhcpMachineCore({ ...options, serverPort: port === 0 ? 67 : port });
  const clock = options.clock ?? (options.now ? { ...systemClock, now: options.now } : systemClock);
  const now = () => clock.now();
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
  let lazy: TimerHandle | undefined;
  let retryAt = 0;
  const storeDelayMs = options.storeDelayMs ?? 1000;

  // One callback for every send (no closure per packet). Node drops a synchronous send error
  // silently when send() has no callback, so the callback is what makes sendErrors visible.
  function sent(error: Error | null): void {
    if (!error) return;
    machine.count('sendErrors');
    sendFailed((error as NodeJS.ErrnoException).code);
  }

  function sendFailed(code: string | undefined): void {
    const t = now();
    if (t - lastSendErrorLog > 10_000) {
      lastSendErrorLog = t;
      log?.error?.('DHCP reply could not be sent', { code });
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

  // The ARP cache writer for unicast replies to clients without an address (`unicast`), once bound.
  let arp: ArpWriter | undefined;

  function startArp(fd: number | dgram.Socket): void {
    arp = undefined;
    if (options.interface === undefined || options.unicast === false) return;
    try {
      arp = createArpWriter(fd, options.interface);
    } catch (error) {
      arpFailed(error);
    }
  }

  function arpFailed(error: unknown): void {
    arp = undefined;
    log?.info?.('DHCP replies to clients without an address are broadcast: the ARP cache cannot be written', {
      code: (error as { systemCode?: string; code?: string }).systemCode ?? (error as { code?: string }).code,
    });
  }

  // This host's own IPv4 addresses, read again at most once a second: a reply sent straight to one of
  // them would be delivered to this host instead of the client (an address of the pool that is also
  // configured here), so it is broadcast, and the client's ARP probe then finds the conflict.
  let local = new Set<number>();
  let localAt = Number.NEGATIVE_INFINITY;
  function isLocal(address: number): boolean {
    const t = performance.now();
    if (t - localAt >= 1000) {
      localAt = t;
      const next = new Set<number>();
      for (const list of Object.values(os.networkInterfaces())) {
        for (const a of list ?? []) if (a.family === 'IPv4') next.add(parseIpv4(a.address));
      }
      local = next;
    }
    return local.has(address >>> 0);
  }

  /**
   * Whether a reply may go straight to `address` (a DhcpReply's `direct`; 0: no): true once the ARP
   * entry `address` -> the 6 bytes of `hardware` at `offset` is written. False when `unicast` is off,
   * for an address of this host, and from the first failed write on (broadcast instead).
   */
  function goesDirect(address: number, hardware: Uint8Array, offset: number): boolean {
    if (address === 0 || arp === undefined || isLocal(address)) return false;
    try {
      arp(address >>> 0, hardware, offset);
      return true;
    } catch (error) {
      arpFailed(error);
      return false;
    }
  }

  /** Addresses handed over whose binding no finished save holds yet (address -> hand-over number). */
  const unsaved = new Map<number, number>();
  let handOvers = 0;

  function flush(): void {
    if (!store) return;
    if (lazy !== undefined) {
      clock.clearTimeout(lazy);
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
        const covered = new Map(unsaved);
        try {
          await store.save(machine.leases(now()));
          savedVersion = version;
          savedDurable = durable;
          // an address handed over again while this save ran stays unsaved
          for (const [a, n] of covered) if (unsaved.get(a) === n) unsaved.delete(a);
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
      if (machine.version !== savedVersion && lazy === undefined && !closing)
        lazy = clock.setTimeout(flush, storeDelayMs);
    });
  }

  function onMessage(buf: Buffer): void {
    try {
      machine.count('received');
      let request: DhcpMessage;
      try {
        request = decodeMessageValue(buf);
      } catch {
        machine.count('malformed');
        return;
      }
      const reply = machine.handle(request, now());
      if (reply !== undefined) {
        const bytes = encodeMessage(reply.message);
        const address = addressText(
          goesDirect(reply.direct, request.chaddr, 0) ? reply.direct : reply.address,
        );
        // A new holder's ACK waits for the save. So does an ACK of an address whose hand-over is not
        // saved yet: a client that repeats its REQUEST before the first ACK left is, in memory,
        // already bound, and its second ACK must not reach it before the binding is on disk.
        const yiaddr = reply.message.yiaddr;
        const ack = store !== undefined && isAck(reply.message);
        if (ack && reply.persist) unsaved.set(yiaddr, ++handOvers);
        if (store && (reply.persist || (ack && unsaved.has(yiaddr))))
          held.push({ bytes, port: reply.port, address });
        else send(bytes, reply.port, address);
      }
      if (store) {
        // Hand-overs are written at once (and their ACKs wait for it); renewals within storeDelayMs.
        if ((held.length > 0 || machine.durableVersion !== savedDurable) && now() >= retryAt) flush();
        else if (machine.version !== savedVersion && lazy === undefined && !saving)
          lazy = clock.setTimeout(flush, storeDelayMs);
      }
    } catch (error) {
      // Nothing a client sends may take the server down.
      machine.count('handlerErrors');
      log?.error?.('DHCP handler error (packet dropped)', { message: (error as Error).message });
    }
  }

  // The batch transport of @waved/native (when no store holds replies back): one recvmmsg per
  // wake-up, one call into JavaScript per batch, the replies encoded straight into the shared send
  // slots and sent with one sendmmsg. No Buffer, address object or send request per datagram.
  let batch: UdpBatchHandle | undefined;
  let meta32: Int32Array = new Int32Array(0);
  let batchSendErrors = 0; // failed sends the native side reported, already counted and logged
  const destination = { address: 0, port: 0, direct: 0 }; // where writeReply says the reply goes

  /** Takes the send failures counted in C (sendmmsg runs after the callback) into the stats and log. */
  function collectSendErrors(): void {
    if (batch === undefined) return;
    const total = meta32[batch.batch * 4]!;
    if (total === batchSendErrors) return;
    for (; batchSendErrors < total; batchSendErrors++) machine.count('sendErrors');
    sendFailed(errnoName(meta32[batch.batch * 4 + 3]!));
  }

  function onBatch(count: number): void {
    const h = batch;
    if (h === undefined) return;
    collectSendErrors();
    const inBytes = h.inBytes;
    const slot = h.slot;
    for (let i = 0; i < count; i++) {
      const at = i * 4;
      try {
        machine.count('received');
        const length = meta32[at]!;
        let request: DhcpMessage;
        try {
          // a datagram longer than the slot (-1) is not DHCP (at most 1500 bytes on the link)
          if (length < 0) throw new DhcpError('DHCP_DECODE_TRUNCATED', 'datagram longer than 4096 bytes');
          // decoded in place: the slot's bytes, with no view of their own
          request = decodeMessageValue(inBytes, i * slot, i * slot + length);
        } catch {
          machine.count('malformed');
          continue;
        }
        // the reply written straight into its send slot, from option bytes encoded once
        const written = machine.writeReply(request, now(), h.outBytes, i * slot, destination);
        if (written === 0) continue;
        // chaddr is at byte 28 of the request, still in its receive slot
        if (goesDirect(destination.direct, inBytes, i * slot + 28)) destination.address = destination.direct;
        meta32[at + 1] = destination.address | 0;
        meta32[at + 2] = destination.port;
        meta32[at + 3] = written;
      } catch (error) {
        meta32[at + 3] = 0;
        machine.count('handlerErrors');
        log?.error?.('DHCP handler error (packet dropped)', { message: (error as Error).message });
      }
    }
  }

  function listening(address: string, boundPort: number): void {
    log?.info?.('DHCP server listening', {
      address,
      port: boundPort,
      interface: options.interface,
      server: formatIpv4(machine.serverId),
    });
  }

  async function listenBatch(address: string): Promise<{ address: string; port: number; ifindex?: number }> {
    let h: UdpBatchHandle;
    try {
      h = openUdpBatch(address, port, onBatch, {
        reuseAddr: options.interface !== undefined,
        broadcast: true,
        idleTimeMetrics: options.idleTimeMetrics === true,
      });
    } catch (error) {
      throw new DhcpError('DHCP_BIND', `cannot bind UDP ${address}:${port} (another DHCP server? root?)`, {
        cause: error,
      });
    }
    batch = h;
    meta32 = new Int32Array(h.meta.buffer, h.meta.byteOffset, h.meta.length >> 2);
    batchSendErrors = 0;
    let ifindex: number | undefined;
    try {
      if (options.interface !== undefined) ifindex = await bindToInterface(h.fd, options.interface);
      startArp(h.fd);
    } catch (error) {
      batch = undefined;
      closeUdpBatch(h);
      throw error;
    }
    try {
      setSocketOption(h.fd, SOL_SOCKET, SO_RCVBUF, RECV_BUFFER);
    } catch {
      /* the kernel caps it at net.core.rmem_max; the default works too */
    }
    return ifindex === undefined ? { address, port: h.port } : { address, port: h.port, ifindex };
  }

  return {
    async listen() {
      if (socket || batch) throw new DhcpError('DHCP_STATE', 'listen() was already called');
      closing = false;
      if (store) {
        const records = await store.load();
        const restored = machine.restore(records, now());
        savedVersion = machine.version;
        savedDurable = machine.durableVersion;
        log?.info?.('DHCP leases restored', { count: restored });
      }
      let useBatch = transport === 'batch';
      if (transport === 'auto') useBatch = !store && nativeStatus().available;
      else if (useBatch && !nativeStatus().available) {
        throw new DhcpError('DHCP_CONFIG', `transport 'batch' is not available: ${nativeStatus().reason}`);
      }
      if (useBatch) {
        const bound = await listenBatch(options.listenAddress ?? '0.0.0.0');
        listening(bound.address, bound.port);
        return { ...bound, url: formatUrl('dhcp', bound.address, bound.port) };
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
        startArp(s);
      } catch (error) {
        socket = undefined;
        s.close();
        throw error;
      }
      try {
        s.setRecvBufferSize(RECV_BUFFER);
      } catch {
        /* the kernel caps it at net.core.rmem_max; the default works too */
      }
      s.on('message', onMessage);
      s.on('error', (error) => {
        log?.error?.('DHCP socket error', { code: (error as NodeJS.ErrnoException).code });
      });
      const bound = s.address();
      listening(bound.address, bound.port);
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
      arp = undefined;
      const h = batch;
      if (h) {
        collectSendErrors();
        closeUdpBatch(h);
        batch = undefined;
      }
      const s = socket;
      if (s) {
        s.off('message', onMessage);
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
      socket = undefined;
      if (lazy !== undefined) clock.clearTimeout(lazy);
      lazy = undefined;
      if (saving) await saving;
      if (store && machine.version !== savedVersion) {
        flush();
        if (saving) await saving;
      }
    },
    leases: () => machine.leases(now()),
    stats: () => {
      collectSendErrors();
      return machine.stats(now());
    },
  };
}
