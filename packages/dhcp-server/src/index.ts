// @waved/dhcp-server: RFC 2131 DHCPv4 server with a lease pool.
import './node-guard.js';

// The logger, the clock and the listen() result every waved package shares
export { type Clock, type Listening, type Logger, systemClock } from '@waved/internal';
// Interface binding
export { bindToInterface, interfaceIndex } from './bind.js';
// Wire constants: message types, options, flags
export {
  BOOTREPLY,
  BOOTREQUEST,
  BROADCAST_FLAG,
  MessageType,
  type MessageTypeName,
  Option,
} from './constants.js';
// Errors
export { DhcpError, type DhcpErrorCode, isDhcpError } from './errors.js';
// IPv4 addresses as numbers
export { formatIpv4, parseIpv4 } from './ipv4.js';
// Pure state machine
export {
  createDhcpMachine,
  type DhcpCounter,
  type DhcpLogger,
  type DhcpMachine,
  type DhcpMachineOptions,
  type DhcpReply,
  type DhcpStats,
} from './machine.js';
// Wire codec: bounds-checked decoder and encoder
export {
  type Decoded,
  type DhcpMessage,
  decodeMessage,
  encodeMessage,
  messageEncodingLength,
} from './message.js';
// Leases
export type { DhcpLease, LeaseState } from './pool.js';
// Server (socket adapter)
export { createDhcpServer, type DhcpServer, type DhcpServerOptions } from './server.js';
// Lease persistence
export { createFileLeaseStore, createMemoryLeaseStore, type LeaseStore } from './store.js';
