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

export interface ServeOptions {
  host: string;
  port: number;
}

/** Binds an HTTP server for `app` (the portal on the AP address, the screen page on loopback). */
export type HttpServe = (app: HttpApp, options: ServeOptions) => Promise<ServerHandle>;
