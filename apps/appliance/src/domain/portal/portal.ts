import { isValidPassphrase, isValidPin, ssidBytes } from '@waved/psk';
import { formatSsid } from '@waved/wpa-cli';
import { H3, type H3Event } from 'h3';
import type { ProvisioningState, ScannedNetwork, StateBus } from '../../core/bus.js';
import type { HttpServe, ServerHandle } from '../../core/ports/http.js';
import { type AttemptLimiter, createAttemptLimiter } from '../security/attempts.js';
import { verifyPinAsync } from '../security/pin.js';
import type { Logger } from '../settings/logger.js';
import type { Settings } from '../settings/schema.js';
import type { SettingsStore } from '../settings/store.js';
import { MAX_BODY_BYTES, parseFormBody } from './body.js';
import {
  type ConnectionLimits,
  PORTAL_HEADERS_TIMEOUT_MS,
  PORTAL_MAX_CONNECTIONS,
  PORTAL_MAX_CONNECTIONS_PER_CLIENT,
  PORTAL_REQUEST_TIMEOUT_MS,
  PORTAL_TIMEOUT_CHECK_MS,
} from './connections.js';
import { csrfMatches } from './csrf.js';
import {
  CURRENT_PIN_FIELD,
  escapeHtml,
  type FormView,
  failureText,
  renderForm,
  renderMessage,
  statusBanner,
} from './html.js';

/** What the provisioning controller shares with the portal for one session. */
export interface PortalSession {
  /** 32 random bytes, base64url, made by the controller per session. */
  csrf: string;
  /** `Device-XXXX` */
  apSsid: string;
  /** The STA-mode scan cached for the form. */
  networks: ScannedNetwork[];
  state: ProvisioningState;
  /** When the 300 s session ends (ms since the epoch), for the countdown; optional. */
  expiresAt?: number;
}

export interface PortalOptions {
  bus: StateBus;
  settings: Pick<SettingsStore, 'current' | 'validate' | 'save' | 'hashPin' | 'exclusive' | 'revision'>;
  /**
   * The failed-PIN counter shared with PC Link (persisted). Absent: one in memory, which a
   * restart resets; the device passes the shared one.
   */
  pinAttempts?: AttemptLimiter;
  /** The current session, or null when no provisioning session runs (the portal answers 503). */
  session: () => PortalSession | null;
  logger: Logger;
  /** Host (and optional `:port`) every other GET/HEAD is redirected to. */
  gateway?: string;
  /** Clock for the countdown (tests). */
  now?: () => number;
  /** Binds the HTTP server (node:http on a device). */
  serve: HttpServe;
  /** Connection limits of the HTTP server (defaults in connections.ts). */
  connections?: ConnectionLimits;
}

export interface Portal {
  app: H3;
  listen(options: { host: string; port: number }): Promise<ServerHandle>;
}

export interface ConnectRequest {
  /** Display form (`formatSsid` of the bytes: never loses a byte, shows escapes). */
  ssid: string;
  /** The SSID bytes as hex: what the station is given. */
  ssidHex: string;
  passphrase: string;
  hidden: boolean;
}

const HTML = 'text/html; charset=utf-8';
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function headers(type: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...(type === HTML ? { 'content-security-policy': CSP, 'x-frame-options': 'DENY' } : {}),
    ...extra,
  };
}

function htmlResponse(status: number, body: string, extra?: Record<string, string>): Response {
  return new Response(body, { status, headers: headers(HTML, extra) });
}

function jsonResponse(status: number, value: unknown, extra?: Record<string, string>): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: headers('application/json; charset=utf-8', extra),
  });
}

function wantsJson(request: Request): boolean {
  const accept = (request.headers.get('accept') ?? '').toLowerCase();
  return accept.includes('application/json') && !accept.includes('text/html');
}

/** `45 s`, `3 min`, `1 h`. */
function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.ceil(seconds / 3600)} h`;
}

/** A state for the phone: the AP passphrase is never sent back over HTTP. */
function publicState(state: ProvisioningState): Record<string, string> {
  switch (state.state) {
    case 'ApActive':
      return { state: state.state, ssid: state.ssid };
    case 'Failed':
      return { state: state.state, reason: state.reason, message: failureText(state) };
    case 'Connecting':
    case 'Connected':
      return { state: state.state, ssid: state.ssid };
    default:
      return { state: state.state };
  }
}

/**
 * The Wi-Fi choice of /save-connect: a listed network by its SSID bytes (`wifi.ssid_hex`, what the
 * form posts), a listed network by its shown name (`wifi.ssid`, for scripts), or a hidden one typed
 * by hand (`wifi.hidden_ssid`, its UTF-8 bytes).
 */
export function readConnect(
  fields: Record<string, string>,
  networks: readonly ScannedNetwork[],
): { connect?: ConnectRequest; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const hex = (fields['wifi.ssid_hex'] ?? '').toLowerCase();
  const choice = fields['wifi.ssid'] ?? '';
  const typed = fields['wifi.hidden_ssid'] ?? '';
  let bytes: Buffer | null = null;
  let listed: ScannedNetwork | undefined;
  let key = 'wifi.ssid';
  const tooLong = 'A network name is 1 to 32 bytes long (fewer for accented letters or emoji).';
  if (hex !== '') {
    listed = /^(?:[0-9a-f]{2}){1,32}$/.test(hex) ? networks.find((n) => n.ssidHex === hex) : undefined;
    if (listed) bytes = Buffer.from(hex, 'hex');
    else
      errors[key] =
        'Choose a network from the list, or choose “Other” and enter the name of a hidden network.';
  } else if (choice !== '' || typed !== '') {
    const name = choice !== '' ? choice : typed;
    if (choice === '') key = 'wifi.hidden_ssid';
    listed = choice !== '' ? networks.find((n) => n.ssid === choice) : undefined;
    try {
      bytes = listed?.ssidHex ? Buffer.from(listed.ssidHex, 'hex') : ssidBytes(name);
    } catch {
      errors[key] = tooLong;
    }
    listed ??= bytes ? networks.find((n) => n.ssidHex === bytes!.toString('hex')) : undefined;
  } else {
    errors['wifi.ssid'] = 'Choose a network, or choose “Other” and enter the name of a hidden network.';
  }
  if (listed && !listed.secure)
    errors[key] = 'This is an open network. The device joins WPA2-protected networks only.';
  const passphrase = fields['wifi.passphrase'] ?? '';
  if (!isValidPassphrase(passphrase)) {
    errors['wifi.passphrase'] =
      passphrase === ''
        ? 'Enter the Wi-Fi password.'
        : 'Use 8 to 63 characters without accents or emoji, or 64 hexadecimal digits. Enter it again.';
  }
  if (Object.keys(errors).length > 0 || !bytes) return { errors };
  return {
    connect: { ssid: formatSsid(bytes), ssidHex: bytes.toString('hex'), passphrase, hidden: !listed },
    errors,
  };
}

/** Fields a re-rendered form may show again: never a password, PIN or secret. */
function echoable(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (
      k === 'csrf' ||
      k === 'wifi.passphrase' ||
      k === 'webhook.secret' ||
      k === 'security.device_password' ||
      k === CURRENT_PIN_FIELD
    )
      continue;
    if (k.endsWith('_clear')) continue;
    out[k] = v;
  }
  return out;
}

export function createPortal(options: PortalOptions): Portal {
  const { bus, settings, session, logger } = options;
  const gateway = options.gateway ?? '192.168.2.1';
  const now = options.now ?? Date.now;
  const home = `http://${gateway}/`;
  const gatewayHost = gateway.replace(/:\d+$/, '').toLowerCase();
  const app = new H3();
  const attempts = options.pinAttempts ?? createAttemptLimiter();
  /** The network of the last attempt: named on failure and chosen again in the form. */
  let target: { ssid: string; ssidHex: string; hidden: boolean; typed: string } | null = null;
  const offState = bus.on('ProvisioningState', (state) => {
    if (state.state === 'Idle') target = null;
  });

  /** After a failure the form comes back with the same network chosen (the password is typed again). */
  function retryValues(s: PortalSession): Record<string, string> | undefined {
    if (s.state.state !== 'Failed' || !target) return undefined;
    return target.hidden
      ? { 'wifi.ssid_hex': '', 'wifi.hidden_ssid': target.typed }
      : { 'wifi.ssid_hex': target.ssidHex };
  }

  function remaining(s: PortalSession): number | null {
    return s.expiresAt === undefined ? null : Math.max(0, (s.expiresAt - now()) / 1000);
  }

  /** The settings form of session `s`; `extra` holds what this response adds (values, errors, target). */
  function formPage(
    status: number,
    s: PortalSession,
    extra: Pick<FormView, 'values' | 'errors' | 'target' | 'notice'>,
    headerExtra?: Record<string, string>,
  ): Response {
    return htmlResponse(
      status,
      renderForm({
        apSsid: s.apSsid,
        csrf: s.csrf,
        networks: s.networks,
        state: s.state,
        settings: settings.current(),
        remaining: remaining(s),
        revision: settings.revision(),
        ...extra,
      }),
      headerExtra,
    );
  }

  function redirect(): Response {
    // A probe must never look "online": no 204, no "Success", just a bodyless redirect to the form.
    return new Response(null, { status: 302, headers: { location: home, 'cache-control': 'no-store' } });
  }

  function notActive(request: Request): Response {
    if (wantsJson(request)) return jsonResponse(503, { error: 'not-active' });
    return htmlResponse(
      503,
      renderMessage(
        'Setup is not active',
        '<p>Open <strong>Menu › Wi-Fi › Set up Wi-Fi</strong> on the device, join the network it shows, and open this page again.</p>',
      ),
    );
  }

  /** A name (not an address) in Host means a phone probing some other site: send it to the portal. */
  function foreignHost(request: Request): boolean {
    const host = (request.headers.get('host') ?? '').toLowerCase();
    if (host === '' || host.startsWith('[')) return false;
    const name = host.replace(/:\d+$/, '');
    return /[a-z]/.test(name) && name !== 'localhost' && name !== gatewayHost;
  }

  /** GET and HEAD (HEAD is not routed to GET handlers by the router). */
  const get = (path: string, handler: (event: H3Event) => Response) => {
    app.get(path, handler);
    app.on('HEAD', path, handler);
  };

  get('/', (event: H3Event) => {
    const request = event.req as unknown as Request;
    if (foreignHost(request)) return redirect();
    const s = session();
    if (!s) return notActive(request);
    return formPage(200, s, {
      target: target?.ssid ?? null,
      ...(retryValues(s) ? { values: retryValues(s) } : {}),
    });
  });

  const statusJson = () => {
    const s = session();
    if (!s) return jsonResponse(503, { error: 'not-active' });
    const left = remaining(s);
    return jsonResponse(200, {
      ...publicState(s.state),
      ...(left === null ? {} : { remainingSeconds: Math.floor(left) }),
    });
  };
  get('/status.json', statusJson);

  get('/status', (event: H3Event) => {
    const request = event.req as unknown as Request;
    if (wantsJson(request)) return statusJson();
    const s = session();
    if (!s) return notActive(request);
    const st = s.state;
    const banner =
      statusBanner(st, true, target?.ssid) ||
      '<div class="banner" role="status"><strong>Waiting for your settings.</strong><p><a href="/">Open the form</a></p></div>';
    const settled = st.state === 'Connected' || st.state === 'Failed' || st.state === 'ApActive';
    return htmlResponse(
      200,
      renderMessage(
        'Setup status',
        `${banner}<p class="hint">If this phone left the setup network, the device screen shows the result. To try again, rejoin <strong>${escapeHtml(s.apSsid)}</strong> and open <a href="${escapeHtml(home)}">${escapeHtml(home)}</a>.</p>`,
        settled ? undefined : { seconds: 3, to: '/status' },
      ),
    );
  });

  async function handlePost(event: H3Event, connectToo: boolean): Promise<Response> {
    const request = event.req as unknown as Request;
    const json = wantsJson(request);
    const route = connectToo ? '/save-connect' : '/save';
    const s = session();
    if (!s) return notActive(request);
    const parsed = await parseFormBody(request, MAX_BODY_BYTES);
    if (!parsed.ok) {
      logger.warn(`portal: ${route} rejected with ${parsed.status}: ${parsed.message}`);
      const close = parsed.status === 413 ? { connection: 'close' } : undefined;
      if (json) return jsonResponse(parsed.status, { error: parsed.message }, close);
      return htmlResponse(
        parsed.status,
        renderMessage(
          'Nothing was saved',
          `<p>${escapeHtml(parsed.message)}</p><p><a href="/">Back to the form</a></p>`,
        ),
        close,
      );
    }
    const fields = parsed.fields;
    const token = fields.csrf ?? request.headers.get('x-csrf-token');
    if (!csrfMatches(s.csrf, token)) {
      logger.warn(`portal: ${route} rejected: CSRF token ${token ? 'wrong' : 'missing'}`);
      if (json) return jsonResponse(400, { error: 'csrf' });
      return htmlResponse(
        400,
        renderMessage(
          'This page has expired',
          '<p>Nothing was saved. The setup session changed since this page was loaded.</p><p><a class="button primary" href="/">Reload the form</a></p>',
        ),
      );
    }
    if (connectToo && (s.state.state === 'Connecting' || s.state.state === 'Scanning')) {
      const message = 'The device is busy connecting. Wait for the result, then try again.';
      if (json) return jsonResponse(409, { error: message });
      return htmlResponse(
        409,
        renderMessage('Please wait', `<p>${message}</p><p><a href="/status">Show the status</a></p>`),
      );
    }
    // One save at a time: each one validates against what the one before it wrote.
    return settings.exclusive(() => saveExclusive(s, fields, json, route, connectToo));
  }

  async function saveExclusive(
    s: PortalSession,
    fields: Record<string, string>,
    json: boolean,
    route: string,
    connectToo: boolean,
  ): Promise<Response> {
    const revision = fields['settings.revision'];
    if (revision !== undefined && revision !== settings.revision()) {
      // A form loaded before another save: its untouched fields hold old values that would undo
      // that save. Nothing is written; the form comes back with the current settings.
      logger.info(`portal: ${route} refused: the settings changed since this form was loaded`);
      const notice =
        'The settings were changed from another phone while this page was open. Nothing was saved: check the form below and save again.';
      if (json) return jsonResponse(409, { error: 'stale', message: notice });
      return formPage(409, s, { notice });
    }
    const result = settings.validate(fields);
    const errors: Record<string, string> = result.ok ? {} : { ...result.errors };
    let connect: ConnectRequest | undefined;
    if (connectToo) {
      const wifi = readConnect(fields, s.networks);
      Object.assign(errors, wifi.errors);
      connect = wifi.connect;
    }
    const current = settings.current();
    const record = current.security.device_password;
    const given = fields[CURRENT_PIN_FIELD] ?? '';
    if (record !== '') {
      if (given === '') errors[CURRENT_PIN_FIELD] = 'Enter the current device PIN to save.';
      else if (!isValidPin(given)) errors[CURRENT_PIN_FIELD] = 'The PIN is 4 to 6 digits. Enter it again.';
    }
    if (!result.ok || Object.keys(errors).length > 0) {
      logger.info(`portal: ${route} has invalid fields: ${Object.keys(errors).join(', ')}`);
      if (json) return jsonResponse(422, { errors });
      return formPage(422, s, { values: echoable(fields), errors });
    }
    // Every other field is valid: only now is the PIN hashed (off the event loop), once per save.
    if (record !== '') {
      const outcome = await attempts.attempt(() => verifyPinAsync(given, record));
      if (!outcome.ok) {
        const seconds = Math.ceil(outcome.retryAfterMs / 1000);
        const wait = seconds > 0 ? ` Wait ${formatWait(seconds)} before the next try.` : '';
        const message =
          outcome.reason === 'locked'
            ? `Too many wrong PINs. Try again in ${formatWait(seconds)}.`
            : `Wrong PIN. Nothing was saved.${wait}`;
        const status = outcome.reason === 'locked' ? 429 : 422;
        const retry = seconds > 0 ? { 'retry-after': String(seconds) } : undefined;
        logger.warn(
          `portal: ${route} refused: ${outcome.reason === 'locked' ? 'PIN checks are paused' : 'wrong PIN'} (${outcome.failures} in a row)`,
        );
        if (json) return jsonResponse(status, { errors: { [CURRENT_PIN_FIELD]: message } }, retry);
        return formPage(
          status,
          s,
          { values: echoable(fields), errors: { [CURRENT_PIN_FIELD]: message } },
          retry,
        );
      }
    }
    const next: Settings = result.settings;
    try {
      if (result.pin !== undefined) next.security.device_password = await settings.hashPin(result.pin);
      await settings.save(next);
    } catch (error) {
      logger.error(`portal: saving the settings failed: ${(error as Error).message}`);
      if (json) return jsonResponse(500, { error: 'save-failed' });
      return htmlResponse(
        500,
        renderMessage(
          'Nothing was saved',
          '<p>The device could not write its settings. Try again.</p><p><a href="/">Back to the form</a></p>',
        ),
      );
    }
    logger.info(`portal: settings saved through ${route}`);
    if (result.cleared.includes('webhook.secret'))
      logger.info('portal: the webhook secret was removed because the webhook URL changed');
    if (connect)
      target = {
        ssid: connect.ssid,
        ssidHex: connect.ssidHex,
        hidden: connect.hidden,
        typed: fields['wifi.hidden_ssid'] ?? '',
      };
    bus.send(connect ? { type: 'SettingsSaved', connect } : { type: 'SettingsSaved' });
    if (json)
      return jsonResponse(200, { ok: true, ...(result.cleared.length ? { cleared: result.cleared } : {}) });
    const clearedNote = result.cleared.includes('webhook.secret')
      ? '<p>The webhook address changed, so its secret was removed: enter a secret again to sign the requests.</p>'
      : '';
    if (connect) {
      return htmlResponse(
        200,
        renderMessage(
          'Settings saved',
          `<div class="banner good" role="status"><strong>Connecting to “${escapeHtml(connect.ssid)}”…</strong></div>${clearedNote}
<p>The device now closes the setup network <strong>${escapeHtml(s.apSsid)}</strong>, so this phone will disconnect from it and go back to its usual network.</p>
<p>The device screen shows <strong>Connected</strong>, or the reason it failed with <strong>Try again</strong>. If it fails, rejoin ${escapeHtml(s.apSsid)} and open <a href="${escapeHtml(home)}">${escapeHtml(home)}</a> again.</p>`,
          { seconds: 3, to: '/status' },
        ),
      );
    }
    return htmlResponse(
      200,
      renderMessage(
        'Settings saved',
        `<div class="banner good" role="status"><strong>Your settings are saved.</strong></div>${clearedNote}<p><a class="button secondary" href="/">Back to the form</a></p>`,
      ),
    );
  }

  app.post('/save', (event: H3Event) => handlePost(event, false));
  get('/save', redirect);
  get('/save-connect', redirect);
  app.post('/save-connect', (event: H3Event) => handlePost(event, true));

  app.all('/**', (event: H3Event) => {
    const method = event.req.method.toUpperCase();
    if (method === 'GET' || method === 'HEAD') return redirect();
    return new Response(null, {
      status: 405,
      headers: { allow: 'GET, HEAD, POST', 'cache-control': 'no-store' },
    });
  });

  return {
    app,
    async listen({ host, port }) {
      const server = await options.serve(app, {
        host,
        port,
        limits: {
          headersTimeoutMs: PORTAL_HEADERS_TIMEOUT_MS,
          requestTimeoutMs: PORTAL_REQUEST_TIMEOUT_MS,
          timeoutCheckMs: PORTAL_TIMEOUT_CHECK_MS,
          keepAliveTimeoutMs: 5_000,
          perClient: options.connections?.perClient ?? PORTAL_MAX_CONNECTIONS_PER_CLIENT,
          total: options.connections?.total ?? PORTAL_MAX_CONNECTIONS,
        },
      });
      let closed = false;
      return {
        ...server,
        async close() {
          if (!closed) {
            closed = true;
            offState();
          }
          await server.close();
        },
      };
    },
  };
}
