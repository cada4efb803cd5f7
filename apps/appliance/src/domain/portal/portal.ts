import { isValidPassphrase, isValidPin, PIN_MAX_DIGITS, PIN_MIN_DIGITS, ssidBytes } from '@waved/psk';
import { formatSsid } from '@waved/wpa-cli';
import { H3, type H3Event } from 'h3';
import type { ProvisioningState, ScannedNetwork, StateBus } from '../../core/bus.js';
import type { HttpServe, ServerHandle } from '../../core/ports/http.js';
import type { PinHash } from '../../core/ports/pin-hash.js';
import {
  languageFromHeader,
  type Message,
  message,
  supportedLanguage,
  type Translator,
  translator,
} from '../../i18n/index.js';
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
  type MessagePage,
  renderForm,
  renderMessage,
  richText,
  statusBanner,
  withLang,
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
  /** Where the PIN is hashed (default: libuv's thread pool; a device: `createLowPriorityPinHash`). */
  pinHash?: PinHash | undefined;
  /** The current session, or null when no provisioning session runs (the portal answers 503). */
  session: () => PortalSession | null;
  logger: Logger;
  /** Host (and optional `:port`) every other GET/HEAD is redirected to. */
  gateway?: string | undefined;
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
/** The log is written in English. */
const english = translator('en');

/**
 * The language of a response: the one chosen with a language link (`?lang=`, carried by every
 * link and form of the portal, because the iOS captive browser keeps no cookies), else the first
 * of the phone's `Accept-Language` that has a catalog, else English. Only a supported tag is ever
 * echoed back into a page.
 */
export function requestLanguage(request: Request): { tr: Translator; langParam: string | null } {
  let asked: string | null = null;
  try {
    asked = supportedLanguage(new URL(request.url).searchParams.get('lang')?.slice(0, 64));
  } catch {
    asked = null;
  }
  return {
    tr: translator(asked ?? languageFromHeader(request.headers.get('accept-language'))),
    langParam: asked,
  };
}
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function headers(type: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...(type === HTML ? { 'content-security-policy': CSP, 'x-frame-options': 'DENY' } : {}),
    // The text depends on the phone's languages (there is no cookie; caches are told anyway).
    vary: 'accept-language',
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

/** A state for the phone: the AP passphrase is never sent back over HTTP. */
function publicState(state: ProvisioningState, tr: Translator): Record<string, string> {
  switch (state.state) {
    case 'ApActive':
      return { state: state.state, ssid: state.ssid };
    case 'Failed':
      return { state: state.state, reason: state.reason, message: failureText(state, tr) };
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
): { connect?: ConnectRequest; errors: Record<string, Message> } {
  const errors: Record<string, Message> = {};
  const hex = (fields['wifi.ssid_hex'] ?? '').toLowerCase();
  const choice = fields['wifi.ssid'] ?? '';
  const typed = fields['wifi.hidden_ssid'] ?? '';
  let bytes: Buffer | null = null;
  let listed: ScannedNetwork | undefined;
  let key = 'wifi.ssid';
  const tooLong = message('error.wifi.ssidLength', { max: 32 });
  if (hex !== '') {
    listed = /^(?:[0-9a-f]{2}){1,32}$/.test(hex) ? networks.find((n) => n.ssidHex === hex) : undefined;
    if (listed) bytes = Buffer.from(hex, 'hex');
    else errors[key] = message('error.wifi.chooseListed');
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
    errors['wifi.ssid'] = message('error.wifi.choose');
  }
  if (listed && !listed.secure) errors[key] = message('error.wifi.open');
  const passphrase = fields['wifi.passphrase'] ?? '';
  if (!isValidPassphrase(passphrase)) {
    errors['wifi.passphrase'] =
      passphrase === ''
        ? message('error.wifi.passwordMissing')
        : message('error.wifi.passwordInvalid', { min: 8, max: 63, hex: 64 });
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
    request: Request,
    extra: Pick<FormView, 'values' | 'errors' | 'target' | 'notice'>,
    headerExtra?: Record<string, string>,
  ): Response {
    const { tr, langParam } = requestLanguage(request);
    return htmlResponse(
      status,
      renderForm(
        {
          apSsid: s.apSsid,
          csrf: s.csrf,
          networks: s.networks,
          state: s.state,
          settings: settings.current(),
          remaining: remaining(s),
          revision: settings.revision(),
          langParam,
          ...extra,
        },
        tr,
      ),
      headerExtra,
    );
  }

  /** A page with a title and a few lines, in the request's language. */
  function messagePage(
    status: number,
    request: Request,
    content: (tr: Translator, lang: string | null) => Omit<MessagePage, 'langParam'>,
    extra?: Record<string, string>,
  ): Response {
    const { tr, langParam } = requestLanguage(request);
    return htmlResponse(status, renderMessage(tr, { ...content(tr, langParam), langParam }), extra);
  }

  function redirect(): Response {
    // A probe must never look "online": no 204, no "Success", just a bodyless redirect to the form.
    return new Response(null, { status: 302, headers: { location: home, 'cache-control': 'no-store' } });
  }

  const strong = (text: string) => `<strong>${escapeHtml(text)}</strong>`;
  const link = (href: string, text: string, cls?: string) =>
    `<a${cls ? ` class="${cls}"` : ''} href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;

  function notActive(request: Request): Response {
    if (wantsJson(request)) return jsonResponse(503, { error: 'not-active' });
    return messagePage(503, request, (tr) => {
      // The way there, in the words the device screen uses.
      const path = [
        tr.t('screen.menu.title'),
        tr.t('screen.menu.wifi'),
        tr.t('screen.action.setUpWifi'),
      ].join(' › ');
      return {
        title: tr.t('portal.inactive.title'),
        html: `<p>${richText(tr, message('portal.inactive.body', { path: '' }), { path: strong(path) })}</p>`,
      };
    });
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
    return formPage(200, s, request, {
      target: target?.ssid ?? null,
      values: retryValues(s),
    });
  });

  const statusJson = (request: Request) => {
    const s = session();
    if (!s) return jsonResponse(503, { error: 'not-active' });
    const left = remaining(s);
    return jsonResponse(200, {
      ...publicState(s.state, requestLanguage(request).tr),
      ...(left === null ? {} : { remainingSeconds: Math.floor(left) }),
    });
  };
  get('/status.json', (event: H3Event) => statusJson(event.req as unknown as Request));

  get('/status', (event: H3Event) => {
    const request = event.req as unknown as Request;
    if (wantsJson(request)) return statusJson(request);
    const s = session();
    if (!s) return notActive(request);
    const st = s.state;
    const settled = st.state === 'Connected' || st.state === 'Failed' || st.state === 'ApActive';
    return messagePage(200, request, (tr, lang) => {
      const banner =
        statusBanner(st, tr, withLang('/#wifi', lang), target?.ssid) ||
        `<div class="banner" role="status"><strong>${escapeHtml(tr.t('portal.status.waiting'))}</strong><p>${link(withLang('/', lang), tr.t('portal.status.openForm'))}</p></div>`;
      const hint = richText(tr, message('portal.status.hint', { ap: '', url: '' }), {
        ap: strong(s.apSsid),
        url: link(home, home),
      });
      return {
        title: tr.t('portal.status.title'),
        html: `${banner}<p class="hint">${hint}</p>`,
        languagePath: '/status',
        ...(settled ? {} : { refresh: { seconds: 3, to: '/status' } }),
      };
    });
  });

  async function handlePost(event: H3Event, connectToo: boolean): Promise<Response> {
    const request = event.req as unknown as Request;
    const json = wantsJson(request);
    const { tr } = requestLanguage(request);
    const route = connectToo ? '/save-connect' : '/save';
    const s = session();
    if (!s) return notActive(request);
    const parsed = await parseFormBody(request, MAX_BODY_BYTES);
    if (!parsed.ok) {
      logger.warn?.(`portal: ${route} rejected with ${parsed.status}: ${english.text(parsed.message)}`);
      const close = parsed.status === 413 ? { connection: 'close' } : undefined;
      if (json) return jsonResponse(parsed.status, { error: tr.text(parsed.message) }, close);
      return messagePage(
        parsed.status,
        request,
        (t, lang) => ({
          title: t.t('portal.notSaved.title'),
          html: `<p>${escapeHtml(t.text(parsed.message))}</p><p>${link(withLang('/', lang), t.t('portal.backToForm'))}</p>`,
        }),
        close,
      );
    }
    const fields = parsed.fields;
    const token = fields.csrf ?? request.headers.get('x-csrf-token');
    if (!csrfMatches(s.csrf, token)) {
      logger.warn?.(`portal: ${route} rejected: CSRF token ${token ? 'wrong' : 'missing'}`);
      if (json) return jsonResponse(400, { error: 'csrf' });
      return messagePage(400, request, (t, lang) => ({
        title: t.t('portal.expired.title'),
        html: `<p>${escapeHtml(t.t('portal.expired.body'))}</p><p>${link(withLang('/', lang), t.t('portal.reloadForm'), 'button primary')}</p>`,
      }));
    }
    if (connectToo && (s.state.state === 'Connecting' || s.state.state === 'Scanning')) {
      if (json) return jsonResponse(409, { error: tr.t('portal.busy.body') });
      return messagePage(409, request, (t, lang) => ({
        title: t.t('portal.busy.title'),
        html: `<p>${escapeHtml(t.t('portal.busy.body'))}</p><p>${link(withLang('/status', lang), t.t('portal.showStatus'))}</p>`,
      }));
    }
    // One save at a time: each one validates against what the one before it wrote.
    return settings.exclusive(() => saveExclusive(request, s, fields, json, route, connectToo));
  }

  async function saveExclusive(
    request: Request,
    s: PortalSession,
    fields: Record<string, string>,
    json: boolean,
    route: string,
    connectToo: boolean,
  ): Promise<Response> {
    const { tr } = requestLanguage(request);
    /** Error texts of a JSON answer, in the request's language. */
    const texts = (errors: Record<string, Message>): Record<string, string> => {
      const out: Record<string, string> = {};
      for (const [k, m] of Object.entries(errors)) out[k] = tr.text(m);
      return out;
    };
    const revision = fields['settings.revision'];
    if (revision !== undefined && revision !== settings.revision()) {
      // A form loaded before another save: its untouched fields hold old values that would undo
      // that save. Nothing is written; the form comes back with the current settings.
      logger.info?.(`portal: ${route} refused: the settings changed since this form was loaded`);
      const notice = message('portal.stale');
      if (json) return jsonResponse(409, { error: 'stale', message: tr.text(notice) });
      return formPage(409, s, request, { notice });
    }
    const result = settings.validate(fields);
    const errors: Record<string, Message> = result.ok ? {} : { ...result.errors };
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
      if (given === '') errors[CURRENT_PIN_FIELD] = message('error.currentPin.missing');
      else if (!isValidPin(given))
        errors[CURRENT_PIN_FIELD] = message('error.currentPin.invalid', {
          min: PIN_MIN_DIGITS,
          max: PIN_MAX_DIGITS,
        });
    }
    if (!result.ok || Object.keys(errors).length > 0) {
      logger.info?.(`portal: ${route} has invalid fields: ${Object.keys(errors).join(', ')}`);
      if (json) return jsonResponse(422, { errors: texts(errors) });
      return formPage(422, s, request, { values: echoable(fields), errors });
    }
    // Every other field is valid: only now is the PIN hashed (off the event loop), once per save.
    if (record !== '') {
      const outcome = await attempts.attempt(() => verifyPinAsync(given, record, options.pinHash));
      if (!outcome.ok) {
        const seconds = Math.ceil(outcome.retryAfterMs / 1000);
        const refused =
          outcome.reason === 'locked'
            ? message('error.currentPin.locked', { wait: seconds })
            : seconds > 0
              ? message('error.currentPin.wrongWait', { wait: seconds })
              : message('error.currentPin.wrong');
        const status = outcome.reason === 'locked' ? 429 : 422;
        const retry = seconds > 0 ? { 'retry-after': String(seconds) } : undefined;
        logger.warn?.(
          `portal: ${route} refused: ${outcome.reason === 'locked' ? 'PIN checks are paused' : 'wrong PIN'} (${outcome.failures} in a row)`,
        );
        const pinErrors = { [CURRENT_PIN_FIELD]: refused };
        if (json) return jsonResponse(status, { errors: texts(pinErrors) }, retry);
        return formPage(status, s, request, { values: echoable(fields), errors: pinErrors }, retry);
      }
    }
    const next: Settings = result.settings;
    try {
      if (result.pin !== undefined) next.security.device_password = await settings.hashPin(result.pin);
      await settings.save(next);
    } catch (error) {
      logger.error?.(`portal: saving the settings failed: ${(error as Error).message}`);
      if (json) return jsonResponse(500, { error: 'save-failed' });
      return messagePage(500, request, (t, lang) => ({
        title: t.t('portal.notSaved.title'),
        html: `<p>${escapeHtml(t.t('portal.saveFailed.body'))}</p><p>${link(withLang('/', lang), t.t('portal.backToForm'))}</p>`,
      }));
    }
    logger.info?.(`portal: settings saved through ${route}`);
    if (result.cleared.includes('webhook.secret'))
      logger.info?.('portal: the webhook secret was removed because the webhook URL changed');
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
    const clearedNote = (t: Translator) =>
      result.cleared.includes('webhook.secret')
        ? `<p>${escapeHtml(t.t('portal.saved.secretCleared'))}</p>`
        : '';
    if (connect) {
      const ssid = connect.ssid;
      return messagePage(200, request, (t) => ({
        title: t.t('portal.saved.title'),
        html: `<div class="banner good" role="status"><strong>${richText(t, message('portal.banner.connecting', { ssid: '' }), { ssid: escapeHtml(ssid) })}</strong></div>${clearedNote(t)}
<p>${richText(t, message('portal.saved.leaving', { ap: '' }), { ap: strong(s.apSsid) })}</p>
<p>${richText(t, message('portal.saved.next', { connected: '', tryAgain: '', ap: '', url: '' }), {
          connected: strong(t.t('screen.status.connected')),
          tryAgain: strong(t.t('screen.action.tryAgain')),
          ap: escapeHtml(s.apSsid),
          url: link(home, home),
        })}</p>`,
        refresh: { seconds: 3, to: '/status' },
      }));
    }
    return messagePage(200, request, (t, lang) => ({
      title: t.t('portal.saved.title'),
      html: `<div class="banner good" role="status"><strong>${escapeHtml(t.t('portal.saved.done'))}</strong></div>${clearedNote(t)}<p>${link(withLang('/', lang), t.t('portal.backToForm'), 'button secondary')}</p>`,
    }));
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
