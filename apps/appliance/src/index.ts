// @waved/appliance: the device service. The composition root and its adapter sets, then the
// building blocks by layer (core, domain, adapters).

// System adapters
export { syncDir, writeFileAtomic } from '@waved/internal';
export { arecordArgs, createArecordCapture } from './adapters/system/audio.js';
export { createRunnerClock } from './adapters/system/clock.js';
export { createCtrlEventMonitor, parseCtrlEvent } from './adapters/system/ctrl-events.js';
export {
  createFileCredentialStore,
  openDeviceStores,
  openSqliteRecordingStore,
  openTelemetryStore,
} from './adapters/system/device-stores.js';
export {
  type CaptiveDnsThread,
  type CaptiveDnsThreadOptions,
  captiveDnsThreadEntry,
  startCaptiveDnsThread,
} from './adapters/system/dns-thread.js';
export { createFileStore } from './adapters/system/files.js';
export { serveHttp } from './adapters/system/http.js';
export { createSystemAdapters, createSystemProbe, type SystemAdapters } from './adapters/system/index.js';
export { createSystemdNotifier, type SystemdNotifierOptions } from './adapters/system/notify.js';
export {
  createLowPriorityPinHash,
  type LowPriorityPinHash,
  type LowPriorityPinHashOptions,
} from './adapters/system/pin-hash.js';
export {
  createPowerSupplyBattery,
  createSystemReboot,
  readInterfaceMac,
  statfsStorage,
} from './adapters/system/power.js';
export { createSystemRadio, type SystemRadio, type SystemRadioOptions } from './adapters/system/radio.js';
export { runCommand } from './adapters/system/runner.js';
export { findStrays, type StrayProcess, stopProcesses, strayOn } from './adapters/system/strays.js';
export { attachTerminalScreen, openTty, SCREEN_KEYS } from './adapters/system/terminal.js';
export { createUdpSocket, resolveHost } from './adapters/system/udp.js';
export {
  createWpaStation,
  toScannedNetworks,
  type WpaStationOptions,
} from './adapters/system/wpa-station.js';
export { type Appliance, type ApplianceOptions, runWebhookSetupTest, startAppliance } from './app.js';
// State bus
export {
  type BusEvents,
  type Command,
  type ConnectionDetails,
  type FailureReason,
  type ProvisioningState,
  type ScannedNetwork,
  type SignalClass,
  StateBus,
} from './core/bus.js';
// Errors
export { ApplianceError, type ApplianceErrorCode } from './core/errors.js';
// Logging
export {
  type ApplianceLogger,
  type CreateLoggerOptions,
  createLineReporter,
  createLogger,
  createRedactingReporter,
  type Logger,
  silentLogger,
} from './core/log/logger.js';
export {
  createSecretRegistry,
  MASK,
  redactString,
  redactValue,
  type SecretRegistry,
} from './core/log/redact.js';
// Ports
export { type Clock, type SetClock, systemClock } from './core/ports/clock.js';
export type { FileStore } from './core/ports/files.js';
export type { HttpApp, HttpServe, ServeOptions, ServerHandle } from './core/ports/http.js';
export { type Notifier, silentNotifier } from './core/ports/notify.js';
export type { PinHash } from './core/ports/pin-hash.js';
export type { ProvisionRequest, Radio, Station, StationEvent, StationStatus } from './core/ports/radio.js';
export {
  COMMAND_TIMEOUT_MS,
  type CommandResult,
  type CommandRunner,
  runChecked,
} from './core/ports/runner.js';
export type { CreateUdpSocket, ResolveHost, UdpSocket } from './core/ports/udp.js';
// The device application (Area B)
export {
  createDeviceApp,
  createNullAsrEngine,
  type DeviceApp,
  type DeviceAppOptions,
  type DeviceCloud,
  type DeviceIdentity,
  type DevicePaths,
} from './domain/device/app.js';
export type { DeviceMeta, DeviceStores, StorageSizes } from './domain/device/ports.js';
// Portal and settings
export { createPortal, type Portal, type PortalOptions } from './domain/portal/index.js';
// Device profile
export {
  cloudHostsMissing,
  describePlan,
  type Feature,
  type FeatureName,
  type FeaturePlan,
  type FeatureProbe,
  planFeatures,
  simulatedPlan,
} from './domain/profile/features.js';
export { type ParsedProfile, type ProfileIssue, parseProfile } from './domain/profile/parse.js';
export {
  DEFAULT_PROFILE_PATH,
  type DeviceProfile,
  defaultProfile,
  PROFILE_KEYS,
} from './domain/profile/schema.js';
// Provisioning
export {
  ADDRESS_TIMEOUT_MS,
  AP_GATEWAY,
  AP_URL,
  ASSOCIATION_TIMEOUT_MS,
  createApPassphrase,
  createCsrfToken,
  escapeWifiQrValue,
  formatApSsid,
  formatHostapdConfig,
  formatWifiQr,
  HOSTAPD_CONFIG_PATH,
  PROV_TIMEOUT_MS,
} from './domain/provisioning/ap.js';
export {
  type ControllerFiles,
  createProvisioningController,
  type PortalHandle,
  type PortalSession,
  type ProvisioningController,
  type ProvisioningControllerOptions,
} from './domain/provisioning/controller.js';
// Security: the failed-PIN counter, PIN records off the event loop
export {
  type AttemptLimiter,
  type AttemptLimiterOptions,
  type AttemptResult,
  backoffDelay,
  createAttemptLimiter,
} from './domain/security/attempts.js';
export { createPinRecordAsync, threadPoolPinHash, verifyPinAsync } from './domain/security/pin.js';
export {
  createSettingsStore,
  type SettingsStore,
  type SettingsStoreOptions,
} from './domain/settings/index.js';
// SNTP
export {
  checkReply,
  createSntpClient,
  SNTP_AGREE_MS,
  SNTP_CONFIRM_STEP_MS,
  SNTP_MIN_DATE,
  type SntpClient,
  type SntpClientOptions,
  type SntpResult,
} from './domain/sntp/client.js';
export { ntpToUnixMs, unixMsToNtp } from './domain/sntp/packet.js';
export { type ClockSync, type ClockSyncOptions, createClockSync } from './domain/sntp/schedule.js';
// Webhook
export {
  sendWebhook,
  signWebhook,
  WEBHOOK_HEADERS,
  type WebhookHttp,
  webhookOrigin,
  webhookUrlProblem,
} from './domain/webhook.js';
// Wi-Fi
export {
  createWifiService,
  POLL_INTERVAL_MS,
  type WifiService,
  type WifiServiceOptions,
} from './domain/wifi/service.js';
export { classifySignal } from './domain/wifi/signal.js';
export {
  checkWpaConfig,
  ctrlInterfaceDir,
  minimalWpaConfig,
  type WpaConfigIssue,
  withCountry,
} from './domain/wifi/wpa-config.js';
// Languages: message catalogs, Accept-Language negotiation, Intl formatting
export {
  type Catalog,
  type CatalogProblem,
  checkCatalog,
  LANGUAGE_TAGS,
  LOCALES,
  type Locale,
  type LocaleMeta,
  languageFromHeader,
  type Message,
  type MessageKey,
  matchLanguage,
  negotiateLanguage,
  parseAcceptLanguage,
  resolveLanguage,
  type Translator,
  translator,
} from './i18n/index.js';
// Composition
export {
  type ClockAdapters,
  createRuntime,
  type DeviceAdapters,
  type Runtime,
  type RuntimeAdapters,
  type RuntimeInfo,
  type RuntimeOptions,
} from './runtime.js';
export { createSimAdapters, SIM_NETWORKS, type SimAdapters, simProfile } from './sim/index.js';
// Simulator
export {
  createSimRadio,
  type SimApServices,
  type SimNetwork,
  type SimRadio,
  type SimRadioOptions,
} from './sim/radio.js';
