import { readLimitedBody } from '@waved/internal';
import { H3, type H3Event } from 'h3';
import QRCode from 'qrcode';
import { translator } from '../../i18n/index.js';
import { escapeHtml } from '../portal/html.js';
import { SCREEN_ACTIONS, type ScreenAction, type Screens, type ScreenView } from './view.js';

const ACTIONS: ReadonlySet<string> = new Set<string>(SCREEN_ACTIONS);

export interface ScreenPageOptions {
  screens: Screens;
  /** Event streams open at once (default 8); one more is answered 503 until one closes. */
  maxSubscribers?: number;
}

/** Event streams the screen page serves at once: a kiosk browser and a few developer tabs. */
export const MAX_SCREEN_SUBSCRIBERS = 8;

/** Host names a browser on the device itself uses for the page. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether a request is addressed to the device itself. A page a browser loaded from another name
 * (DNS rebinding: `evil.example` resolving to 127.0.0.1) sends that name in `Host` and is refused.
 */
export function isLoopbackHost(host: string | null): boolean {
  if (!host) return false;
  const name = host.toLowerCase().replace(/:\d+$/, '');
  return LOOPBACK_HOSTS.has(name);
}

/** The view plus the QR as SVG, as the emulator page receives it. */
export async function viewForWeb(view: ScreenView): Promise<ScreenView & { qrSvg?: string }> {
  if (view.screen === 'setup' && view.qr) {
    const qrSvg = await QRCode.toString(view.qr, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { ...view, qrSvg };
  }
  return view;
}

/** The page around the screen, in the language of the view it starts with (`lang` follows each view). */
export function renderScreenPage(lang: string): string {
  const tr = translator(lang);
  return `<!doctype html>
<html lang="${escapeHtml(tr.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(tr.t('page.title'))}</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#2b2b2b;font:16px/1.4 system-ui,sans-serif}
.device{width:340px;max-width:100vw;box-sizing:border-box;border-radius:28px;background:#111;padding:22px;box-shadow:0 10px 40px #000a}
.screen{background:#fafafa;color:#111;border-radius:8px;min-height:480px;padding:14px;display:flex;flex-direction:column;overflow-wrap:anywhere;hyphens:auto;line-break:strict}
h1{font-size:18px;margin:0 0 10px;border-bottom:1px solid #ddd;padding-bottom:6px}
p{margin:8px 0}
.rows{display:grid;grid-template-columns:minmax(0,max-content) minmax(0,1fr);gap:4px 10px;margin:4px 0}
.rows dt{color:#666}.rows dd{margin:0;min-width:0}
.qr svg{display:block;width:210px;height:210px;margin:4px auto}
.err{color:#b3261e;font-weight:600}.muted{color:#555}.cd{font-variant-numeric:tabular-nums}
.grow{flex:1}.buttons{display:grid;gap:8px;margin-top:12px}
button{font:inherit;font-weight:600;min-height:44px;padding:6px 12px;border-radius:22px;border:2px solid #0b57d0;background:#0b57d0;color:#fff;overflow-wrap:anywhere}
button.alt{background:#fff;color:#0b57d0}
.dialog{border:2px solid #111;border-radius:8px;padding:10px;margin-top:10px}
.bar{height:14px;border-radius:7px;background:#ddd;overflow:hidden;margin:8px 0 4px}.bar>div{height:100%;background:#0b57d0}
.pin{font-size:28px;letter-spacing:8px;text-align:center;min-height:40px;font-variant-numeric:tabular-nums}
.keys{display:grid;grid-template-columns:repeat(3,1fr);gap:6px;margin-top:8px}.keys button{min-height:40px;border-radius:8px;padding:0}
</style></head>
<body><div class="device"><div class="screen" id="screen" lang="${escapeHtml(tr.lang)}" aria-live="polite">${escapeHtml(tr.t('page.loading'))}</div></div>
<script>
const el = document.getElementById('screen');
function esc(s){return String(s ?? '').replace(/[&<>"']/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'})[c]);}
function btn(label, action, alt){return '<button type="button" data-action="'+esc(action)+'"'+(alt?' class="alt"':'')+'>'+esc(label)+'</button>';}
function rows(list){return list.length ? '<dl class="rows">'+list.map(r => '<dt>'+esc(r.label)+'</dt><dd>'+esc(r.value)+'</dd>').join('')+'</dl>' : '';}
function buttons(list){return list.map((b, i) => btn(b.label, b.action, i > 0)).join('');}
function draw(v){
  document.documentElement.lang = v.lang; el.lang = v.lang;
  let h = '<h1>'+esc(v.title)+'</h1>';
  let b = buttons(v.buttons);
  if (v.screen === 'menu') b = v.buttons.map(x => btn(x.label, x.action)).join('');
  if (v.screen === 'wifi' || v.screen === 'bluetooth' || v.screen === 'options') {
    h += rows(v.rows);
    if (v.notice) h += '<p class="muted">'+esc(v.notice)+'</p>';
    if (v.confirm) h += '<div class="dialog" role="alertdialog"><strong>'+esc(v.confirm.question)+'</strong><p>'+esc(v.confirm.detail)+'</p></div>';
  }
  if (v.screen === 'setup') {
    if (v.qrSvg) h += '<div class="qr" role="img" aria-label="'+esc(v.qrLabel)+'">'+v.qrSvg+'</div>';
    h += rows(v.rows);
    if (v.error) h += '<p class="err">'+esc(v.error)+'</p>';
    h += '<p>'+esc(v.progress)+'</p>';
    if (v.countdownText) h += '<p class="muted cd">'+esc(v.countdownText)+'</p>';
  }
  if (v.screen === 'update') {
    h += '<p><strong>'+esc(v.headline)+'</strong></p>';
    h += '<p class="muted">'+esc(v.package+' '+v.version)+'</p>';
    if (v.notes) h += '<p class="muted">'+esc(v.notes)+'</p>';
    if (v.progress && (v.phase === 'downloading' || v.phase === 'verifying')) {
      const pct = v.progress.percent ?? 0;
      h += '<div class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="100"'+(v.progress.percent === null ? '' : ' aria-valuenow="'+pct+'" aria-valuetext="'+esc(v.progress.percentText)+'"')+'><div style="width:'+pct+'%"></div></div>';
      h += '<p class="muted">'+esc(v.progress.bytes)+'</p>';
    }
    if (v.error) h += '<p class="err">'+esc(v.error)+'</p>';
    h += '<p>'+esc(v.status)+'</p>';
  }
  if (v.screen === 'verify') {
    h += '<p><strong>'+esc(v.prompt)+'</strong></p><p class="muted">'+esc(v.detail)+'</p>';
    if (v.phase === 'entry') {
      h += '<div class="pin" role="status" aria-label="'+esc(v.enteredText)+'">'+esc(v.masked || ' ')+'</div>';
      h += '<div class="keys">'+['1','2','3','4','5','6','7','8','9','','0',''].map(d => d ? btn(d, 'pin-'+d, true) : '<span></span>').join('')+'</div>';
    }
    if (v.error) h += '<p class="err">'+esc(v.error)+'</p>';
    if (v.countdownText) h += '<p class="muted cd">'+esc(v.countdownText)+'</p>';
  }
  el.innerHTML = h + '<div class="grow"></div><div class="buttons">' + b + '</div>';
}
el.addEventListener('click', e => {
  const a = e.target.closest('[data-action]');
  if (a) fetch('/press', {method:'POST', headers:{'content-type':'application/json'}, body: JSON.stringify({action: a.dataset.action})});
});
function poll(){ fetch('/view.json').then(r => r.json()).then(draw).catch(() => {}); }
if (window.EventSource) {
  const es = new EventSource('/events');
  es.onmessage = e => draw(JSON.parse(e.data));
} else { poll(); setInterval(poll, 1000); }
</script></body></html>
`;
}

/**
 * A small h3 app that shows the device display in a browser: `/` the page, `/events` server-sent
 * events with each view, `/view.json` for polling, `POST /press` (JSON `{ action }`) for buttons.
 * It is served on loopback only (a kiosk browser on the device, or `waved sim`); requests whose
 * `Host` is not a loopback name are refused (421), and the JSON content type keeps other sites'
 * forms out.
 */
export function createScreenPage({
  screens,
  maxSubscribers = MAX_SCREEN_SUBSCRIBERS,
}: ScreenPageOptions): H3 {
  const app = new H3();
  const noStore = { 'cache-control': 'no-store' };
  // Each stream renders every view (with its QR as SVG): without a cap, a client that opens
  // streams without end makes the device render for each of them.
  let subscribers = 0;

  app.use((event: H3Event) => {
    if (!isLoopbackHost(event.req.headers.get('host'))) {
      // In the device's language, as the screens speak it.
      const text = translator(screens.view().lang).t('screen.page.hostRefused');
      return new Response(text, { status: 421, headers: noStore });
    }
  });

  app.get(
    '/',
    () =>
      new Response(renderScreenPage(screens.view().lang), {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          ...noStore,
          'content-security-policy':
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src data:",
        },
      }),
  );

  app.get('/view.json', async () => Response.json(await viewForWeb(screens.view()), { headers: noStore }));

  app.get('/events', (event: H3Event) => {
    if (subscribers >= maxSubscribers) {
      return new Response('too many screen subscribers; close another page first', {
        status: 503,
        headers: { ...noStore, 'retry-after': '5', 'content-type': 'text/plain; charset=utf-8' },
      });
    }
    subscribers += 1;
    const encoder = new TextEncoder();
    let off: (() => void) | undefined;
    let released = false;
    const unsubscribe = () => {
      off?.();
      if (!released) {
        released = true;
        subscribers -= 1;
      }
    };
    let chain = Promise.resolve();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (view: ScreenView) => {
          // Keep the order of views although the QR SVG is made asynchronously.
          chain = chain
            .then(() => viewForWeb(view))
            .then((v) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(v)}\n\n`)))
            .catch(() => unsubscribe());
        };
        off = screens.subscribe(send);
        send(screens.view());
      },
      cancel() {
        unsubscribe();
      },
    });
    event.req.signal?.addEventListener('abort', () => unsubscribe());
    return new Response(stream, {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', ...noStore, connection: 'keep-alive' },
    });
  });

  app.post('/press', async (event: H3Event) => {
    const request = event.req as unknown as Request;
    if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json'))
      return new Response('expected application/json', { status: 415 });
    const body = await readLimitedBody(request, 1024);
    if (!body.ok) return new Response('too large', { status: 413 });
    const text = new TextDecoder().decode(body.body);
    let action: unknown;
    try {
      action = (JSON.parse(text) as { action?: unknown }).action;
    } catch {
      return new Response('bad JSON', { status: 400 });
    }
    if (typeof action !== 'string' || !ACTIONS.has(action))
      return new Response('unknown action', { status: 400 });
    screens.press(action as ScreenAction);
    return Response.json(await viewForWeb(screens.view()), { headers: noStore });
  });

  return app;
}
