// The HTTP transport of the cloud client: one request, buffered both ways, with a connect timeout, a
// stall timeout (no byte in either direction), an optional whole-request cap and a response size cap
// that applies after decompression. The default runs on node:http/https, loaded on the first request
// so importing the package stays cheap.
import type { ClientRequest, Agent as HttpAgent, IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { Readable, Transform } from 'node:stream';
import { CloudError } from './errors.js';

export interface HttpRequest {
  method: string;
  url: string;
  /** Lowercase names. */
  headers: Record<string, string>;
  body?: Uint8Array;
}

export interface HttpResponse {
  status: number;
  /** Lowercase names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body with any `Content-Encoding` removed. */
  body: Uint8Array;
}

export interface HttpLimits {
  /** Time to establish the connection (TCP and TLS). */
  connectTimeoutMs: number;
  /** No byte sent or received for this long fails the request with `CLOUD_TIMEOUT`. */
  stallTimeoutMs: number;
  /** Cap on the whole request; none when undefined. */
  timeoutMs?: number;
  /** Largest response body, counted after decompression (`CLOUD_RESPONSE_TOO_LARGE`). */
  maxResponseBytes: number;
}

/**
 * Sends one request. Fails with a `CloudError` coded `CLOUD_NETWORK`, `CLOUD_TLS`, `CLOUD_TIMEOUT`
 * or `CLOUD_RESPONSE_TOO_LARGE`; any HTTP status is a response, not an error.
 */
export type HttpTransport = (request: HttpRequest, limits: HttpLimits) => Promise<HttpResponse>;

export interface CloudTlsOptions {
  /** Extra trusted CA certificate(s) in PEM (for a private cloud or the reference server). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** `false` skips certificate verification, as the vendor's OTA fetch does. Logged as a warning. */
  rejectUnauthorized?: boolean;
}

/** The OpenSSL/Node code of a certificate failure somewhere in an error's cause chain. */
export function tlsErrorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL/.test(code))
      return code;
  }
  return undefined;
}

function networkError(error: unknown): CloudError {
  const tls = tlsErrorCode(error);
  if (tls) return new CloudError('CLOUD_TLS', `TLS certificate rejected (${tls})`, { cause: error });
  const code = (error as { code?: unknown })?.code;
  return new CloudError('CLOUD_NETWORK', `network error${typeof code === 'string' ? ` (${code})` : ''}`, {
    cause: error,
  });
}

const tooLarge = (limit: number) =>
  new CloudError('CLOUD_RESPONSE_TOO_LARGE', `the response body is larger than ${limit} bytes`);

/** A timer that fires `onFire` unless `touch()` keeps pushing it back. */
function watchdog(ms: number, onFire: () => void): { touch(): void; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(onFire, ms);
  return {
    touch() {
      if (!timer) return;
      timer.refresh();
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

type NodeModules = {
  http: typeof import('node:http');
  https: typeof import('node:https');
  zlib: typeof import('node:zlib');
};
let nodeModules: Promise<NodeModules> | undefined;
const loadNode = () =>
  (nodeModules ??= Promise.all([import('node:http'), import('node:https'), import('node:zlib')]).then(
    ([http, https, zlib]) => ({ http, https, zlib }),
  ));

function decoder(zlib: NodeModules['zlib'], encoding: string | undefined): Transform | undefined {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/** A node:http/https transport with a keep-alive pool. `close()` ends the pooled connections. */
export function createNodeTransport(options: { tls?: CloudTlsOptions } = {}): HttpTransport & {
  close(): void;
} {
  let agents: { http: HttpAgent; https: HttpsAgent } | undefined;
  const transport = async (request: HttpRequest, limits: HttpLimits): Promise<HttpResponse> => {
    const { http, https, zlib } = await loadNode();
    agents ??= {
      http: new http.Agent({ keepAlive: true }),
      https: new https.Agent({
        keepAlive: true,
        ...(options.tls?.ca ? { ca: options.tls.ca } : {}),
        rejectUnauthorized: options.tls?.rejectUnauthorized ?? true,
      }),
    };
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') {
      throw new CloudError('CLOUD_OPTIONS', `unsupported URL scheme ${url.protocol}`);
    }
    return new Promise<HttpResponse>((resolve, reject) => {
      let done = false;
      let req: ClientRequest;
      let res: IncomingMessage | undefined;
      const fail = (error: CloudError) => {
        if (done) return;
        done = true;
        stall.stop();
        whole?.stop();
        connect?.stop();
        req.destroy();
        res?.destroy();
        reject(error);
      };
      const stall = watchdog(limits.stallTimeoutMs, () =>
        fail(new CloudError('CLOUD_TIMEOUT', `no byte moved for ${limits.stallTimeoutMs} ms`)),
      );
      const whole =
        limits.timeoutMs === undefined
          ? undefined
          : watchdog(limits.timeoutMs, () =>
              fail(new CloudError('CLOUD_TIMEOUT', `the request took longer than ${limits.timeoutMs} ms`)),
            );
      let connect: ReturnType<typeof watchdog> | undefined;
      const headers = { ...request.headers };
      if (request.body) headers['content-length'] = String(request.body.length);
      req = (secure ? https : http).request(url, {
        method: request.method,
        headers,
        agent: secure ? agents!.https : agents!.http,
      });
      req.on('socket', (socket) => {
        if (socket.connecting) {
          connect = watchdog(limits.connectTimeoutMs, () =>
            fail(new CloudError('CLOUD_TIMEOUT', `no connection within ${limits.connectTimeoutMs} ms`)),
          );
          socket.once(secure ? 'secureConnect' : 'connect', () => {
            connect?.stop();
            stall.touch();
          });
        }
      });
      req.on('error', (error) => fail(networkError(error)));
      req.on('response', (response) => {
        res = response;
        stall.touch();
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > limits.maxResponseBytes) {
          fail(tooLarge(limits.maxResponseBytes));
          return;
        }
        const decode = decoder(zlib, response.headers['content-encoding']);
        const chunks: Buffer[] = [];
        let raw = 0;
        let total = 0;
        const body: Readable = decode ?? response;
        response.on('data', (chunk: Buffer) => {
          stall.touch();
          raw += chunk.length;
          if (raw > limits.maxResponseBytes) fail(tooLarge(limits.maxResponseBytes));
        });
        if (decode) {
          response.pipe(decode);
          decode.on('error', (error) =>
            fail(
              new CloudError('CLOUD_BAD_RESPONSE', 'the response body does not decompress', { cause: error }),
            ),
          );
        }
        body.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > limits.maxResponseBytes) {
            fail(tooLarge(limits.maxResponseBytes));
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', (error) => fail(networkError(error)));
        response.on('close', () => {
          if (!response.complete) fail(networkError(new Error('the response was cut short')));
        });
        body.on('end', () => {
          if (done) return;
          done = true;
          stall.stop();
          whole?.stop();
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(response.headers)) {
            if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
          }
          resolve({ status: response.statusCode ?? 0, headers: out, body: Buffer.concat(chunks, total) });
        });
      });
      // the body goes out in slices so that each flushed slice counts as progress for the stall timer
      const body = request.body;
      if (!body || body.length === 0) {
        req.end();
        return;
      }
      const SLICE = 64 * 1024;
      let at = 0;
      const writeNext = () => {
        while (!done && at < body.length) {
          const slice = body.subarray(at, at + SLICE);
          at += slice.length;
          const more = req.write(slice, () => stall.touch());
          if (!more) {
            req.once('drain', writeNext);
            return;
          }
        }
        if (!done) req.end();
      };
      writeNext();
    });
  };
  return Object.assign(transport, {
    close() {
      agents?.http.destroy();
      agents?.https.destroy();
      agents = undefined;
    },
  });
}

/**
 * A transport over a WHATWG `fetch` (a proxy-aware fetch, a test double). The stall timer watches
 * the response body only (fetch reports no upload progress), and the connect timeout is the fetch's.
 */
export function fetchTransport(fetchImpl: typeof globalThis.fetch): HttpTransport {
  return async (request, limits) => {
    const controller = new AbortController();
    let failure: CloudError | undefined;
    const abort = (error: CloudError) => {
      failure ??= error;
      controller.abort(error);
    };
    const stall = watchdog(limits.stallTimeoutMs, () =>
      abort(new CloudError('CLOUD_TIMEOUT', `no byte moved for ${limits.stallTimeoutMs} ms`)),
    );
    const whole =
      limits.timeoutMs === undefined
        ? undefined
        : watchdog(limits.timeoutMs, () =>
            abort(new CloudError('CLOUD_TIMEOUT', `the request took longer than ${limits.timeoutMs} ms`)),
          );
    try {
      const init: RequestInit = {
        method: request.method,
        headers: request.headers,
        signal: controller.signal,
      };
      if (request.body) init.body = request.body as Uint8Array<ArrayBuffer>;
      const response = await fetchImpl(request.url, init);
      stall.touch();
      const declared = Number(response.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > limits.maxResponseBytes) {
        await response.body?.cancel().catch(() => {});
        throw tooLarge(limits.maxResponseBytes);
      }
      const chunks: Uint8Array[] = [];
      let total = 0;
      if (response.body) {
        const reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          stall.touch();
          total += value.length;
          if (total > limits.maxResponseBytes) {
            await reader.cancel().catch(() => {});
            throw tooLarge(limits.maxResponseBytes);
          }
          chunks.push(value);
        }
      }
      const headers: Record<string, string> = {};
      response.headers.forEach((v, k) => {
        headers[k] = v;
      });
      return { status: response.status, headers, body: Buffer.concat(chunks, total) };
    } catch (error) {
      if (failure) throw failure;
      if (error instanceof CloudError) throw error;
      throw networkError(error);
    } finally {
      stall.stop();
      whole?.stop();
    }
  };
}
