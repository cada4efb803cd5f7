import fs from 'node:fs';
import tty from 'node:tty';
import { renderTerminal } from '../../domain/screens/terminal.js';
import type { ScreenAction, Screens } from '../../domain/screens/view.js';

/** Keys of the terminal screen (docs/appliance.md lists them). */
export const SCREEN_KEYS: Readonly<Record<string, ScreenAction>> = {
  w: 'open-wifi',
  b: 'wifi-button',
  y: 'confirm',
  n: 'dismiss',
  t: 'try-again',
  c: 'cancel',
  d: 'done',
  m: 'back',
  i: 'install',
  l: 'later',
  o: 'ok',
  '\r': 'pin-submit',
  '\x7f': 'pin-delete',
  '\b': 'pin-delete',
  '\x1b': 'pin-cancel',
  ...Object.fromEntries(
    (['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'] as const).map((d) => [d, `pin-${d}` as const]),
  ),
};

export interface TerminalScreenOptions {
  output: NodeJS.WritableStream & { isTTY?: boolean };
  /** Raw key input (a TTY); absent: no keys. */
  input?: (NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(raw: boolean): unknown }) | undefined;
  /** A line above the screen (the simulator's addresses). */
  header?: string;
  /** Show the last log lines under the screen (the simulator on a terminal). */
  logTail?: boolean;
  /** Keys the caller handles itself (quit, the simulator's PC Link); return true when handled. */
  onKey?: (key: string) => boolean;
}

export interface TerminalScreen {
  /** Where log lines go: under the screen on a terminal, or nowhere (the caller writes them). */
  log(line: string): boolean;
  setHeader(text: string): void;
  close(): void;
}

/**
 * Draws the device screens on a terminal and reads its keys. On a TTY the screen is redrawn in
 * place; anything else (a file, a pipe) gets each screen as text when it changes, without the
 * setup QR code and passphrase.
 */
export function attachTerminalScreen(screens: Screens, options: TerminalScreenOptions): TerminalScreen {
  const { output, input } = options;
  const isTty = output.isTTY === true;
  const tail: string[] = [];
  let header = options.header ?? '';
  let last = '';
  const draw = () => {
    const logs = options.logTail ? tail.slice(-8).join('') : '';
    output.write(`\x1b[2J\x1b[H${header ? `${header}\n` : ''}${last}\n${logs}`);
  };
  // Without a terminal, print a view only when more than its countdown or download progress changed.
  const shape = (t: string) => t.replace(/\d+:\d\d/g, '').replace(/\d+(\.\d+)? ([KMG]i)?B\b|\d+%|[█░]+/g, '');
  const show = (text: string) => {
    const changed = shape(text) !== shape(last);
    last = text;
    if (isTty) draw();
    else if (changed) output.write(`${text}\n`);
  };
  const unsubscribe = screens.subscribe((view) => show(renderTerminal(view, { hideSecrets: !isTty })));
  if (!isTty && header) output.write(`${header}\n`);
  show(renderTerminal(screens.view(), { hideSecrets: !isTty }));

  let onData: ((d: Buffer) => void) | null = null;
  if (input?.isTTY && input.setRawMode) {
    input.setRawMode(true);
    onData = (d: Buffer) => {
      const key = d.toString('utf8');
      if (options.onKey?.(key)) return;
      const action = SCREEN_KEYS[key];
      if (action) screens.press(action);
    };
    input.on('data', onData);
    input.resume();
  }
  return {
    log(line) {
      if (!isTty || !options.logTail) return false;
      tail.push(line);
      if (tail.length > 50) tail.shift();
      draw();
      return true;
    },
    setHeader(text) {
      header = text;
      if (isTty) draw();
      else output.write(`${text}\n`);
    },
    close() {
      unsubscribe();
      if (onData && input) {
        input.off('data', onData);
        input.setRawMode?.(false);
        input.pause();
      }
    },
  };
}

/** Opens a terminal device (`/dev/tty1`, a pty) for the screen and its keys. */
export function openTty(path: string): { input: tty.ReadStream; output: tty.WriteStream; close(): void } {
  const readFd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOCTTY);
  if (!tty.isatty(readFd)) {
    fs.closeSync(readFd);
    throw new Error(`${path} is not a terminal`);
  }
  const writeFd = fs.openSync(path, fs.constants.O_WRONLY | fs.constants.O_NOCTTY);
  const input = new tty.ReadStream(readFd);
  const output = new tty.WriteStream(writeFd);
  return {
    input,
    output,
    close() {
      input.destroy();
      output.destroy();
    },
  };
}
