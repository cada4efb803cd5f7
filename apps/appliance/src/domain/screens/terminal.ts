import QRCode from 'qrcode';
import { stripControls } from '../../core/log/sanitize.js';
import type { UpdateProgress } from './update.js';
import type { ScreenView } from './view.js';

export interface TerminalOptions {
  /** Inner width in columns (default 44, at least the QR width). */
  width?: number;
  /**
   * Leave out the setup network's QR code and passphrase (output that is not a terminal, such as
   * a file or a pipe, must never receive them).
   */
  hideSecrets?: boolean;
}

/** What stands in for the passphrase where it must not be written. */
export const HIDDEN_SECRET = '(shown on the device screen)';

/**
 * A QR code drawn with half blocks, two module rows per text line, with a 2-module quiet zone.
 * Light modules are drawn as ink (`█`), as qrcode's UTF-8 renderer does, so the code reads as
 * dark-on-light on the usual dark terminal background.
 */
export function renderQrText(payload: string): string[] {
  const qr = QRCode.create(payload, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const quiet = 2;
  const dark = (r: number, c: number): boolean =>
    r >= 0 && c >= 0 && r < size && c < size && qr.modules.get(r, c) === 1;
  const lines: string[] = [];
  for (let r = -quiet; r < size + quiet; r += 2) {
    let line = '';
    for (let c = -quiet; c < size + quiet; c++) {
      const top = !dark(r, c);
      const bottom = r + 1 < size + quiet ? !dark(r + 1, c) : false;
      line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
    }
    lines.push(line);
  }
  return lines;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line === '') line = word;
      else if ([...line].length + 1 + [...word].length <= width) line += ` ${word}`;
      else {
        out.push(line);
        line = word;
      }
    }
    out.push(line);
  }
  return out;
}

function center(text: string, width: number): string {
  const len = [...text].length;
  const left = Math.max(0, Math.floor((width - len) / 2));
  return ' '.repeat(left) + text;
}

/** A text progress bar, e.g. `[████████░░░░░░░░] 50%`, `width` columns in all. */
export function renderProgressBar(progress: UpdateProgress, width: number): string {
  const label = progress.percent === null ? '' : ` ${String(progress.percent).padStart(3)}%`;
  const cells = Math.max(4, width - 2 - label.length);
  const ratio = progress.percent === null ? 0 : Math.min(1, Math.max(0, progress.percent / 100));
  const filled = Math.floor(ratio * cells);
  return `[${'█'.repeat(filled)}${'░'.repeat(cells - filled)}]${label}`;
}

/**
 * Draws a screen as text in a box: title, content, and the buttons in brackets. Every text is drawn
 * without its control characters (a release note or a network name cannot send the terminal an
 * escape sequence).
 */
export function renderTerminal(view: ScreenView, options: TerminalOptions = {}): string {
  const hide = options.hideSecrets === true;
  const qr = view.screen === 'setup' && view.qr && !hide ? renderQrText(view.qr) : [];
  const qrWidth = qr[0] ? [...qr[0]].length : 0;
  const width = Math.max(options.width ?? 44, qrWidth);
  const body: string[] = [];
  const add = (text = '') => body.push(...wrap(stripControls(text), width));
  let buttons: string[] = [];
  switch (view.screen) {
    case 'menu':
      for (const item of view.items) add(`› ${item}`);
      buttons = ['Wi-Fi'];
      break;
    case 'wifi':
      add(`Network:  ${view.name ?? '—'}`);
      add(`Status:   ${view.statusLine}`);
      add(`IPv4:     ${view.ipv4 ?? '—'}`);
      if (view.notice) {
        add();
        add(view.notice);
      }
      if (view.confirm) {
        add();
        add(view.confirm.question);
        add(view.confirm.detail);
        buttons = [view.confirm.yes, view.confirm.no];
      } else {
        buttons = [view.button, 'Back'];
      }
      break;
    case 'setup':
      for (const line of qr) body.push(center(line, width));
      if (view.ssid) {
        add();
        add(`Network:  ${view.ssid}`);
        add(`Password: ${hide ? HIDDEN_SECRET : view.passphrase}`);
        add(`Open:     ${view.address}`);
      }
      add();
      if (view.error) add(view.error);
      add(view.progress);
      if (view.countdown) add(`Setup closes in ${view.countdown}`);
      buttons = view.actions;
      break;
    case 'update':
      add(view.headline);
      add(`${view.package} ${view.version}`);
      if (view.notes) add(view.notes);
      add();
      if (view.progress && (view.phase === 'downloading' || view.phase === 'verifying')) {
        body.push(renderProgressBar(view.progress, width));
        add(view.progress.bytes);
      }
      if (view.error) add(view.error);
      add(view.status);
      buttons = view.actions;
      break;
    case 'verify':
      add(view.prompt);
      add(view.detail);
      add();
      if (view.phase === 'entry') {
        add(`Password: ${view.masked}${'_'.repeat(Math.max(0, view.maxDigits - view.entered))}`);
      }
      if (view.error) add(view.error);
      if (view.countdown) add(`Closes in ${view.countdown}`);
      buttons = view.actions;
      break;
  }
  const pad = (line: string) => `│ ${line}${' '.repeat(Math.max(0, width - [...line].length))} │`;
  const title = ` ${stripControls(view.title, false)} `;
  const top = `┌─${title}${'─'.repeat(Math.max(0, width - [...title].length))}─┐`;
  const actions = buttons.map((b) => `[ ${stripControls(b, false)} ]`).join('  ');
  return [top, ...body.map(pad), pad(''), pad(actions), `└${'─'.repeat(width + 2)}┘`].join('\n');
}
