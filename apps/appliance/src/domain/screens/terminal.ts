import QRCode from 'qrcode';
import { stripControls } from '../../core/log/sanitize.js';
import { translator } from '../../i18n/index.js';
import { displayWidth, padEnd, truncate, wrapText } from './text.js';
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

function center(text: string, width: number): string {
  const left = Math.max(0, Math.floor((width - displayWidth(text)) / 2));
  return ' '.repeat(left) + text;
}

/** A text progress bar, e.g. `[████████░░░░░░░░]  50%`, `width` columns in all. */
export function renderProgressBar(progress: UpdateProgress, width: number): string {
  const label = progress.percentText === null ? '' : ` ${progress.percentText.padStart(4)}`;
  const cells = Math.max(4, width - 2 - displayWidth(label));
  const ratio = progress.percent === null ? 0 : Math.min(1, Math.max(0, progress.percent / 100));
  const filled = Math.floor(ratio * cells);
  return `[${'█'.repeat(filled)}${'░'.repeat(cells - filled)}]${label}`;
}

/** Buttons as `[ label ]`, two spaces apart, on as many lines as they need. */
function buttonLines(labels: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const label of labels) {
    const button = truncate(`[ ${label} ]`, width);
    if (line === '') line = button;
    else if (displayWidth(line) + 2 + displayWidth(button) <= width) line += `  ${button}`;
    else {
      lines.push(line);
      line = button;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * Draws a screen as text in a box of `width` columns inside the frame: title, content, and the
 * buttons in brackets. Every text is drawn
 * without its control characters (a release note or a network name cannot send the terminal an
 * escape sequence). Every line has the same display width in any language: wide (CJK)
 * characters count two columns and long words are broken (see `wrapText`).
 */
export function renderTerminal(view: ScreenView, options: TerminalOptions = {}): string {
  const hide = options.hideSecrets === true;
  const qr = view.screen === 'setup' && view.qr && !hide ? renderQrText(view.qr) : [];
  const qrWidth = qr[0] ? displayWidth(qr[0]) : 0;
  const width = Math.max(options.width ?? 44, qrWidth, 16);
  const tr = translator(view.lang);
  const body: string[] = [];
  const add = (text = '') => body.push(...wrapText(stripControls(text), width));
  /** Labelled values with their values in one column, continuation lines indented under it. */
  const rows = (list: readonly { label: string; value: string }[]) => {
    const labels = list.map((r) => tr.t('screen.rowLabel', { label: stripControls(r.label, false) }));
    const column = Math.max(0, ...labels.map(displayWidth)) + 1;
    for (const [i, row] of list.entries()) {
      const label = labels[i]!;
      if (column > width / 2) {
        // Labels too long for a column: each value goes under its label.
        add(label);
        for (const line of wrapText(stripControls(row.value), width - 2)) body.push(`  ${line}`);
        continue;
      }
      const lines = wrapText(stripControls(row.value), width - column);
      body.push(padEnd(label, column) + (lines[0] ?? ''));
      for (const line of lines.slice(1)) body.push(' '.repeat(column) + line);
    }
  };
  switch (view.screen) {
    case 'menu':
      for (const b of view.buttons) add(`› ${b.label}`);
      break;
    case 'wifi':
    case 'bluetooth':
    case 'options':
      rows(view.rows);
      if (view.notice) {
        add();
        add(view.notice);
      }
      if (view.confirm) {
        add();
        add(view.confirm.question);
        add(view.confirm.detail);
      }
      break;
    case 'setup':
      for (const line of qr) body.push(center(line, width));
      if (view.rows.length > 0) {
        add();
        rows(
          hide
            ? view.rows.map((r) => (r.secret ? { ...r, value: tr.t('screen.setup.passwordHidden') } : r))
            : view.rows,
        );
      }
      add();
      if (view.error) add(view.error);
      add(view.progress);
      if (view.countdownText) add(view.countdownText);
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
      break;
    case 'verify':
      add(view.prompt);
      add(view.detail);
      add();
      if (view.phase === 'entry') {
        rows([
          {
            label: view.entryLabel,
            value: `${view.masked}${'_'.repeat(Math.max(0, view.maxDigits - view.entered))}`,
          },
        ]);
      }
      if (view.error) add(view.error);
      if (view.countdownText) add(view.countdownText);
      break;
  }
  const pad = (line: string) => `│ ${padEnd(line, width)} │`;
  // The title sits in the top border; one too long for it opens the box instead, wrapped.
  const viewTitle = stripControls(view.title, false);
  const inBorder = displayWidth(viewTitle) + 2 <= width;
  if (!inBorder) body.unshift(...wrapText(viewTitle, width), '');
  const title = inBorder ? ` ${viewTitle} ` : '';
  const top = `┌─${title}${'─'.repeat(Math.max(0, width - displayWidth(title)))}─┐`;
  const buttons = buttonLines(
    view.buttons.map((b) => stripControls(b.label, false)),
    width,
  );
  return [top, ...body.map(pad), pad(''), ...buttons.map(pad), `└${'─'.repeat(width + 2)}┘`].join('\n');
}
