// @waved/captive-dns: wildcard DNS responder for captive portals.
import './node-guard.js';

// The logger, the clock and the listen() result every waved package shares
export type { Clock, Listening, Logger } from '@waved/internal';
// Errors
export { CaptiveDnsError, type CaptiveDnsErrorCode, isCaptiveDnsError } from './errors.js';
// Policy: one row per query class, with its RFC
export { CAPTIVE_DNS_POLICY, DOH_CANARY, type Outcome, type PolicyRow } from './policy.js';
// Per-source rate limit (an option of the server)
export type { RateLimitOptions } from './rate-limit.js';

// Transport-free responder
export {
  type CaptiveDnsCounters,
  type CaptiveDnsResponder,
  type CaptiveDnsResponderOptions,
  createCaptiveDnsResponder,
  EDNS_UDP_SIZE,
  type Transport,
} from './responder.js';

// UDP + TCP server
export {
  type CaptiveDns,
  type CaptiveDnsLogger,
  type CaptiveDnsOptions,
  type CaptiveDnsStats,
  type CaptiveDnsTcpOptions,
  type CaptiveDnsTransport,
  type CaptiveDnsTransportOption,
  createCaptiveDns,
  nativeUdpTransport,
} from './server.js';
