// @waved/appliance: the device service (private; the public API of its building blocks)

// Writing files that matter
export { writeFileAtomic } from './adapters/system/atomic.js';
// Wi-Fi
export { createCtrlEventMonitor, parseCtrlEvent } from './adapters/system/ctrl-events.js';
// Radio
export { createSystemRadio, type SystemRadioOptions } from './adapters/system/radio.js';
// Running programs
export {
  COMMAND_TIMEOUT_MS,
  type CommandResult,
  type CommandRunner,
  runChecked,
  runCommand,
} from './adapters/system/runner.js';
export {
  createWpaStation,
  toScannedNetworks,
  type WpaStationOptions,
} from './adapters/system/wpa-station.js';
// Composition
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
export type { ProvisionRequest, Radio, Station, StationEvent, StationStatus } from './core/ports/radio.js';
// Portal and settings
export { createPortal, type Portal, type PortalOptions } from './domain/portal/index.js';
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
  type Timers,
} from './domain/provisioning/controller.js';
// Security: the failed-PIN counter, PIN records off the event loop
export {
  type AttemptLimiter,
  type AttemptLimiterOptions,
  type AttemptResult,
  backoffDelay,
  createAttemptLimiter,
} from './domain/security/attempts.js';
export { createPinRecordAsync, verifyPinAsync } from './domain/security/pin.js';
export {
  createSettingsStore,
  type SettingsStore,
  type SettingsStoreOptions,
} from './domain/settings/index.js';
// SNTP
export {
  checkReply,
  createRunnerClock,
  createSntpClient,
  SNTP_MIN_DATE,
  type SntpClient,
  type SntpClientOptions,
  type SntpResult,
} from './domain/sntp/client.js';
export { ntpToUnixMs, unixMsToNtp } from './domain/sntp/packet.js';
export {
  sendWebhook,
  signWebhook,
  WEBHOOK_HEADERS,
  type WebhookHttp,
  webhookOrigin,
  webhookUrlProblem,
} from './domain/webhook.js';
export {
  createWifiService,
  POLL_INTERVAL_MS,
  type WifiService,
  type WifiServiceOptions,
} from './domain/wifi/service.js';
export { classifySignal } from './domain/wifi/signal.js';
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
export {
  createSimRadio,
  type SimApServices,
  type SimNetwork,
  type SimRadio,
  type SimRadioOptions,
} from './sim/radio.js';
