import type { ProvisioningState, ScannedNetwork, SignalClass } from '../../core/bus.js';
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
`;

export interface PageOptions {
  title: string;
  body: string;
  /** Seconds; a meta refresh to `refreshTo` (no script needed). */
  refresh?: { seconds: number; to: string };
  script?: string;
}

export function page({ title, body, refresh, script }: PageOptions): string {
  const meta = refresh
    ? `<meta http-equiv="refresh" content="${refresh.seconds};url=${escapeHtml(refresh.to)}">`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${meta}
<title>${escapeHtml(title)}</title><style>${CSS}</style></head>
<body><main>
${body}
</main>${script ? `<script>${script}</script>` : ''}</body></html>
`;
}

const SIGNAL_BARS: Record<SignalClass, number> = { excellent: 4, good: 3, fair: 2, weak: 1 };
const SIGNAL_WORDS: Record<SignalClass, string> = {
  excellent: 'Excellent',
  good: 'Good',
  fair: 'Fair',
  weak: 'Weak',
};

function signalIcon(signal: SignalClass): string {
  const bars = SIGNAL_BARS[signal];
  let rects = '';
  for (let i = 0; i < 4; i++) {
    const h = 4 + i * 4;
    rects += `<rect x="${i * 5}" y="${16 - h}" width="3.5" height="${h}" rx="1" fill="currentColor" opacity="${i < bars ? 1 : 0.25}"/>`;
  }
  return `<span class="sig"><svg width="19" height="16" viewBox="0 0 19 16" aria-hidden="true" focusable="false">${rects}</svg>${SIGNAL_WORDS[signal]}</span>`;
}

const LOCK = `<span class="lock"><svg width="14" height="16" viewBox="0 0 14 16" role="img" aria-label="Secured" focusable="false"><title>Secured</title><path d="M3 7V5a4 4 0 0 1 8 0v2h1a1 1 0 0 1 1 1v7a1 1 0 0 1-1 1H2a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1h1zm2 0h4V5a2 2 0 0 0-4 0v2z" fill="currentColor"/></svg></span>`;

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
  values?: Record<string, string>;
  errors?: Record<string, string>;
  /** Seconds left in the setup session, when known. */
  remaining?: number | null;
  /** The network of the last connection attempt (named in a failure). */
  target?: string | null;
  /** Fingerprint of the settings this form shows (a save from a stale form is refused). */
  revision?: string;
  /** A message above the form (why nothing was saved). */
  notice?: string;
}

/** The portal's own field for the PIN that guards every save (not a setting). */
export const CURRENT_PIN_FIELD = 'security.current_pin';

/** Asked for on every save once a PIN is set: nobody else on the setup network can change a thing. */
function renderCurrentPin(view: FormView): string {
  if (view.settings.security.device_password === '') return '';
  const errors = view.errors ?? {};
  const key = CURRENT_PIN_FIELD;
  const hint = 'This device is protected by a PIN. Enter it to save any change.';
  return `<fieldset id="group-pin"><legend>Device PIN</legend><div class="field"><label class="block" for="${fieldId(key)}">Current device PIN</label><input type="password" id="${fieldId(key)}" name="${key}" value="" inputmode="numeric" maxlength="6" autocomplete="current-password" autocapitalize="off" spellcheck="false"${describedBy(key, { hint }, errors)}${invalid(key, errors)}>${hintAndError(key, hint, errors)}</div></fieldset>`;
}

function describedBy(
  key: string,
  spec: { hint?: string } | undefined,
  errors: Record<string, string>,
): string {
  const ids: string[] = [];
  if (spec?.hint) ids.push(`${fieldId(key)}-hint`);
  if (errors[key]) ids.push(`${fieldId(key)}-err`);
  return ids.length ? ` aria-describedby="${ids.join(' ')}"` : '';
}

function hintAndError(key: string, hint: string | undefined, errors: Record<string, string>): string {
  let out = '';
  if (hint) out += `<p class="hint" id="${fieldId(key)}-hint">${escapeHtml(hint)}</p>`;
  if (errors[key]) out += `<p class="err" id="${fieldId(key)}-err">${escapeHtml(errors[key]!)}</p>`;
  return out;
}

function invalid(key: string, errors: Record<string, string>): string {
  return errors[key] ? ' aria-invalid="true"' : '';
}

function options(list: ReadonlyArray<readonly [string, string]>, selected: string): string {
  return list
    .map(
      ([value, label]) =>
        `<option value="${escapeHtml(value)}"${value === selected ? ' selected' : ''}>${escapeHtml(label)}</option>`,
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

function renderField(spec: FieldSpec, view: FormView): string {
  const key = `${spec.group}.${spec.field}`;
  const id = fieldId(key);
  const errors = view.errors ?? {};
  const values = view.values ?? {};
  const value = currentValue(spec, view.settings, values);
  const aria = `${describedBy(key, spec, errors)}${invalid(key, errors)}`;
  const label = `<label class="block" for="${id}">${escapeHtml(spec.label)}</label>`;
  const after = hintAndError(key, spec.hint, errors);
  switch (spec.kind) {
    case 'boolean': {
      const checked = values[key] !== undefined ? values[key] === 'true' : value === 'true';
      return `<div class="field"><input type="hidden" name="${key}" value="false"><label class="check" for="${id}"><input type="checkbox" id="${id}" name="${key}" value="true"${checked ? ' checked' : ''}${aria}>${escapeHtml(spec.label)}</label>${after}</div>`;
    }
    case 'select': {
      let list: ReadonlyArray<readonly [string, string]>;
      if (key === 'device.language') list = LANGUAGES;
      else if (key === 'device.timezone') list = timeZones().map((z) => [z, z.replace(/_/g, ' ')] as const);
      else if (key === 'wifi.country') list = [['00', 'World (safe everywhere)'], ...countries()];
      else list = [['', 'Not set (Europe region)'], ...countries()];
      return `<div class="field">${label}<select id="${id}" name="${key}"${aria}>${options(list, value)}</select>${after}</div>`;
    }
    case 'number':
      return `<div class="field">${label}<input type="number" inputmode="numeric" id="${id}" name="${key}" value="${escapeHtml(value)}" min="${spec.min}" max="${spec.max}" step="1"${aria}>${after}</div>`;
    case 'secret':
    case 'pin': {
      const isSet = value !== '';
      const placeholder = isSet ? 'unchanged' : 'not set';
      const mode =
        spec.kind === 'pin' ? ' inputmode="numeric" maxlength="6"' : ` maxlength="${spec.max ?? 256}"`;
      const clear = isSet
        ? `<label class="check" for="${id}-clear"><input type="checkbox" id="${id}-clear" name="${key}_clear" value="true">Remove the ${escapeHtml(spec.label.toLowerCase())}</label>`
        : '';
      return `<div class="field">${label}<input type="password" id="${id}" name="${key}" value="" placeholder="${placeholder}" autocomplete="new-password" autocapitalize="off" spellcheck="false"${mode}${aria}>${after}<p class="hint">Leave empty to keep it ${isSet ? 'unchanged' : 'unset'}.</p>${clear}</div>`;
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
        ? `<label class="check" for="${id}-clear"><input type="checkbox" id="${id}-clear" name="${key}_clear" value="true">Remove the webhook</label>`
        : '';
      const now = isSet
        ? `<p class="hint">Now: <strong>${escapeHtml(shown)}</strong>. Leave empty to keep it, or enter a new address (the secret must then be entered again).</p>`
        : '';
      return `<div class="field">${label}<input type="url" inputmode="url" id="${id}" name="${key}" value="${escapeHtml(typed)}" autocapitalize="off" autocorrect="off" spellcheck="false" placeholder="${isSet ? escapeHtml(shown) : 'https://'}"${aria}>${after}${now}${clear}</div>`;
    }
    default:
      return `<div class="field">${label}<input type="text" id="${id}" name="${key}" value="${escapeHtml(value)}" maxlength="64"${aria}>${after}</div>`;
  }
}

function renderWifi(view: FormView): string {
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
  const items = nets
    .map((n, i) => {
      const id = `net-${i}`;
      const disabled = !n.secure;
      const checked = isChosen(n) && !disabled ? ' checked' : '';
      const note = disabled ? '<span class="note"> Open network, not supported</span>' : '';
      return `<li><label class="net${disabled ? ' off' : ''}" for="${id}"><input type="radio" id="${id}" name="wifi.ssid_hex" value="${escapeHtml(n.ssidHex)}"${checked}${disabled ? ' disabled' : ''}><span class="name"><span class="ssid">${visible(n.ssid)}</span>${note}</span>${signalIcon(n.signalClass)}${disabled ? '<span class="lock"></span>' : LOCK}</label></li>`;
    })
    .join('');
  const otherChosen =
    chosenHex === '' ||
    (chosenHex === undefined && chosenName === '') ||
    (nets.length === 0 && chosenHex === undefined && chosenName === undefined);
  const otherChecked = otherChosen ? ' checked' : '';
  const empty =
    nets.length === 0 ? '<p class="hint">No networks were found nearby. Enter the name below.</p>' : '';
  const hiddenKey = 'wifi.hidden_ssid';
  const passKey = 'wifi.passphrase';
  const countrySpec = FIELDS.find((f) => f.group === 'wifi' && f.field === 'country')!;
  return `<fieldset id="wifi"><legend>${GROUP_TITLES.wifi}</legend>
<fieldset class="plain"${ssidErr ? ` aria-describedby="${fieldId('wifi.ssid')}-err"` : ''}><legend>Choose your network</legend>${empty}
<ul class="nets">${items}<li><label class="net" for="net-other"><input type="radio" id="net-other" name="wifi.ssid_hex" value=""${otherChecked}><span class="name"><span class="ssid">Other (hidden) network…</span></span></label></li></ul>
${ssidErr ? `<p class="err" id="${fieldId('wifi.ssid')}-err">${escapeHtml(ssidErr)}</p>` : ''}</fieldset>
<div class="field"><label class="block" for="${fieldId(hiddenKey)}">Hidden network name</label><input type="text" id="${fieldId(hiddenKey)}" name="${hiddenKey}" value="${escapeHtml(values[hiddenKey] ?? '')}" autocapitalize="off" autocorrect="off" spellcheck="false"${describedBy(hiddenKey, { hint: 'x' }, errors)}${invalid(hiddenKey, errors)}>${hintAndError(hiddenKey, 'Only for a network that does not broadcast its name; choose “Other” above.', errors)}</div>
<div class="field"><label class="block" for="${fieldId(passKey)}">Wi-Fi password</label><input type="password" id="${fieldId(passKey)}" name="${passKey}" value="" autocomplete="off" autocapitalize="off" autocorrect="off" spellcheck="false" maxlength="64"${describedBy(passKey, { hint: 'x' }, errors)}${invalid(passKey, errors)}>${hintAndError(passKey, 'WPA2 password, 8 to 63 characters. It is stored only as a derived key.', errors)}</div>
${renderField(countrySpec, view)}
</fieldset>`;
}

export function formatRemaining(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const FAILURE_TEXT: Record<string, string> = {
  'wrong-password': 'The Wi-Fi password was not accepted. Check it (it is case-sensitive) and try again.',
  'network-not-found':
    'The network was not found. Check the name, move the device closer to the router, and try again.',
  'no-address':
    'The device joined the network but got no address from the router (DHCP). Check the router and try again.',
  'association-timeout': 'The device could not join the network in time. Try again.',
  'ap-failed': 'The setup network had a problem. Try again.',
};

export function failureText(state: Extract<ProvisioningState, { state: 'Failed' }>): string {
  return FAILURE_TEXT[state.reason] ?? 'Connecting failed. Try again.';
}

/** The banner that tells the phone user what the device is doing. Empty while the form is waiting. */
export function statusBanner(
  state: ProvisioningState,
  withRetryLink: boolean,
  target?: string | null,
): string {
  switch (state.state) {
    case 'Connecting':
      return `<div class="banner" role="status"><strong>Connecting to “${visible(state.ssid)}”…</strong><p>Watch the device screen. This phone leaves the setup network now.</p></div>`;
    case 'Connected':
      return `<div class="banner good" role="status"><strong>Connected to “${visible(state.ssid)}”.</strong><p>Setup is complete. You can close this page.</p></div>`;
    case 'Failed':
      return `<div class="banner bad" role="alert"><strong>Could not connect${target ? ` to “${visible(target)}”` : ''}.</strong><p>${escapeHtml(failureText(state))}</p>${withRetryLink ? '<p><a href="/#wifi">Try again</a></p>' : ''}</div>`;
    case 'Scanning':
      return '<div class="banner" role="status"><strong>Looking for networks…</strong></div>';
    default:
      return '';
  }
}

const ENHANCE = `(function(){var p=document.getElementById('f-wifi-passphrase');if(p){var l=document.createElement('label');l.className='check';var c=document.createElement('input');c.type='checkbox';c.onchange=function(){p.type=c.checked?'text':'password'};l.appendChild(c);l.appendChild(document.createTextNode('Show password'));p.parentNode.appendChild(l)}
var h=document.getElementById('f-wifi-hidden_ssid'),o=document.getElementById('net-other');if(h&&o){h.addEventListener('input',function(){if(h.value)o.checked=true})}
var t=document.querySelector('[data-remaining]');if(t){var end=Date.now()+1000*Number(t.getAttribute('data-remaining'));setInterval(function(){var s=Math.max(0,Math.round((end-Date.now())/1000));t.textContent=Math.floor(s/60)+':'+String(s%60).padStart(2,'0')},1000)}
var e=document.getElementById('errors');if(e)e.focus()})();`;

export function renderForm(view: FormView): string {
  const errors = view.errors ?? {};
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
      if (spec) return spec.label;
      if (key === CURRENT_PIN_FIELD) return 'Current device PIN';
      return key === 'wifi.passphrase'
        ? 'Wi-Fi password'
        : key === 'wifi.hidden_ssid'
          ? 'Hidden network name'
          : 'Network';
    };
    const target = (key: string): string => (key === 'wifi.ssid' ? '#wifi' : `#${fieldId(key)}`);
    summary = `<div class="banner bad summary" id="errors" role="alert" tabindex="-1"><h2>Nothing was saved. Please fix ${keys.length === 1 ? 'this field' : `these ${keys.length} fields`}:</h2><ul>${keys
      .map((k) => `<li><a href="${target(k)}">${escapeHtml(labelOf(k))}</a>: ${escapeHtml(errors[k]!)}</li>`)
      .join('')}</ul></div>`;
  }
  const remaining =
    view.remaining != null
      ? `<p class="hint">This setup page closes in <span class="countdown" data-remaining="${Math.floor(view.remaining)}">${formatRemaining(view.remaining)}</span>.</p>`
      : '';
  const groups: SettingsGroup[] = ['device', 'audio', 'webhook', 'storage', 'security', 'ntp'];
  const fieldsets = groups
    .map(
      (g) =>
        `<fieldset id="group-${g}"><legend>${GROUP_TITLES[g]}</legend>${FIELDS.filter((f) => f.group === g)
          .map((f) => renderField(f, view))
          .join('')}</fieldset>`,
    )
    .join('\n');
  const body = `<h1>Set up ${visible(view.apSsid)}</h1>
<p class="lead">Choose the Wi-Fi network the device should join, then check its settings.</p>${remaining}
${statusBanner(view.state, false, view.target)}${view.notice ? `<div class="banner bad" role="alert"><strong>${escapeHtml(view.notice)}</strong></div>` : ''}${summary}
<form method="post" action="/save-connect" accept-charset="utf-8" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">${view.revision ? `<input type="hidden" name="settings.revision" value="${escapeHtml(view.revision)}">` : ''}
${renderWifi(view)}
${fieldsets}
${renderCurrentPin(view)}
<div class="actions"><button type="submit" class="primary">Save and connect</button><button type="submit" class="secondary" formaction="/save">Save settings only</button></div>
</form>`;
  return page({ title: `Set up ${view.apSsid}`, body, script: ENHANCE });
}

export function renderMessage(
  title: string,
  html: string,
  refresh?: { seconds: number; to: string },
): string {
  return page({ title, body: `<h1>${escapeHtml(title)}</h1>\n${html}`, ...(refresh ? { refresh } : {}) });
}
