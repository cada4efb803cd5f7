import crypto from 'node:crypto';
import dgram from 'node:dgram';
import { type CommandRunner, runChecked } from '../../adapters/system/runner.js';
import { ApplianceError } from '../../core/errors.js';
import { type Logger, silentLogger } from '../../core/log/logger.js';
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

/** Minimal UDP socket surface (node:dgram), injectable for tests. */
export interface SntpSocket {
  send(msg: Buffer, port: number, address: string, cb: (error: Error | null) => void): void;
  on(event: 'message', fn: (msg: Buffer, rinfo: { address: string; port: number }) => void): void;
  on(event: 'error', fn: (error: Error) => void): void;
  close(): void;
}

export interface SntpClientOptions {
  /** `host` or `host:port` (IPv4 literal or name); tried in order. */
  servers: readonly string[];
  port?: number;
  timeoutMs?: number;
  minDate?: Date;
  /** Sets the system clock; default: `date -u -s @<seconds>` through the runner. */
  setClock?: (date: Date) => Promise<void>;
  run?: CommandRunner;
  createSocket?: () => SntpSocket;
  randomBytes?: (n: number) => Buffer;
  now?: () => number;
  logger?: Logger;
}

export interface SntpClient {
  /** One request to one server with every RFC 4330 §5 check. */
  query(server: string): Promise<SntpResult>;
  /** The first server that passes the checks sets the clock; throws `SNTP_NO_SERVER` when none does. */
  sync(): Promise<SntpResult>;
}

function splitServer(server: string, defaultPort: number): { host: string; port: number } {
  const m = /^(.*):(\d{1,5})$/.exec(server);
  if (m && !m[1]!.includes(':')) return { host: m[1]!, port: Number(m[2]) };
  return { host: server, port: defaultPort };
}

/** Runs `date -u -s @<seconds>` (busybox and GNU date both accept it). */
export function createRunnerClock(run: CommandRunner): (date: Date) => Promise<void> {
  return async (date) => {
    await runChecked(run, 'date', ['-u', '-s', `@${Math.round(date.getTime() / 1000)}`]);
  };
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
  const createSocket = options.createSocket ?? (() => dgram.createSocket('udp4') as unknown as SntpSocket);
  const setClock =
    options.setClock ??
    (options.run
      ? createRunnerClock(options.run)
      : async () => {
          throw new ApplianceError('SNTP_NO_SERVER', 'no way to set the clock was configured');
        });
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

  return {
    query,
    async sync() {
      const errors: unknown[] = [];
      for (const server of options.servers) {
        if (denied.has(server)) continue;
        try {
          const result = await query(server);
          await setClock(result.time);
          log.info(
            `SNTP: clock set from ${server} (offset ${result.offsetMs.toFixed(1)} ms, delay ${result.delayMs.toFixed(1)} ms)`,
          );
          return result;
        } catch (error) {
          log.warn(`SNTP: ${server} not used:`, error instanceof Error ? error.message : error);
          errors.push(error);
        }
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
