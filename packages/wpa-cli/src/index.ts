// Typed wpa_cli client, reply parsers, byte-exact SSIDs and the station-profile rules.
import './node-guard.js';

// The logger every waved package accepts
export type { Logger } from '@waved/internal';
// Client: one wpa_cli run per call, every reply classified
export {
  createWpaCli,
  DEFAULT_TIMEOUT_MS,
  maskCommand,
  type WpaCli,
  type WpaCliLogger,
  type WpaCliOptions,
} from './client.js';
// Errors
export {
  isWpaCliError,
  WifiError,
  type WifiErrorCode,
  WpaCliError,
  type WpaCliErrorCode,
} from './errors.js';
// Parser: list_networks
export { type NetworkEntry, parseListNetworks } from './networks.js';
// Station-profile rules: provisioning one network
export {
  CONFIG_FILE_MODE,
  type ProvisionOptions,
  type ProvisionResult,
  provisionNetwork,
  syncSavedConfig,
} from './provision.js';
// Running programs (the port the appliance shares)
export { type CommandResult, type CommandRunner, type CommandRunOptions, runCommand } from './runner.js';
// Parser: scan_results
export {
  type Band,
  bandOf,
  parseScanResults,
  type ScanResult,
  type ScanSecurity,
  securityOf,
} from './scan-results.js';
// Signal classes
export {
  classifySignal,
  SIGNAL_EXCELLENT_DBM,
  SIGNAL_FAIR_DBM,
  SIGNAL_GOOD_DBM,
  type SignalClass,
} from './signal-class.js';
// Parser: signal_poll
export { parseSignalPoll, type SignalPoll } from './signal-poll.js';
// SSIDs as bytes
export { decodeSsid, encodeSsidHex, formatSsid, parseFormattedSsid, SSID_MAX_BYTES } from './ssid.js';
// Parser: status
export { parseStatus, type WpaState, type WpaStatus } from './status.js';
