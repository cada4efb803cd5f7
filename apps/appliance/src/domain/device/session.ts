import { type CloudClient, type CredentialStore, loadCredentials } from '@waved/psp-cloud';
import type { Logger } from '../../core/log/logger.js';
import { DeviceError } from './errors.js';

export interface CloudSessionOptions {
  client: Pick<CloudClient, 'register' | 'refreshToken'>;
  credentials: CredentialStore;
  logger: Logger;
  /**
   * Refresh the token this often while the session runs. By default each token is refreshed ahead
   * of the lifetime the server gave it (`DeviceToken.refreshInMs`: 5 min, or a fifth of a shorter
   * lifetime, before `expires_in` runs out).
   */
  refreshIntervalMs?: number;
  /** Delay before retrying a failed establish (default 30 s). */
  retryDelayMs?: number;
  /** Called after every successful establish (registration or token refresh). */
  onReady?: () => void;
}

export type SessionState = 'idle' | 'registering' | 'refreshing' | 'ready' | 'failed';

export interface CloudSession {
  readonly state: SessionState;
  /** Registers when no `device_secret` is stored, then refreshes the token. Idempotent while running. */
  establish(): Promise<void>;
  /** Resolves when the session is ready (after `establish`). */
  ready(): Promise<void>;
  isReady(): boolean;
  /** Keeps the token fresh and retries a failed establish until `stop`. */
  start(): void;
  stop(): void;
}

/**
 * The cloud session: registration with the factory secret when the device
 * holds no `device_secret`, then a token refresh; both results are stored by the client in the
 * credential store (entries 0x11a/0x11b/0xe8, slots 0xe/0xf). Nothing secret is logged.
 */
export function createCloudSession(options: CloudSessionOptions): CloudSession {
  const { client, credentials, logger } = options;
  const retryMs = options.retryDelayMs ?? 30_000;
  let state: SessionState = 'idle';
  let inFlight: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  const waiters: Array<() => void> = [];

  const schedule = (ms: number) => {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      session.establish().catch(() => {});
    }, ms);
    timer.unref();
  };

  const session: CloudSession = {
    get state() {
      return state;
    },
    establish() {
      if (inFlight) return inFlight;
      inFlight = (async () => {
        try {
          const creds = await loadCredentials(credentials);
          if (!creds.deviceSecret || !creds.salt) {
            state = 'registering';
            logger.info?.(`cloud: registering device ${creds.serial}`);
            await client.register();
          }
          state = 'refreshing';
          const token = await client.refreshToken();
          state = 'ready';
          logger.info?.('cloud: session ready');
          for (const w of waiters.splice(0)) w();
          schedule(options.refreshIntervalMs ?? token.refreshInMs);
          options.onReady?.();
        } catch (error) {
          state = 'failed';
          logger.warn?.(`cloud: session not established: ${(error as Error).message}`);
          schedule(retryMs);
          throw new DeviceError('DEVICE_SESSION', `cloud session failed: ${(error as Error).message}`, {
            cause: error,
          });
        } finally {
          inFlight = null;
        }
      })();
      return inFlight;
    },
    ready() {
      if (state === 'ready') return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    isReady: () => state === 'ready',
    start() {
      running = true;
    },
    stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
  return session;
}
