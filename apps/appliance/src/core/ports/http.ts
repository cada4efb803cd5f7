/** Anything that answers WHATWG requests: an h3 app, or a plain `{ fetch }`. */
export interface HttpApp {
  fetch(request: Request): Response | Promise<Response>;
}

/** A listening server (the shared shape: `listen()` resolves this, `close()` is idempotent). */
export interface ServerHandle {
  address: string;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** What a server accepts from its clients; each absent limit keeps the adapter's default. */
export interface ServeLimits {
  /** The whole header block must arrive within this time (slowloris). */
  headersTimeoutMs?: number;
  /** The whole request must arrive within this time. */
  requestTimeoutMs?: number;
  /** How often the server looks for connections past those timeouts. */
  timeoutCheckMs?: number;
  keepAliveTimeoutMs?: number;
  /** Connections from one address at once. */
  perClient?: number;
  /** Connections in all (the oldest idle one makes room for a new one). */
  total?: number;
}

export interface ServeOptions {
  host: string;
  port: number;
  limits?: ServeLimits;
}

/** Binds an HTTP server for `app` (the portal on the AP address, the screen page on loopback). */
export type HttpServe = (app: HttpApp, options: ServeOptions) => Promise<ServerHandle>;
