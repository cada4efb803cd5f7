// RFC 2131 DHCPv4 server with a lease pool
import './node-guard.js';

// Interface binding
export { bindToInterface, interfaceIndex } from './bind.js';
// Wire codec
export {
  BOOTREPLY,
  BOOTREQUEST,
  BROADCAST_FLAG,
  MessageType,
  type MessageTypeName,
  Option,
} from './constants.js';
// Errors
export { DhcpError, type DhcpErrorCode } from './errors.js';
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
export {
  type Decoded,
  type DhcpMessage,
  decodeMessage,
  encodeMessage,
  messageEncodingLength,
} from './message.js';
export type { DhcpLease, LeaseState } from './pool.js';
// Server (socket adapter)
export { createDhcpServer, type DhcpServer, type DhcpServerOptions } from './server.js';
// Lease persistence
export { createFileLeaseStore, createMemoryLeaseStore, type LeaseStore } from './store.js';
