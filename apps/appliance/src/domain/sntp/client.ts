import crypto from 'node:crypto';
import { ApplianceError } from '../../core/errors.js';
import { type Logger, silentLogger } from '../../core/log/logger.js';
import type { SetClock } from '../../core/ports/clock.js';
import type { CreateUdpSocket, ResolveHost, UdpSocket } from '../../core/ports/udp.js';
import {
  decode,
  encode,
  kissCode,
  LI_ALARM,
  MODE_CLIENT,
  MODE_SERVER,
  NTP_HEADER_BYTES,
  type NtpPacket,
  ntpToUnixMs,
} from './packet.js';

/** A clock reading no server may push the device below (this release was built after it). */
export const SNTP_MIN_DATE = new Date('2026-01-01T00:00:00Z');
export const SNTP_TIMEOUT_MS = 3_000;
/** A step of the clock larger than this needs two sources that agree (a hostile server alone cannot move it). */
export const SNTP_CONFIRM_STEP_MS = 24 * 60 * 60 * 1000;
/** How close two sources must be to agree. */
export const SNTP_AGREE_MS = 60_000;
/** RFC 5905 MAXDISP: a root distance beyond this means the server is not usable. */
const MAX_ROOT_DISTANCE_S = 16;

export interface SntpResult {
  server: string;
  /** Server time minus local time, ms. */
  offsetMs: number;
  /** Round-trip delay, ms. */
  delayMs: number;
  stratum: number;
  /** Local time corrected by the offset at the moment of the reply. */
  time: Date;
}

/** The UDP socket the client sends from (node:dgram on a device). */
export type SntpSocket = UdpSocket;

export interface SntpClientOptions {
  /** `host` or `host:port` (IPv4 literal or name); tried in order. */
  servers: readonly string[];
  port?: number | undefined;
  timeoutMs?: number;
  minDate?: Date;
  /** Sets the system clock (`date -u -s @<seconds>` on a device). */
  setClock: SetClock;
  /** A fresh UDP socket per request. */
  createSocket: CreateUdpSocket;
  /**
   * Resolves a server name to its addresses; each address is a source of its own (a pool name
   * gives several). Absent: names are asked as they are, one source per server.
   */
  resolveHost?: ResolveHost | undefined;
  /**
   * Another source of the time for a step of more than 24 h when no second server agrees: the
   * cloud's HTTPS `Date` header on a device. Resolves null when it cannot tell.
   */
  secondSource?: (() => Promise<Date | null>) | undefined;
  randomBytes?: (n: number) => Buffer;
  now?: () => number;
  logger?: Logger;
}

export interface SntpClient {
  /** One request to one server with every RFC 4330 §5 check. */
  query(server: string): Promise<SntpResult>;
  /**
   * Sets the clock from the first source that passes the checks. A step of more than 24 h (either
   * way) is taken only when a second source agrees within 60 s (another server or address, or
   * `secondSource`); otherwise `SNTP_UNCONFIRMED`. No usable source: `SNTP_NO_SERVER`.
   */
  sync(): Promise<SntpResult>;
}

function splitServer(server: string, defaultPort: number): { host: string; port: number } {
  const m = /^(.*):(\d{1,5})$/.exec(server);
  if (m && !m[1]!.includes(':')) return { host: m[1]!, port: Number(m[2]) };
  return { host: server, port: defaultPort };
}

/**
 * Validates a server reply against the request (RFC 4330 §5). Returns null for a reply that is not
 * an answer to this request (wrong originate timestamp: ignored, the client keeps waiting).
 */
export function checkReply(
  reply: NtpPacket,
  request: { transmitTimestamp: bigint; vn: number },
  minDate: Date,
): { ok: true } | { ok: false; error: ApplianceError } | null {
  // §5: the originate timestamp must echo our (random) transmit timestamp, else it is not our reply.
  if (reply.originateTimestamp !== request.transmitTimestamp) return null;
  const fail = (code: ConstructorParameters<typeof ApplianceError>[0], message: string) => ({
    ok: false as const,
    error: new ApplianceError(code, message),
  });
  // §5: mode 4 (server) in reply to mode 3; version as sent (3 and 4 interoperate).
  if (reply.mode !== MODE_SERVER) return fail('SNTP_BAD_PACKET', `reply mode ${reply.mode}, expected 4`);
  if (reply.vn < 3 || reply.vn > 4) return fail('SNTP_BAD_PACKET', `reply version ${reply.vn}`);
  // §5: stratum 0 with an ASCII code is a Kiss-o'-Death; the code says why (DENY, RSTR, RATE, …).
  if (reply.stratum === 0 && /^[A-Z][A-Z0-9 ]{3}$/.test(kissCode(reply))) {
    return fail('SNTP_KISS_OF_DEATH', `server sent Kiss-o'-Death ${kissCode(reply)}`);
  }
  // §5: LI = 3 means the server clock is not synchronised (chrony without a source answers LI=3,
  // stratum 0, reference id 0); a stratum of 0 without a code or above 15 likewise.
  if (reply.li === LI_ALARM) return fail('SNTP_UNSYNCHRONISED', 'server clock is not synchronised (LI=3)');
  if (reply.stratum === 0 || reply.stratum > 15) {
    return fail('SNTP_UNSYNCHRONISED', `server stratum ${reply.stratum} is unsynchronised`);
  }
  // §5: a zero transmit (or receive) timestamp is not a usable reply.
  if (reply.transmitTimestamp === 0n) return fail('SNTP_BAD_PACKET', 'reply transmit timestamp is zero');
  if (reply.receiveTimestamp === 0n) return fail('SNTP_BAD_PACKET', 'reply receive timestamp is zero');
  if (reply.rootDelay < 0 || reply.rootDelay / 2 + reply.rootDispersion > MAX_ROOT_DISTANCE_S) {
    return fail('SNTP_UNSYNCHRONISED', 'server root distance is too large');
  }
  const serverTime = ntpToUnixMs(reply.transmitTimestamp);
  if (serverTime < minDate.getTime()) {
    return fail('SNTP_BEFORE_FLOOR', `server time ${new Date(serverTime).toISOString()} is before the floor`);
  }
  return { ok: true };
}

/** A bounded SNTPv4 client (RFC 4330): one request per server, a timeout, no retries. */
export function createSntpClient(options: SntpClientOptions): SntpClient {
  const port = options.port ?? 123;
  const timeoutMs = options.timeoutMs ?? SNTP_TIMEOUT_MS;
  const minDate = options.minDate ?? SNTP_MIN_DATE;
  const randomBytes = options.randomBytes ?? crypto.randomBytes;
  const now = options.now ?? Date.now;
  const log = options.logger ?? silentLogger;
  const { createSocket, setClock } = options;
  /** Servers that told us to go away (DENY, RSTR) are not asked again. */
  const denied = new Set<string>();

  const query = (server: string) =>
    new Promise<SntpResult>((resolve, reject) => {
      const { host, port: p } = splitServer(server, port);
      const socket = createSocket();
      // §5: a random transmit timestamp; the reply must echo it (it also keeps the local clock private).
      const transmitTimestamp = randomBytes(8).readBigUInt64BE(0);
      const vn = 4;
      const request = encode({
        li: 0,
        vn,
        mode: MODE_CLIENT,
        stratum: 0,
        poll: 0,
        precision: 0,
        rootDelay: 0,
        rootDispersion: 0,
        referenceId: Buffer.alloc(4),
        referenceTimestamp: 0n,
        originateTimestamp: 0n,
        receiveTimestamp: 0n,
        transmitTimestamp,
      });
      let done = false;
      let t1 = 0;
      const finish = (fn: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        try {
          socket.close();
        } catch {
          /* already closed */
        }
        fn();
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(new ApplianceError('SNTP_TIMEOUT', `no valid reply from ${server} in ${timeoutMs} ms`)),
          ),
        timeoutMs,
      );
      socket.on('error', (error) =>
        finish(() =>
          reject(new ApplianceError('SNTP_TIMEOUT', `${server}: ${error.message}`, { cause: error })),
        ),
      );
      socket.on('message', (msg, rinfo) => {
        const t4 = now();
        // §5: only the server we asked (address and port) can answer.
        if (rinfo.port !== p || (isIpv4(host) && rinfo.address !== host)) return;
        if (msg.length < NTP_HEADER_BYTES) return;
        let reply: NtpPacket;
        try {
          reply = decode(msg).value;
        } catch {
          return;
        }
        const verdict = checkReply(reply, { transmitTimestamp, vn }, minDate);
        if (verdict === null) return;
        if (!verdict.ok) {
          const code = kissCode(reply);
          if (verdict.error.code === 'SNTP_KISS_OF_DEATH' && (code === 'DENY' || code === 'RSTR'))
            denied.add(server);
          finish(() => reject(verdict.error));
          return;
        }
        const t2 = ntpToUnixMs(reply.receiveTimestamp);
        const t3 = ntpToUnixMs(reply.transmitTimestamp);
        const offsetMs = (t2 - t1 + (t3 - t4)) / 2;
        const delayMs = Math.max(0, t4 - t1 - (t3 - t2));
        finish(() =>
          resolve({ server, offsetMs, delayMs, stratum: reply.stratum, time: new Date(t4 + offsetMs) }),
        );
      });
      t1 = now();
      socket.send(request, p, host, (error) => {
        if (error)
          finish(() =>
            reject(new ApplianceError('SNTP_TIMEOUT', `${server}: ${error.message}`, { cause: error })),
          );
      });
    });

  /** Every source to ask, in order: each address of each server. */
  const sources = async (): Promise<string[]> => {
    const out: string[] = [];
    for (const server of options.servers) {
      if (denied.has(server)) continue;
      const { host, port: p } = splitServer(server, port);
      let addresses = [host];
      if (options.resolveHost && !isIpv4(host)) {
        try {
          addresses = (await options.resolveHost(host)).slice(0, 4);
        } catch (error) {
          log.warn?.(`SNTP: ${server} does not resolve: ${(error as Error).message}`);
          continue;
        }
      }
      for (const a of addresses) {
        const source = p === port && !server.endsWith(`:${p}`) ? a : `${a}:${p}`;
        if (!out.includes(source) && !denied.has(source)) out.push(source);
      }
    }
    return out;
  };

  const agree = (a: number, b: number) => Math.abs(a - b) <= SNTP_AGREE_MS;

  const set = async (result: SntpResult, confirmedBy?: string) => {
    await setClock(result.time);
    log.info?.(
      `SNTP: clock set from ${result.server}${confirmedBy ? ` (confirmed by ${confirmedBy})` : ''} (offset ${result.offsetMs.toFixed(1)} ms, delay ${result.delayMs.toFixed(1)} ms)`,
    );
    return result;
  };

  return {
    query,
    async sync() {
      const errors: unknown[] = [];
      /** Large steps waiting for a second source. */
      const unconfirmed: SntpResult[] = [];
      for (const source of await sources()) {
        let result: SntpResult;
        try {
          result = await query(source);
        } catch (error) {
          log.warn?.(`SNTP: ${source} not used`, { error: error instanceof Error ? error.message : error });
          errors.push(error);
          continue;
        }
        if (Math.abs(result.offsetMs) <= SNTP_CONFIRM_STEP_MS) return set(result);
        const partner = unconfirmed.find((u) => agree(u.offsetMs, result.offsetMs));
        if (partner) return set(result, partner.server);
        log.warn?.(
          `SNTP: ${source} would move the clock by ${Math.round(result.offsetMs / 3_600_000)} h; waiting for a second source`,
        );
        unconfirmed.push(result);
      }
      if (unconfirmed.length > 0 && options.secondSource) {
        const other = await options.secondSource().catch(() => null);
        if (other) {
          const offset = other.getTime() - now();
          const match = unconfirmed.find((u) => agree(u.offsetMs, offset));
          if (match) return set(match, 'the cloud');
        }
      }
      if (unconfirmed.length > 0) {
        throw new ApplianceError(
          'SNTP_UNCONFIRMED',
          `a step of more than 24 h from ${unconfirmed.map((u) => u.server).join(', ')} was not confirmed by a second source; the clock is left as it is`,
        );
      }
      throw new ApplianceError('SNTP_NO_SERVER', 'no configured NTP server gave a valid time', {
        cause: new AggregateError(errors),
      });
    },
  };
}

function isIpv4(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}
