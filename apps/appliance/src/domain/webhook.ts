import { createHmac, randomUUID } from 'node:crypto';
import type { Logger } from '../core/log/logger.js';
import type { Settings } from './settings/schema.js';

/**
 * The webhook: where it may point, how a request is signed, and the setup test the device sends
 * after a save.
 *
 * The secret never travels. Each request carries
 *   X-Webhook-Id:         a UUID, the same on a retry of the same event
 *   X-Webhook-Timestamp:  Unix time in seconds when it was signed
 *   X-Webhook-Signature:  sha256=<hex HMAC-SHA256, keyed with the secret's UTF-8 bytes, over
 *                         `<timestamp>.` followed by the exact body bytes>
 * as GitHub (`sha256=` hex) and Slack/Stripe (timestamp inside the signed text, against replay)
 * do. A receiver recomputes the HMAC over the raw body, compares in constant time, and refuses a
 * timestamp more than 5 minutes away from its clock.
 */

/** Whether the device may send the webhook over plain http: `never` (the default), only to a loopback address, or always. */
export type WebhookHttp = 'never' | 'loopback' | 'always';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export const WEBHOOK_HEADERS = {
  id: 'x-webhook-id',
  timestamp: 'x-webhook-timestamp',
  signature: 'x-webhook-signature',
} as const;

function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Why `value` cannot be the webhook URL under `http`, or null when it can. Only https, unless the
 * device maker allows http (`loopback`: the simulator's local receivers; `always`).
 */
export function webhookUrlProblem(value: string, http: WebhookHttp = 'never'): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not-a-url';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol !== 'http:') return 'scheme';
  if (http === 'always' || (http === 'loopback' && isLoopback(url.hostname))) return null;
  return 'http-not-allowed';
}

/**
 * What the portal and the log may show of a webhook URL: scheme and host only. The path and query
 * of a Slack- or Discord-style hook are its credential.
 */
export function webhookOrigin(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}/…`;
  } catch {
    return '…';
  }
}

/** `sha256=<hex>`: HMAC-SHA256 keyed with `secret` over `<timestamp>.<body>`. */
export function signWebhook(secret: string, timestamp: number, body: Uint8Array): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  mac.update(`${timestamp}.`);
  mac.update(body);
  return `sha256=${mac.digest('hex')}`;
}

export interface WebhookSendOptions {
  fetch?: typeof fetch;
  /** Allowed plain-http targets (default `never`). */
  http?: WebhookHttp;
  /** ms since the epoch (default Date.now). */
  now?: () => number;
  timeoutMs?: number;
}

/**
 * POSTs one event as multipart/form-data (the body is built first, so the signature covers the
 * exact bytes sent). Redirects are not followed: a webhook that moved is reconfigured by its owner.
 * Resolves with the HTTP status; throws on a refused URL or a network failure.
 */
export async function sendWebhook(
  target: { url: string; secret: string },
  fields: Record<string, string>,
  options: WebhookSendOptions = {},
): Promise<number> {
  const problem = webhookUrlProblem(target.url, options.http);
  if (problem) throw new Error(`the webhook URL is not allowed (${problem})`);
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const encoded = new Request('http://webhook.invalid/', { method: 'POST', body: form });
  const body = new Uint8Array(await encoded.arrayBuffer());
  const headers: Record<string, string> = {
    'content-type': encoded.headers.get('content-type') ?? 'multipart/form-data',
    [WEBHOOK_HEADERS.id]: randomUUID(),
  };
  if (target.secret) {
    const timestamp = Math.floor((options.now ?? Date.now)() / 1000);
    headers[WEBHOOK_HEADERS.timestamp] = String(timestamp);
    headers[WEBHOOK_HEADERS.signature] = signWebhook(target.secret, timestamp, body);
  }
  const response = await (options.fetch ?? fetch)(target.url, {
    method: 'POST',
    body,
    headers,
    redirect: 'manual',
    signal: AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
  });
  await response.body?.cancel().catch(() => {});
  return response.status;
}

/** The pending webhook setup test: one signed POST to the configured webhook, the outcome logged by origin only. */
export async function runWebhookSetupTest(
  settings: Settings,
  logger: Logger,
  options: WebhookSendOptions | typeof fetch = {},
): Promise<boolean> {
  const opts: WebhookSendOptions = typeof options === 'function' ? { fetch: options } : options;
  const { url, secret } = settings.webhook;
  if (!url) return false;
  const shown = webhookOrigin(url);
  try {
    const status = await sendWebhook(
      { url, secret },
      {
        event: 'setup-test',
        device: settings.device.name,
        time: new Date((opts.now ?? Date.now)()).toISOString(),
      },
      opts,
    );
    logger.info?.(`webhook setup test to ${shown}: HTTP ${status}`);
    return status >= 200 && status < 300;
  } catch (error) {
    const message = String((error as Error).message)
      .split(url)
      .join(shown);
    logger.warn?.(`webhook setup test to ${shown} failed: ${message}`);
    return false;
  }
}
