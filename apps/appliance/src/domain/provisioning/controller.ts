import crypto from 'node:crypto';
import { derivePsk as defaultDerivePsk } from '@waved/psk';
import type { Command, FailureReason, ProvisioningState, ScannedNetwork, StateBus } from '../../core/bus.js';
import { ApplianceError } from '../../core/errors.js';
import { type Logger, silentLogger } from '../../core/log/logger.js';
import type { SecretRegistry } from '../../core/log/redact.js';
import { formatFailure } from '../../core/messages.js';
import { type Clock, systemClock } from '../../core/ports/clock.js';
import type { FileStore } from '../../core/ports/files.js';
import type { ProvisionRequest, Radio, Station, StationEvent } from '../../core/ports/radio.js';
import type { PortalSession } from '../portal/portal.js';
import {
  ADDRESS_TIMEOUT_MS,
  AP_URL,
  ASSOCIATION_TIMEOUT_MS,
  createApPassphrase,
  createCsrfToken,
  formatApSsid,
  HOSTAPD_CONFIG_PATH,
  PROV_TIMEOUT_MS,
} from './ap.js';

// What the portal reads for the current session (the portal contract) is the portal's own type.
export type { PortalSession };

/** A running portal HTTP server; its lifetime equals the AP's. */
export interface PortalHandle {
  url: string;
  close(): Promise<void>;
}

/** Files the controller writes itself (the hostapd config, 0600), so it can guarantee their removal. */
export type ControllerFiles = Pick<FileStore, 'write' | 'remove'>;

export interface ProvisioningControllerOptions {
  bus: StateBus;
  radio: Radio;
  station: Station;
  /** The Wi-Fi service: paused while the radio is an AP, so it never "recovers" the station then. */
  wifi?: { pause(): void; resume(): void };
  /** Starts the portal HTTP server (it reads `controller.session()`). */
  startPortal?: () => Promise<PortalHandle>;
  /** After a valid save and reconnect: a controlled restart that then runs the pending webhook test. */
  onRestart?: (info: { pendingWebhookTest: boolean; connected: boolean }) => void | Promise<void>;
  hostapdConfigPath?: string | undefined;
  /** The address shown on the screen and in ApActive (`http://192.168.2.1/` on the device). */
  setupUrl?: string | undefined;
  timeoutMs?: number;
  associationTimeoutMs?: number;
  addressTimeoutMs?: number;
  /** Upper bound for one radio step even if the radio itself never gives up (a wedged program). */
  stepTimeoutMs?: number;
  /** Time given to the portal to deliver the success page before the AP goes down. */
  finishDelayMs?: number;
  /** Station status poll interval while waiting for association or an address. */
  pollMs?: number;
  /** Timers and the wall clock of `expiresAt` (default `systemClock`); tests pass a manual clock. */
  clock?: Clock;
  /** Where the hostapd config is written (atomically, 0600) and removed. */
  files: ControllerFiles;
  randomBytes?: (n: number) => Buffer;
  derivePsk?: (ssid: string, passphrase: string) => Promise<string>;
  logger?: Logger;
  secrets?: SecretRegistry;
  /** The state to start in (after a controlled restart: `Connected`). */
  initialState?: ProvisioningState | undefined;
}

export interface ProvisioningController {
  start(): void;
  /** Ends any session (AP down, STA restored) and stops listening to the bus. */
  stop(): Promise<void>;
  state(): ProvisioningState;
  /** The portal's view of the session, or null outside a session. */
  session(): PortalSession | null;
  /** Resolves when every queued command has been handled (tests, shutdown). */
  idle(): Promise<void>;
}

class Aborted extends Error {
  constructor() {
    super('provisioning session ended');
  }
}

class ConnectFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
  }
}

interface Session {
  apSsid: string;
  passphrase: string;
  csrf: string;
  networks: ScannedNetwork[];
  forget: (() => void)[];
  timer: unknown;
  expired: boolean;
  expiresAt: number;
}

/** Scans in a row that miss the network before joining fails with `network-not-found`. */
const NOT_FOUND_SCANS = 3;

/** What the station is given for a network the portal saved: its exact bytes when known. */
export function toProvisionRequest(request: {
  ssid: string;
  ssidHex?: string;
  passphrase: string;
  hidden: boolean;
}): ProvisionRequest {
  return {
    ssid: request.ssid,
    ssidHex: request.ssidHex || undefined,
    passphrase: request.passphrase,
    hidden: request.hidden,
  };
}

/**
 * The provisioning flow with its Failed rules (docs/appliance.md). Commands are handled one at a
 * time; cancel and the session timeout interrupt whatever is running at its next step.
 */
export function createProvisioningController(options: ProvisioningControllerOptions): ProvisioningController {
  const { bus, radio, station } = options;
  const log = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const files = options.files;
  const randomBytes = options.randomBytes ?? crypto.randomBytes;
  const derivePsk = options.derivePsk ?? ((s: string, p: string) => defaultDerivePsk(s, p));
  const configPath = options.hostapdConfigPath ?? HOSTAPD_CONFIG_PATH;
  const setupUrl = options.setupUrl ?? AP_URL;
  const timeoutMs = options.timeoutMs ?? PROV_TIMEOUT_MS;
  const associationTimeoutMs = options.associationTimeoutMs ?? ASSOCIATION_TIMEOUT_MS;
  const addressTimeoutMs = options.addressTimeoutMs ?? ADDRESS_TIMEOUT_MS;
  const stepTimeoutMs = options.stepTimeoutMs ?? 15_000;
  const finishDelayMs = options.finishDelayMs ?? 1_000;
  const pollMs = options.pollMs ?? 1_000;

  let state: ProvisioningState = options.initialState ?? { state: 'Idle' };
  let session: Session | null = null;
  let abort = new AbortController();
  let queue: Promise<void> = Promise.resolve();
  let unsubscribe: (() => void) | null = null;
  let portal: PortalHandle | null = null;
  /** Which AP-side pieces are up, so teardown knows what it has to undo. */
  const up = { station: true, address: false, hostapd: false, config: false, dhcp: false, dns: false };
  let lastSsid: string | null = null;
  /** The radio step that ran last (named in Failed{ap-failed}; raw program output is only logged). */
  let lastStep = '';

  const publish = (next: ProvisioningState) => {
    state = next;
    bus.publish('ProvisioningState', next);
  };

  const enqueue = (task: () => Promise<void>) => {
    queue = queue.then(task).catch((error) => log.error?.('provisioning task failed:', error));
    return queue;
  };

  const checkAbort = () => {
    if (abort.signal.aborted) throw new Aborted();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      const signal = abort.signal;
      if (signal.aborted) return reject(new Aborted());
      const onAbort = () => {
        clock.clearTimeout(handle);
        reject(new Aborted());
      };
      const handle = clock.setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });

  /** One radio step, bounded even if the adapter never returns. */
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    let handle: unknown;
    const limit = new Promise<never>((_, reject) => {
      handle = clock.setTimeout(
        () =>
          reject(
            new ApplianceError('APPLIANCE_RADIO_STEP', `${name} did not finish within ${stepTimeoutMs} ms`),
          ),
        stepTimeoutMs,
      );
    });
    try {
      log.debug?.(`radio: ${name}`);
      lastStep = name;
      return await Promise.race([fn(), limit]);
    } finally {
      clock.clearTimeout(handle);
    }
  };

  const tryStep = async (name: string, fn: () => Promise<unknown>): Promise<boolean> => {
    try {
      await step(name, fn);
      return true;
    } catch (error) {
      log.warn?.(`radio: ${name} failed during teardown`, { error });
      return false;
    }
  };

  // ---- AP up / down (in the order docs/appliance.md gives) ----

  const apUp = async (s: Session) => {
    await step('stop station', () => radio.stopStation());
    up.station = false;
    checkAbort();
    up.address = true;
    await step('configure AP address', () => radio.configureApAddress());
    checkAbort();
    const psk = await derivePsk(s.apSsid, s.passphrase);
    up.config = true;
    await files.write(configPath, radio.hostapdConfig({ ssid: s.apSsid, psk }), 0o600);
    up.hostapd = true;
    await step('start hostapd', () => radio.startHostapd(configPath));
    checkAbort();
    up.dhcp = true;
    await step('start DHCP server', () => radio.startDhcpServer());
    checkAbort();
    up.dns = true;
    await step('start DNS server', () => radio.startDnsServer());
    checkAbort();
    if (options.startPortal) portal = await step('start portal', () => options.startPortal!());
    checkAbort();
  };

  /** Every teardown path ends here: each step is attempted even when an earlier one failed. */
  const apDown = async () => {
    if (portal) {
      const p = portal;
      portal = null;
      await tryStep('close portal', () => p.close());
    }
    if (up.dns) await tryStep('stop DNS server', () => radio.stopDnsServer());
    up.dns = false;
    if (up.dhcp) await tryStep('stop DHCP server', () => radio.stopDhcpServer());
    up.dhcp = false;
    if (up.hostapd) await tryStep('stop hostapd', () => radio.stopHostapd());
    up.hostapd = false;
    if (up.address) await tryStep('flush addresses', () => radio.flushAddresses());
    up.address = false;
    // The config is removed whether or not anything above worked, and even if it was never written.
    try {
      await files.remove(configPath);
    } catch (error) {
      log.error?.(`could not remove ${configPath}`, { error });
    }
    up.config = false;
    if (await tryStep('start station', () => radio.startStation())) up.station = true;
    options.wifi?.resume();
  };

  const apIsUp = () => up.address || up.hostapd || up.dhcp || up.dns || up.config || portal !== null;

  // ---- sessions ----

  const endSessionSecrets = () => {
    if (!session) return;
    clock.clearTimeout(session.timer);
    for (const f of session.forget) f();
    session = null;
  };

  const scan = async (): Promise<ScannedNetwork[]> => {
    try {
      return await step('scan', () => station.scan());
    } catch (error) {
      // Not fatal: the form still offers manual (hidden) SSID entry.
      log.warn?.('scan failed; the form will offer manual entry only', { error });
      return [];
    }
  };

  const openSession = async () => {
    abort = new AbortController();
    const mac = await radio.macAddress();
    const s: Session = {
      apSsid: formatApSsid(mac),
      passphrase: createApPassphrase(randomBytes),
      csrf: createCsrfToken(randomBytes),
      networks: [],
      forget: [],
      timer: undefined,
      expired: false,
      expiresAt: clock.now() + timeoutMs,
    };
    if (options.secrets) s.forget.push(options.secrets.add(s.passphrase), options.secrets.add(s.csrf));
    s.timer = clock.setTimeout(() => {
      s.expired = true;
      log.info?.('provisioning session timed out; returning to the saved networks');
      void endSession();
    }, timeoutMs);
    session = s;
    // The network the device leaves now, for a /save that only reconnects it.
    lastSsid = bus.last('ConnectionDetails')?.ssid ?? lastSsid;
    options.wifi?.pause();
    publish({ state: 'Scanning' });
    s.networks = await scan();
    checkAbort();
    await bringApUp(s);
  };

  /** AP up for the session `s`; on a fault everything is undone and Failed{ap-failed} is shown. */
  const bringApUp = async (s: Session, after?: { reason: FailureReason; message: string }) => {
    try {
      await apUp(s);
    } catch (error) {
      if (error instanceof Aborted) throw error;
      const failedStep = lastStep;
      log.error?.('the setup network could not be started', { error });
      await apDown();
      endSessionSecrets();
      publish({
        state: 'Failed',
        reason: 'ap-failed',
        message: `${formatFailure('ap-failed')} (${failedStep} failed)`,
      });
      return;
    }
    log.info?.(`setup network ${s.apSsid} is up; open ${setupUrl}`);
    if (after) publish({ state: 'Failed', reason: after.reason, message: after.message });
    else publish({ state: 'ApActive', ssid: s.apSsid, passphrase: s.passphrase, url: setupUrl });
  };

  const endSession = async () => {
    abort.abort();
    await enqueue(async () => {
      if (state.state === 'Idle' || (state.state === 'Connected' && !session)) return;
      if (apIsUp() || !up.station) await apDown();
      else options.wifi?.resume();
      endSessionSecrets();
      publish({ state: 'Idle' });
    });
  };

  // ---- connecting ----

  const waitForStation = (target: string | null): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      let done = false;
      const signal = abort.signal;
      const finish = (fn: () => void) => {
        if (done) return;
        done = true;
        off();
        clock.clearTimeout(deadline);
        clock.clearTimeout(poller);
        signal.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = () => finish(() => reject(new Aborted()));
      const matches = (ssid: string | null) => target === null || ssid === null || ssid === target;
      // One scan can miss a network that is there (the radio has just left AP mode, or a slow
      // machine answers late); wpa_supplicant scans again. Only NOT_FOUND_SCANS misses in a row, or
      // misses until the deadline, mean the network is not in range.
      let notFound = 0;
      const notFoundFailure = () =>
        new ConnectFailure('network-not-found', formatFailure('network-not-found'));
      const off = station.onEvent((event: StationEvent) => {
        if (event.type === 'wrong-key' && matches(event.ssid))
          finish(() => reject(new ConnectFailure('wrong-password', formatFailure('wrong-password'))));
        else if (event.type === 'not-found') {
          notFound++;
          if (notFound >= NOT_FOUND_SCANS) finish(() => reject(notFoundFailure()));
        } else if (event.type === 'disconnected') notFound = 0;
        else if (event.type === 'connected' && !done) {
          notFound = 0;
          // Do not wait for the next poll step.
          clock.clearTimeout(poller);
          void poll();
        }
      });
      const deadline = clock.setTimeout(
        () =>
          finish(() =>
            reject(
              notFound > 0
                ? notFoundFailure()
                : new ConnectFailure('association-timeout', formatFailure('association-timeout')),
            ),
          ),
        associationTimeoutMs,
      );
      let poller: unknown;
      let polling = false;
      const poll = async () => {
        if (polling || done) return;
        polling = true;
        try {
          const st = await station.status();
          if (st.state === 'COMPLETED' && st.ssid && (target === null || st.ssid === target)) {
            const ssid = st.ssid;
            finish(() => resolve(ssid));
            return;
          }
        } catch (error) {
          log.debug?.('station status while connecting', { error });
        } finally {
          polling = false;
        }
        if (!done) {
          clock.clearTimeout(poller);
          poller = clock.setTimeout(() => void poll(), pollMs);
        }
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      void poll();
    });

  const waitForAddress = async (): Promise<string> => {
    const until = addressTimeoutMs;
    let waited = 0;
    for (;;) {
      try {
        const st = await station.status();
        if (st.ipv4) return st.ipv4;
      } catch (error) {
        log.debug?.('station status while waiting for an address', { error });
      }
      if (waited >= until) throw new ConnectFailure('no-address', formatFailure('no-address'));
      // A lease usually takes well under a second: look more often than the association poll.
      const step = Math.max(1, Math.min(pollMs, 250));
      await sleep(step);
      waited += step;
    }
  };

  const connect = async (request?: {
    ssid: string;
    ssidHex?: string;
    passphrase: string;
    hidden: boolean;
  }) => {
    const s = session;
    if (!s) return;
    const target = request?.ssid ?? null;
    publish({ state: 'Connecting', ssid: target ?? lastSsid ?? '' });
    const forget = request && options.secrets ? options.secrets.add(request.passphrase) : () => {};
    try {
      await sleep(finishDelayMs);
      await apDown();
      checkAbort();
      if (request) {
        await step('provision network', () => station.provision(toProvisionRequest(request)));
        // provision() resolves once the profile survives a power cut (save_config, 0600, fsyncs)
        log.info?.('provisioning: the network profile is saved on disk');
      }
      checkAbort();
      const ssid = await waitForStation(target);
      await step('start DHCP client', () => radio.startDhcpClient());
      await waitForAddress();
      lastSsid = ssid;
      endSessionSecrets();
      publish({ state: 'Connected', ssid });
      log.info?.(`connected to the configured network; restarting to apply the saved settings`);
      // Not awaited: the restart stops this controller, which waits for this very task.
      void Promise.resolve()
        .then(() => options.onRestart?.({ pendingWebhookTest: true, connected: true }))
        .catch((error) => log.error?.('restart hook failed:', error));
    } catch (error) {
      if (error instanceof Aborted) throw error;
      const failure =
        error instanceof ConnectFailure
          ? error
          : new ConnectFailure(
              'association-timeout',
              `${formatFailure('association-timeout')} (${error instanceof Error ? error.message : String(error)})`,
            );
      if (error instanceof ApplianceError && error.code === 'APPLIANCE_RADIO_STEP') {
        // Not the association deadline: a radio step ran out of its bound (a slow or emulated
        // machine needs a larger one), and the log says so.
        log.warn?.(
          `connecting failed: ${failure.reason}: ${error.message} (the radio step limit, ${stepTimeoutMs} ms)`,
        );
      } else {
        log.warn?.(`connecting failed: ${failure.reason}`);
      }
      if (s.expired) return;
      // The form comes back in the same session (same AP name, passphrase and CSRF token) for Try again.
      options.wifi?.pause();
      const fresh = await scan();
      if (fresh.length > 0) s.networks = fresh;
      checkAbort();
      await bringApUp(s, { reason: failure.reason, message: failure.message });
    } finally {
      forget();
    }
  };

  // ---- command handling ----

  const run = (task: () => Promise<void>) =>
    enqueue(async () => {
      try {
        await task();
      } catch (error) {
        if (error instanceof Aborted) return;
        throw error;
      }
    });

  const onCommand = (command: Command) => {
    switch (command.type) {
      case 'OpenWifiProvisioning': {
        void run(async () => {
          if (state.state === 'Failed' && session && apIsUp()) {
            // Try again with the AP still up: back to the form of the same session.
            publish({
              state: 'ApActive',
              ssid: session.apSsid,
              passphrase: session.passphrase,
              url: setupUrl,
            });
            return;
          }
          if (state.state === 'Idle' || state.state === 'Connected' || state.state === 'Failed') {
            await openSession();
            return;
          }
          log.debug?.(`OpenWifiProvisioning ignored in ${state.state}`);
          bus.publish('ProvisioningState', state);
        });
        break;
      }
      case 'CancelProvisioning':
        if (session || state.state === 'Failed') void endSession();
        break;
      case 'SettingsSaved':
        void run(async () => {
          if ((state.state === 'ApActive' || state.state === 'Failed') && session && apIsUp()) {
            await connect(command.connect);
            return;
          }
          log.warn?.(`SettingsSaved ignored in ${state.state}`);
        });
        break;
      default:
        break;
    }
  };

  return {
    start() {
      if (unsubscribe) return;
      unsubscribe = bus.on('command', onCommand);
      publish(state);
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = null;
      await endSession();
      await queue;
    },
    state: () => state,
    session: () =>
      session
        ? {
            csrf: session.csrf,
            apSsid: session.apSsid,
            networks: session.networks,
            state,
            expiresAt: session.expiresAt,
          }
        : null,
    idle: async () => {
      let q: Promise<void>;
      do {
        q = queue;
        await q;
      } while (q !== queue);
    },
  };
}
