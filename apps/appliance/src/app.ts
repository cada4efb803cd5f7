import path from 'node:path';
import type { ProvisioningState, StateBus } from './core/bus.js';
import type { Logger } from './core/log/logger.js';
import type { SecretRegistry } from './core/log/redact.js';
import type { FileStore } from './core/ports/files.js';
import type { HttpServe } from './core/ports/http.js';
import type { PinHash } from './core/ports/pin-hash.js';
import type { Radio, Station } from './core/ports/radio.js';
import {
  createProvisioningController,
  type ProvisioningController,
} from './domain/provisioning/controller.js';
import { type AttemptLimiter, createAttemptLimiter } from './domain/security/attempts.js';
import { createSettingsStore, type Settings, type SettingsStore } from './domain/settings/index.js';
import type { WebhookHttp } from './domain/webhook.js';
import { createWifiService, type WifiService } from './domain/wifi/service.js';

export interface ApplianceOptions {
  bus: StateBus;
  radio: Radio;
  station: Station;
  files: FileStore;
  /** Binds the portal's HTTP server while the AP is up. */
  serve: HttpServe;
  logger: Logger;
  secrets: SecretRegistry;
  /** config.toml */
  settingsPath: string;
  /**
   * The failed-PIN counter shared by the portal and PC Link (one per device, persisted). Default:
   * one kept in `pin-attempts.json` next to config.toml.
   */
  pinAttempts?: AttemptLimiter;
  /** Where the PIN is hashed (default: libuv's thread pool; a device: `createLowPriorityPinHash`). */
  pinHash?: PinHash | undefined;
  /** Plain-http webhook URLs the device maker allows (default `never`: https only). */
  webhookHttp?: WebhookHttp;
  /** Where the portal listens while the AP is up (`192.168.2.1:80` on the device). */
  portal: { host: string; port: number };
  /** What the screen and ApActive show (`http://192.168.2.1/` on the device). */
  setupUrl?: string;
  /** Redirect target of the captive portal (host[:port]). */
  gateway?: string;
  hostapdConfigPath?: string;
  /** The state to show first (after a controlled restart: `Connected`). */
  initialState?: ProvisioningState | undefined;
  /** After a valid save and reconnect. */
  onRestart?: (info: { pendingWebhookTest: boolean }) => void;
  /** Called with the settings snapshot once it is loaded, before anything runs on it. */
  onSettings?: (settings: Settings) => Promise<void> | void;
  /** Controller timing (tests and the sim). */
  timing?: {
    timeoutMs?: number;
    associationTimeoutMs?: number;
    /** Upper bound of one radio step (default 15 s). */
    stepTimeoutMs?: number;
    finishDelayMs?: number;
    pollMs?: number;
  };
  wifiPollMs?: number | undefined;
}

/** One consistent configuration snapshot of Area A (replaced as a whole after a valid save). */
export interface Appliance {
  settings: SettingsStore;
  current: () => Settings;
  controller: ProvisioningController;
  wifi: WifiService;
  stop(): Promise<void>;
}

/**
 * Wires Area A on one settings snapshot: settings loaded once, the Wi-Fi service, and the
 * provisioning controller with the portal (its lifetime is the AP's; its code is loaded when the
 * AP first comes up).
 */
export async function startAppliance(options: ApplianceOptions): Promise<Appliance> {
  const { bus, radio, station, logger, secrets } = options;
  const settings = createSettingsStore({
    path: options.settingsPath,
    files: options.files,
    logger,
    webhookHttp: options.webhookHttp,
    pinHash: options.pinHash,
  });
  const snapshot = await settings.load();
  await options.onSettings?.(snapshot);

  const wifi = createWifiService({
    bus,
    station,
    radio,
    logger,
    secrets,
    pollMs: options.wifiPollMs || undefined,
  });

  let controller: ProvisioningController;
  const pinAttempts =
    options.pinAttempts ??
    createAttemptLimiter({
      persist: {
        path: path.join(path.dirname(options.settingsPath), 'pin-attempts.json'),
        files: options.files,
      },
      logger,
    });
  let portal: Awaited<ReturnType<typeof loadPortal>> | null = null;
  const loadPortal = async () => {
    const { createPortal } = await import('./domain/portal/index.js');
    return createPortal({
      bus,
      settings,
      session: () => controller?.session() ?? null,
      logger,
      serve: options.serve,
      pinAttempts,
      pinHash: options.pinHash,
      gateway: options.gateway || undefined,
    });
  };

  controller = createProvisioningController({
    bus,
    radio,
    station,
    wifi,
    files: options.files,
    logger,
    secrets,
    hostapdConfigPath: options.hostapdConfigPath || undefined,
    setupUrl: options.setupUrl || undefined,
    initialState: options.initialState,
    ...options.timing,
    startPortal: async () => {
      portal ??= await loadPortal();
      const handle = await portal.listen(options.portal);
      logger.info?.(`portal listening on ${handle.url}`);
      return handle;
    },
    onRestart: (info) => options.onRestart?.(info),
  });

  controller.start();
  wifi.start();

  return {
    settings,
    current: () => settings.current(),
    controller,
    wifi,
    async stop() {
      wifi.stop();
      await controller.stop();
    },
  };
}

/** The pending webhook setup test (signed; see domain/webhook.ts). */
export { runWebhookSetupTest } from './domain/webhook.js';
