// Wildcard DNS responder for captive portals
import './node-guard.js';

// Errors
export { CaptiveDnsError, type CaptiveDnsErrorCode } from './errors.js';

// Policy
export { CAPTIVE_DNS_POLICY, DOH_CANARY, type Outcome, type PolicyRow } from './policy.js';
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
