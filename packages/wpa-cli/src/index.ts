// Typed wpa_cli client, reply parsers, byte-exact SSIDs and the station-profile rules

// Client
export {
  classifyReply,
  createWpaCli,
  DEFAULT_TIMEOUT_MS,
  maskCommand,
  type WpaCli,
  type WpaCliLogger,
  type WpaCliOptions,
} from './client.js';
// Errors
export { WifiError, type WifiErrorCode } from './errors.js';
// Parsers
export { LIST_NETWORKS_HEADER, type NetworkEntry, parseListNetworks } from './networks.js';

// Profile rules
export {
  CONFIG_FILE_MODE,
  type ProvisionOptions,
  type ProvisionResult,
  provisionNetwork,
} from './provision.js';
// Running programs
export {
  type CommandResult,
  type CommandRunner,
  type CommandRunOptions,
  RUN_OUTPUT_LIMIT,
  runCommand,
} from './runner.js';
export {
  type Band,
  bandOf,
  parseScanResults,
  SCAN_RESULTS_HEADER,
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
export { parseSignalPoll, type SignalPoll } from './signal-poll.js';
// SSIDs as bytes
export { decodeSsid, encodeSsidHex, formatSsid, parseFormattedSsid, SSID_MAX_BYTES } from './ssid.js';
export { parseStatus, type WpaState, type WpaStatus } from './status.js';
