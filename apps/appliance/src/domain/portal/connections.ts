/**
 * Connection limits of the portal's HTTP server (applied by the `HttpServe` adapter,
 * adapters/system/connections.ts). Anyone on the setup network can open connections
 * and send their headers one byte at a time; without limits a few hundred of them use up the
 * process's file descriptors and every other phone's request fails.
 */
export interface ConnectionLimits {
  /** Connections from one address at once (a browser opens about 6). Default 16. */
  perClient?: number;
  /** Connections in all. Default 128, well below a device's usual 1024 descriptors. */
  total?: number;
}

export const PORTAL_MAX_CONNECTIONS_PER_CLIENT = 16;
export const PORTAL_MAX_CONNECTIONS = 128;
/** The whole header block must arrive within this time (slowloris). */
export const PORTAL_HEADERS_TIMEOUT_MS = 5_000;
/** The whole request (headers and a body of at most 32 KiB) must arrive within this time. */
export const PORTAL_REQUEST_TIMEOUT_MS = 15_000;
/** How often Node looks for connections past those timeouts (its default is 30 s). */
export const PORTAL_TIMEOUT_CHECK_MS = 1_000;
