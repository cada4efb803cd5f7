// @waved/appliance: the device service (private; the public API of its building blocks)

// Composition
export { type Appliance, type ApplianceOptions, runWebhookSetupTest, startAppliance } from './app.js';
// Writing files that matter
export { writeFileAtomic } from './atomic.js';
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
} from './bus.js';
// Errors
export { ApplianceError, type ApplianceErrorCode } from './errors.js';
// Logging
export {
  type ApplianceLogger,
  type CreateLoggerOptions,
  createLineReporter,
  createLogger,
  createRedactingReporter,
  type Logger,
  silentLogger,
} from './log/logger.js';
export { createSecretRegistry, MASK, redactString, redactValue, type SecretRegistry } from './log/redact.js';
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
} from './provisioning/ap.js';
export {
  type ControllerFiles,
  createProvisioningController,
  type PortalHandle,
  type PortalSession,
  type ProvisioningController,
  type ProvisioningControllerOptions,
  type Timers,
} from './provisioning/controller.js';
// Radio
export { createSystemRadio, type SystemRadioOptions } from './radio/system.js';
export type { ProvisionRequest, Radio, Station, StationEvent, StationStatus } from './radio/types.js';
// Running programs
export {
  COMMAND_TIMEOUT_MS,
  type CommandResult,
  type CommandRunner,
  runChecked,
  runCommand,
} from './runner.js';
export {
  createSimRadio,
  type SimApServices,
  type SimNetwork,
  type SimRadio,
  type SimRadioOptions,
} from './sim/radio.js';
// SNTP
export {
  checkReply,
  createRunnerClock,
  createSntpClient,
  SNTP_MIN_DATE,
  type SntpClient,
  type SntpClientOptions,
  type SntpResult,
} from './sntp/client.js';
export { ntpToUnixMs, unixMsToNtp } from './sntp/packet.js';
// Wi-Fi
export { createCtrlEventMonitor, parseCtrlEvent } from './wifi/ctrl-events.js';
export {
  createWifiService,
  POLL_INTERVAL_MS,
  type WifiService,
  type WifiServiceOptions,
} from './wifi/service.js';
export { classifySignal } from './wifi/signal.js';
export { createWpaStation, toScannedNetworks, type WpaStationOptions } from './wifi/wpa-station.js';
