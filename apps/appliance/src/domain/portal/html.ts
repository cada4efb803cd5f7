import type { ProvisioningState, ScannedNetwork, SignalClass } from '../../core/bus.js';
import { formatFailure } from '../../core/messages.js';
import {
  LOCALES,
  type Message,
  type MessageKey,
  type MessageValue,
  message,
  type Translator,
} from '../../i18n/index.js';
import {
  countries,
  FIELDS,
  type FieldSpec,
  GROUP_TITLES,
  LANGUAGES,
  type Settings,
  type SettingsGroup,
  timeZones,
} from '../settings/index.js';
import { webhookOrigin } from '../webhook.js';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** For showing an SSID: control characters become U+FFFD so they cannot upset the layout. */
function visible(value: string): string {
  return escapeHtml(value.replace(/\p{Cc}/gu, '\uFFFD'));
}

function fieldId(key: string): string {
  return `f-${key.replace(/[^a-z0-9_]/gi, '-')}`;
}

const CSS = `
:root{color-scheme:light dark;--fg:#1a1a1a;--muted:#595959;--bg:#f6f6f4;--card:#fff;--line:#c8c8c8;--accent:#0b57d0;--accent-fg:#fff;--err:#b3261e;--err-bg:#fdecea;--ok:#146c2e;--ok-bg:#e6f4ea}
@media (prefers-color-scheme:dark){:root{--fg:#ececec;--muted:#b4b4b4;--bg:#121212;--card:#1e1e1e;--line:#555;--accent:#a8c7fa;--accent-fg:#062e6f;--err:#ffb4ab;--err-bg:#410e0b;--ok:#a8dab5;--ok-bg:#0c3a1c}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:36rem;margin:0 auto;padding:1rem 1rem 4rem}
h1{font-size:1.5rem;line-height:1.25;margin:.5rem 0 .25rem}
h2{font-size:1.125rem;margin:0 0 .5rem}
p{margin:.25rem 0 .75rem}
.lead,.hint{color:var(--muted)}
.hint{font-size:.9375rem;margin:.25rem 0 0}
fieldset{border:1px solid var(--line);border-radius:12px;background:var(--card);margin:0 0 1rem;padding:.75rem 1rem 1rem;min-width:0}
legend{font-weight:700;font-size:1.125rem;padding:0 .25rem}
.field{margin-top:1rem}
label.block{display:block;font-weight:600;margin-bottom:.25rem}
input[type=text],input[type=password],input[type=url],input[type=number],select,textarea{display:block;width:100%;min-height:48px;padding:.625rem .75rem;font:inherit;font-size:1rem;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:8px}
input:focus,select:focus,textarea:focus,button:focus,a:focus{outline:3px solid var(--accent);outline-offset:2px}
[aria-invalid=true]{border:2px solid var(--err)}
.err{color:var(--err);font-weight:600;margin:.25rem 0 0}
.check{display:flex;align-items:center;gap:.75rem;min-height:48px;margin-top:.5rem;font-weight:600}
.check input,.net input{width:1.5rem;height:1.5rem;margin:0;flex:none;accent-color:var(--accent)}
.nets{list-style:none;margin:0;padding:0}
.net{display:flex;align-items:center;gap:.75rem;min-height:52px;padding:.25rem 0;border-bottom:1px solid var(--line)}
.nets li:last-child .net{border-bottom:0}
.net .name{flex:1;min-width:0;overflow-wrap:anywhere}
.net .note{display:block;font-size:.875rem}
.net.off{color:var(--muted)}
.sig{display:inline-flex;align-items:center;gap:.375rem;color:var(--muted);font-size:.875rem;flex:none}
.sig svg,.lock svg{display:block}
.lock{flex:none;width:16px}
.banner{border-radius:12px;padding:.75rem 1rem;margin:0 0 1rem;border:1px solid var(--line);background:var(--card)}
.banner.bad{border-color:var(--err);background:var(--err-bg)}
.banner.good{border-color:var(--ok);background:var(--ok-bg)}
.banner a{color:inherit;font-weight:700}
.summary ul{margin:.25rem 0 0;padding-left:1.25rem}
.actions{display:grid;gap:.75rem;margin-top:1.25rem}
button,.button{display:block;width:100%;min-height:52px;padding:.75rem 1rem;font:inherit;font-weight:700;font-size:1.0625rem;border-radius:26px;border:2px solid var(--accent);text-align:center;text-decoration:none;cursor:pointer}
.primary{background:var(--accent);color:var(--accent-fg)}
.secondary{background:transparent;color:var(--accent)}
.countdown{font-variant-numeric:tabular-nums}
.plain{border:0;padding:0;margin:0;background:none}
.plain>legend{font-weight:600;font-size:1rem;padding:0;margin-bottom:.25rem}
main,legend,label,.hint,.err,.banner,button,.button,h1,h2{overflow-wrap:anywhere;hyphens:auto}
:lang(ja),:lang(zh){line-break:strict;word-break:normal}
:lang(ja){word-break:auto-phrase}
.top{display:flex;justify-content:flex-end;margin:0 0 .25rem}
.langs{max-width:100%;text-align:end}
.langs[open]{flex:1 1 100%}
.langs summary{display:inline-flex;align-items:center;gap:.375rem;min-height:44px;padding:.25rem .75rem;border:1px solid var(--line);border-radius:22px;background:var(--card);cursor:pointer;list-style:none}
.langs summary::-webkit-details-marker{display:none}
.langs svg{flex:none}
.langs ul{text-align:start;list-style:none;margin:.5rem 0 0;padding:.25rem;display:grid;grid-template-columns:repeat(auto-fill,minmax(8.5rem,1fr));gap:.25rem;border:1px solid var(--line);border-radius:12px;background:var(--card)}
.langs a{display:flex;align-items:center;min-height:44px;padding:.25rem .75rem;border-radius:8px;color:inherit;text-decoration:none}
.langs a[aria-current]{font-weight:700;background:var(--bg)}
`;

/**
 * `path` with the language the user chose on the page (`?lang=`), so that a choice made with a
 * language link survives every link, form and redirect of the portal without a cookie. Without a
 * choice (`lang` null) the path is left as it is and `Accept-Language` decides on each request.
 */
export function withLang(path: string, lang: string | null | undefined): string {
  if (!lang) return path;
  const hash = path.indexOf('#');
  const [base, fragment] = hash === -1 ? [path, ''] : [path.slice(0, hash), path.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}lang=${encodeURIComponent(lang)}${fragment}`;
}

/**
 * A message as HTML: its text escaped, with the parameters named in `html` replaced by markup
 * (a link, a bold name) after escaping. The message's own parameters give the others.
 */
export function richText(tr: Translator, m: Message, html: Record<string, string>): string {
  const params: Record<string, MessageValue> = { ...m.params };
  for (const name of Object.keys(html)) params[name] = `\u0001${name}\u0002`;
  let out = escapeHtml(tr.text({ key: m.key, params }));
  for (const [name, markup] of Object.entries(html)) out = out.split(`\u0001${name}\u0002`).join(markup);
  return out;
}

const GLOBE = `<svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><g fill="none" stroke="currentColor" stroke-width="1.5"><circle cx="10" cy="10" r="8.25"/><ellipse cx="10" cy="10" rx="3.5" ry="8.25"/><path d="M2 10h16M3.5 5.5h13M3.5 14.5h13"/></g></svg>`;

/** The language choice: every language, named in itself, each a link to the same page in it. */
function languageNav(tr: Translator, path: string): string {
  const current = LOCALES.find((l) => l.tag === tr.lang) ?? LOCALES[0]!;
  const items = LOCALES.map(
    (l) =>
      `<li><a href="${escapeHtml(withLang(path, l.tag))}" hreflang="${escapeHtml(l.tag)}" lang="${escapeHtml(l.tag)}"${l.tag === tr.lang ? ' aria-current="true"' : ''}>${escapeHtml(l.name)}</a></li>`,
  ).join('');
  return `<nav class="top" aria-label="${escapeHtml(tr.t('portal.language'))}"><details class="langs"><summary>${GLOBE}<span lang="${escapeHtml(current.tag)}">${escapeHtml(current.name)}</span></summary><ul>${items}</ul></details></nav>`;
}

export interface PageOptions {
  tr: Translator;
  title: string;
  body: string;
  /** Seconds; a meta refresh to `refreshTo` (no script needed). */
  refresh?: { seconds: number; to: string } | undefined;
  script?: string;
  /** The page the language links lead to, in another language (default `/`). */
  languagePath?: string | undefined;
  /** The language chosen on the page (`?lang=`), carried by the links. */
  langParam?: string | null;
}

export function page({ tr, title, body, refresh, script, languagePath, langParam }: PageOptions): string {
  const meta = refresh
    ? `<meta http-equiv="refresh" content="${refresh.seconds};url=${escapeHtml(withLang(refresh.to, langParam))}">`
    : '';
  return `<!doctype html>
<html lang="${escapeHtml(tr.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${meta}
<title>${escapeHtml(title)}</title><style>${CSS}</style></head>
<body><main>
${languageNav(tr, languagePath ?? '/')}
${body}
</main>${script ? `<script>${script}</script>` : ''}</body></html>
`;
}

const SIGNAL_BARS: Record<SignalClass, number> = { excellent: 4, good: 3, fair: 2, weak: 1 };
const SIGNAL_WORDS = {
  excellent: 'portal.signal.excellent',
  good: 'portal.signal.good',
  fair: 'portal.signal.fair',
  weak: 'portal.signal.weak',
} as const satisfies Record<SignalClass, MessageKey>;

function signalIcon(signal: SignalClass, tr: Translator): string {
  const bars = SIGNAL_BARS[signal];
  let rects = '';
  for (let i = 0; i < 4; i++) {
    const h = 4 + i * 4;
    rects += `<rect x="${i * 5}" y="${16 - h}" width="3.5" height="${h}" rx="1" fill="currentColor" opacity="${i < bars ? 1 : 0.25}"/>`;
  }
  return `<span class="sig"><svg width="19" height="16" viewBox="0 0 19 16" aria-hidden="true" focusable="false">${rects}</svg>${escapeHtml(tr.t(SIGNAL_WORDS[signal]))}</span>`;
}

const lock = (tr: Translator) =>
  `<span class="lock"><svg width="14" height="16" viewBox="0 0 14 16" role="img" aria-label="${escapeHtml(tr.t('portal.wifi.secured'))}" focusable="false"><title>${escapeHtml(tr.t('portal.wifi.secured'))}</title><path d="M3 7V5a4 4 0 0 1 8 0v2h1a1 1 0 0 1 1 1v7a1 1 0 0 1-1 1H2a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1h1zm2 0h4V5a2 2 0 0 0-4 0v2z" fill="currentColor"/></svg></span>`;

/** Networks for the form: named ones only, one entry per SSID (the strongest), strongest first. */
export function networksForForm(networks: readonly ScannedNetwork[]): ScannedNetwork[] {
  const best = new Map<string, ScannedNetwork>();
  for (const n of networks) {
    if (n.ssid === '') continue;
    // The same bytes are the same network; the display form alone may not tell (escapes).
    const key = n.ssidHex || n.ssid;
    const seen = best.get(key);
    if (!seen || n.signal > seen.signal || (n.signal === seen.signal && n.secure && !seen.secure))
      best.set(key, n);
  }
  return [...best.values()].sort((a, b) => b.signal - a.signal || a.ssid.localeCompare(b.ssid)).slice(0, 40);
}

export interface FormView {
  apSsid: string;
  csrf: string;
  networks: readonly ScannedNetwork[];
  state: ProvisioningState;
  settings: Settings;
  /** Submitted values to show again after an error (never secrets). */
  values?: Record<string, string> | undefined;
  /** What is wrong with each field, shown in the page's language. */
  errors?: Record<string, Message>;
  /** Seconds left in the setup session, when known. */
  remaining?: number | null;
  /** The network of the last connection attempt (named in a failure). */
  target?: string | null;
  /** Fingerprint of the settings this form shows (a save from a stale form is refused). */
  revision?: string;
  /** A message above the form (why nothing was saved). */
  notice?: Message;
  /** The language the user chose with a language link (`?lang=`), carried by the form and links. */
  langParam?: string | null;
}

/** The portal's own field for the PIN that guards every save (not a setting). */
export const CURRENT_PIN_FIELD = 'security.current_pin';

/** Asked for on every save once a PIN is set: nobody else on the setup network can change a thing. */
function renderCurrentPin(view: FormView, tr: Translator): string {
  if (view.settings.security.device_password === '') return '';
  const errors = view.errors ?? {};
  const key = CURRENT_PIN_FIELD;
  return `<fieldset id="group-pin"><legend>${escapeHtml(tr.t('field.security.device_password'))}</legend><div class="field"><label class="block" for="${fieldId(key)}">${escapeHtml(tr.t('portal.currentPin.label'))}</label><input type="password" id="${fieldId(key)}" name="${key}" value="" inputmode="numeric" maxlength="6" autocomplete="current-password" autocapitalize="off" spellcheck="false"${describedBy(key, true, errors)}${invalid(key, errors)}>${hintAndError(key, message('portal.currentPin.hint'), errors, tr)}</div></fieldset>`;
}

function describedBy(key: string, hasHint: boolean, errors: Record<string, Message>): string {
  const ids: string[] = [];
  if (hasHint) ids.push(`${fieldId(key)}-hint`);
  if (errors[key]) ids.push(`${fieldId(key)}-err`);
  return ids.length ? ` aria-describedby="${ids.join(' ')}"` : '';
}

function hintAndError(
  key: string,
  hint: Message | undefined,
  errors: Record<string, Message>,
  tr: Translator,
): string {
  let out = '';
  if (hint) out += `<p class="hint" id="${fieldId(key)}-hint">${escapeHtml(tr.text(hint))}</p>`;
  if (errors[key]) out += `<p class="err" id="${fieldId(key)}-err">${escapeHtml(tr.text(errors[key]!))}</p>`;
  return out;
}

function invalid(key: string, errors: Record<string, Message>): string {
  return errors[key] ? ' aria-invalid="true"' : '';
}

function options(
  list: ReadonlyArray<readonly [string, string]>,
  selected: string,
  langOf?: (value: string) => string,
): string {
  return list
    .map(
      ([value, label]) =>
        `<option value="${escapeHtml(value)}"${value === selected ? ' selected' : ''}${langOf ? ` lang="${escapeHtml(langOf(value))}"` : ''}>${escapeHtml(label)}</option>`,
    )
    .join('');
}

function currentValue(spec: FieldSpec, settings: Settings, values: Record<string, string>): string {
  const key = `${spec.group}.${spec.field}`;
  if (values[key] !== undefined && spec.kind !== 'secret' && spec.kind !== 'pin') return values[key]!;
  const v = (settings[spec.group] as Record<string, unknown>)[spec.field];
  if (Array.isArray(v)) return v.join(', ');
  return String(v ?? '');
}

/** The label of the box that removes a stored secret. */
const REMOVE: Record<string, 'field.webhook.secret.remove' | 'field.security.device_password.remove'> = {
  'webhook.secret': 'field.webhook.secret.remove',
  'security.device_password': 'field.security.device_password.remove',
};

function renderField(spec: FieldSpec, view: FormView, tr: Translator): string {
  const key = `${spec.group}.${spec.field}`;
  const id = fieldId(key);
  const errors = view.errors ?? {};
  const values = view.values ?? {};
  const value = currentValue(spec, view.settings, values);
  const aria = `${describedBy(key, spec.hint !== undefined, errors)}${invalid(key, errors)}`;
  const labelText = escapeHtml(tr.text({ key: spec.label }));
  const label = `<label class="block" for="${id}">${labelText}</label>`;
  const after = hintAndError(key, spec.hint, errors, tr);
  switch (spec.kind) {
    case 'boolean': {
      const checked = values[key] !== undefined ? values[key] === 'true' : value === 'true';
      return `<div class="field"><input type="hidden" name="${key}" value="false"><label class="check" for="${id}"><input type="checkbox" id="${id}" name="${key}" value="true"${checked ? ' checked' : ''}${aria}>${labelText}</label>${after}</div>`;
    }
    case 'select': {
      let list: ReadonlyArray<readonly [string, string]>;
      let langOf: ((value: string) => string) | undefined;
      if (key === 'device.language') {
        // Each language named in itself, so a user finds theirs whatever the page's language.
        list = LANGUAGES;
        langOf = (tag) => tag;
      } else if (key === 'device.timezone') list = timeZones().map((z) => [z, z.replace(/_/g, ' ')] as const);
      else if (key === 'wifi.country') list = [['00', tr.t('portal.country.world')], ...countries(tr.lang)];
      else list = [['', tr.t('portal.country.notSet')], ...countries(tr.lang)];
      return `<div class="field">${label}<select id="${id}" name="${key}"${aria}>${options(list, value, langOf)}</select>${after}</div>`;
    }
    case 'number':
      return `<div class="field">${label}<input type="number" inputmode="numeric" id="${id}" name="${key}" value="${escapeHtml(value)}" min="${spec.min}" max="${spec.max}" step="1"${aria}>${after}</div>`;
    case 'secret':
    case 'pin': {
      const isSet = value !== '';
      const placeholder = tr.t(isSet ? 'portal.secret.unchanged' : 'portal.secret.notSet');
      const mode =
        spec.kind === 'pin' ? ' inputmode="numeric" maxlength="6"' : ` maxlength="${spec.max ?? 256}"`;
      const remove = REMOVE[key];
      const clear =
        isSet && remove
          ? `<label class="check" for="${id}-clear"><input type="checkbox" id="${id}-clear" name="${key}_clear" value="true">${escapeHtml(tr.t(remove))}</label>`
          : '';
      const keep = tr.t(isSet ? 'portal.secret.keepUnchanged' : 'portal.secret.keepUnset');
      return `<div class="field">${label}<input type="password" id="${id}" name="${key}" value="" placeholder="${escapeHtml(placeholder)}" autocomplete="new-password" autocapitalize="off" spellcheck="false"${mode}${aria}>${after}<p class="hint">${escapeHtml(keep)}</p>${clear}</div>`;
    }
    case 'hosts':
      return `<div class="field">${label}<input type="text" id="${id}" name="${key}" value="${escapeHtml(value)}" autocapitalize="off" autocorrect="off" spellcheck="false"${aria}>${after}</div>`;
    case 'url': {
      // Write-only like a secret: the path of a Slack- or Discord-style hook is its credential, so
      // only the scheme and host of the stored URL are shown, and an empty field keeps it.
      const isSet = value !== '';
      const shown = isSet ? webhookOrigin(value) : '';
      const typed = values[key] ?? '';
      const clear = isSet
        ? `<label class="check" for="${id}-clear"><input type="checkbox" id="${id}-clear" name="${key}_clear" value="true">${escapeHtml(tr.t('field.webhook.url.remove'))}</label>`
        : '';
      const now = isSet
        ? `<p class="hint">${richText(tr, message('portal.webhook.now', { url: '' }), { url: `<strong>${escapeHtml(shown)}</strong>` })}</p>`
        : '';
      return `<div class="field">${label}<input type="url" inputmode="url" id="${id}" name="${key}" value="${escapeHtml(typed)}" autocapitalize="off" autocorrect="off" spellcheck="false" placeholder="${isSet ? escapeHtml(shown) : 'https://'}"${aria}>${after}${now}${clear}</div>`;
    }
    default:
      return `<div class="field">${label}<input type="text" id="${id}" name="${key}" value="${escapeHtml(value)}" maxlength="64"${aria}>${after}</div>`;
  }
}

function renderWifi(view: FormView, tr: Translator): string {
  const errors = view.errors ?? {};
  const values = view.values ?? {};
  const nets = networksForForm(view.networks);
  // A listed network is posted by its SSID bytes (`wifi.ssid_hex`), never by its display form,
  // which may carry escapes (`Caf\xe9`) or invisible characters.
  const chosenHex = values['wifi.ssid_hex'];
  const chosenName = values['wifi.ssid'];
  const isChosen = (n: ScannedNetwork) =>
    chosenHex !== undefined ? chosenHex !== '' && chosenHex === n.ssidHex : chosenName === n.ssid;
  const ssidErr = errors['wifi.ssid'];
  const secured = lock(tr);
  const items = nets
    .map((n, i) => {
      const id = `net-${i}`;
      const disabled = !n.secure;
      const checked = isChosen(n) && !disabled ? ' checked' : '';
      const note = disabled
        ? `<span class="note"> ${escapeHtml(tr.t('portal.wifi.openNetwork'))}</span>`
        : '';
      return `<li><label class="net${disabled ? ' off' : ''}" for="${id}"><input type="radio" id="${id}" name="wifi.ssid_hex" value="${escapeHtml(n.ssidHex)}"${checked}${disabled ? ' disabled' : ''}><span class="name"><span class="ssid">${visible(n.ssid)}</span>${note}</span>${signalIcon(n.signalClass, tr)}${disabled ? '<span class="lock"></span>' : secured}</label></li>`;
    })
    .join('');
  const otherChosen =
    chosenHex === '' ||
    (chosenHex === undefined && chosenName === '') ||
    (nets.length === 0 && chosenHex === undefined && chosenName === undefined);
  const otherChecked = otherChosen ? ' checked' : '';
  const empty = nets.length === 0 ? `<p class="hint">${escapeHtml(tr.t('portal.wifi.noNetworks'))}</p>` : '';
  const hiddenKey = 'wifi.hidden_ssid';
  const passKey = 'wifi.passphrase';
  const countrySpec = FIELDS.find((f) => f.group === 'wifi' && f.field === 'country')!;
  return `<fieldset id="wifi"><legend>${escapeHtml(tr.t(GROUP_TITLES.wifi))}</legend>
<fieldset class="plain"${ssidErr ? ` aria-describedby="${fieldId('wifi.ssid')}-err"` : ''}><legend>${escapeHtml(tr.t('portal.wifi.choose'))}</legend>${empty}
<ul class="nets">${items}<li><label class="net" for="net-other"><input type="radio" id="net-other" name="wifi.ssid_hex" value=""${otherChecked}><span class="name"><span class="ssid">${escapeHtml(tr.t('portal.wifi.other'))}</span></span></label></li></ul>
${ssidErr ? `<p class="err" id="${fieldId('wifi.ssid')}-err">${escapeHtml(tr.text(ssidErr))}</p>` : ''}</fieldset>
<div class="field"><label class="block" for="${fieldId(hiddenKey)}">${escapeHtml(tr.t('portal.wifi.hiddenName'))}</label><input type="text" id="${fieldId(hiddenKey)}" name="${hiddenKey}" value="${escapeHtml(values[hiddenKey] ?? '')}" autocapitalize="off" autocorrect="off" spellcheck="false"${describedBy(hiddenKey, true, errors)}${invalid(hiddenKey, errors)}>${hintAndError(hiddenKey, message('portal.wifi.hiddenHint'), errors, tr)}</div>
<div class="field"><label class="block" for="${fieldId(passKey)}">${escapeHtml(tr.t('portal.wifi.password'))}</label><input type="password" id="${fieldId(passKey)}" name="${passKey}" value="" autocomplete="off" autocapitalize="off" autocorrect="off" spellcheck="false" maxlength="64" data-show="${escapeHtml(tr.t('portal.wifi.showPassword'))}"${describedBy(passKey, true, errors)}${invalid(passKey, errors)}>${hintAndError(passKey, message('portal.wifi.passwordHint', { min: 8, max: 63 }), errors, tr)}</div>
${renderField(countrySpec, view, tr)}
</fieldset>`;
}

/** The failure's text in the page's language (one text with the screens and the log). */
export function failureText(state: Extract<ProvisioningState, { state: 'Failed' }>, tr: Translator): string {
  return formatFailure(state.reason, tr);
}

/** The banner that tells the phone user what the device is doing. Empty while the form is waiting. */
export function statusBanner(
  state: ProvisioningState,
  tr: Translator,
  retryLink: string | null,
  target?: string | null,
): string {
  const quoted = (
    key: 'portal.banner.connecting' | 'portal.banner.connected' | 'portal.banner.failedTo',
    ssid: string,
  ) => richText(tr, message(key, { ssid: '' }), { ssid: visible(ssid) });
  switch (state.state) {
    case 'Connecting':
      return `<div class="banner" role="status"><strong>${quoted('portal.banner.connecting', state.ssid)}</strong><p>${escapeHtml(tr.t('portal.banner.connectingHint'))}</p></div>`;
    case 'Connected':
      return `<div class="banner good" role="status"><strong>${quoted('portal.banner.connected', state.ssid)}</strong><p>${escapeHtml(tr.t('portal.banner.connectedHint'))}</p></div>`;
    case 'Failed':
      return `<div class="banner bad" role="alert"><strong>${target ? quoted('portal.banner.failedTo', target) : escapeHtml(tr.t('portal.banner.failed'))}</strong><p>${escapeHtml(failureText(state, tr))}</p>${retryLink ? `<p><a href="${escapeHtml(retryLink)}">${escapeHtml(tr.t('portal.tryAgain'))}</a></p>` : ''}</div>`;
    case 'Scanning':
      return `<div class="banner" role="status"><strong>${escapeHtml(tr.t('portal.banner.scanning'))}</strong></div>`;
    default:
      return '';
  }
}

// Progressive enhancement; the page works without it. Its texts come from the page (data-show,
// the countdown in the page's language through Intl.DurationFormat where the browser has it).
const ENHANCE = `(function(){var p=document.getElementById('f-wifi-passphrase');if(p){var l=document.createElement('label');l.className='check';var c=document.createElement('input');c.type='checkbox';c.onchange=function(){p.type=c.checked?'text':'password'};l.appendChild(c);l.appendChild(document.createTextNode(p.getAttribute('data-show')||''));p.parentNode.appendChild(l)}
var h=document.getElementById('f-wifi-hidden_ssid'),o=document.getElementById('net-other');if(h&&o){h.addEventListener('input',function(){if(h.value)o.checked=true})}
var t=document.querySelector('[data-remaining]');if(t){var end=Date.now()+1000*Number(t.getAttribute('data-remaining'));var df=null;try{df=new Intl.DurationFormat(document.documentElement.lang,{style:'digital',hoursDisplay:'auto'})}catch(x){}setInterval(function(){var s=Math.max(0,Math.ceil((end-Date.now())/1000));var d={hours:Math.floor(s/3600),minutes:Math.floor(s%3600/60),seconds:s%60};t.textContent=df?df.format(d):(d.hours?d.hours+':'+String(d.minutes).padStart(2,'0'):d.minutes)+':'+String(d.seconds).padStart(2,'0')},1000)}
var e=document.getElementById('errors');if(e)e.focus()})();`;

export function renderForm(view: FormView, tr: Translator): string {
  const errors = view.errors ?? {};
  const lang = view.langParam ?? null;
  const order = [
    'wifi.ssid',
    'wifi.hidden_ssid',
    'wifi.passphrase',
    ...FIELDS.map((f) => `${f.group}.${f.field}`),
    CURRENT_PIN_FIELD,
  ];
  const rank = (k: string) => (order.indexOf(k) === -1 ? order.length : order.indexOf(k));
  const keys = Object.keys(errors).sort((a, b) => rank(a) - rank(b));
  let summary = '';
  if (keys.length > 0) {
    const labelOf = (key: string): string => {
      const spec = FIELDS.find((f) => `${f.group}.${f.field}` === key);
      if (spec) return tr.text({ key: spec.label });
      return tr.t(
        key === CURRENT_PIN_FIELD
          ? 'portal.currentPin.label'
          : key === 'wifi.passphrase'
            ? 'portal.wifi.password'
            : key === 'wifi.hidden_ssid'
              ? 'portal.wifi.hiddenName'
              : 'portal.wifi.network',
      );
    };
    const target = (key: string): string => (key === 'wifi.ssid' ? '#wifi' : `#${fieldId(key)}`);
    summary = `<div class="banner bad summary" id="errors" role="alert" tabindex="-1"><h2>${escapeHtml(tr.t('portal.errors.summary', { count: keys.length }))}</h2><ul>${keys
      .map(
        (k) =>
          `<li>${richText(tr, message('portal.errors.item', { field: '', error: tr.text(errors[k]!) }), {
            field: `<a href="${target(k)}">${escapeHtml(labelOf(k))}</a>`,
          })}</li>`,
      )
      .join('')}</ul></div>`;
  }
  const remaining =
    view.remaining != null
      ? `<p class="hint">${richText(tr, message('portal.form.closesIn', { time: '' }), {
          time: `<span class="countdown" data-remaining="${Math.max(0, Math.ceil(view.remaining))}">${escapeHtml(tr.countdown(view.remaining))}</span>`,
        })}</p>`
      : '';
  const groups: SettingsGroup[] = ['device', 'audio', 'webhook', 'storage', 'security', 'ntp'];
  const fieldsets = groups
    .map(
      (g) =>
        `<fieldset id="group-${g}"><legend>${escapeHtml(tr.t(GROUP_TITLES[g]))}</legend>${FIELDS.filter(
          (f) => f.group === g,
        )
          .map((f) => renderField(f, view, tr))
          .join('')}</fieldset>`,
    )
    .join('\n');
  const title = tr.t('portal.form.title', { ssid: view.apSsid });
  const notice = view.notice
    ? `<div class="banner bad" role="alert"><strong>${escapeHtml(tr.text(view.notice))}</strong></div>`
    : '';
  const body = `<h1>${richText(tr, message('portal.form.title', { ssid: '' }), { ssid: visible(view.apSsid) })}</h1>
<p class="lead">${escapeHtml(tr.t('portal.form.lead'))}</p>${remaining}
${statusBanner(view.state, tr, null, view.target)}${notice}${summary}
<form method="post" action="${escapeHtml(withLang('/save-connect', lang))}" accept-charset="utf-8" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">${view.revision ? `<input type="hidden" name="settings.revision" value="${escapeHtml(view.revision)}">` : ''}
${renderWifi(view, tr)}
${fieldsets}
${renderCurrentPin(view, tr)}
<div class="actions"><button type="submit" class="primary">${escapeHtml(tr.t('portal.form.saveConnect'))}</button><button type="submit" class="secondary" formaction="${escapeHtml(withLang('/save', lang))}">${escapeHtml(tr.t('portal.form.saveOnly'))}</button></div>
</form>`;
  return page({ tr, title, body, script: ENHANCE, langParam: lang });
}

export interface MessagePage {
  title: string;
  /** HTML, already escaped. */
  html: string;
  refresh?: { seconds: number; to: string } | undefined;
  /** Where the language links lead (default `/`). */
  languagePath?: string;
  langParam?: string | null;
}

export function renderMessage(
  tr: Translator,
  { title, html, refresh, languagePath, langParam }: MessagePage,
): string {
  return page({
    tr,
    title,
    body: `<h1>${escapeHtml(title)}</h1>\n${html}`,
    refresh,
    languagePath: languagePath || undefined,
    langParam: langParam ?? null,
  });
}
