import type { Logger } from '../../src/log/logger.js';

/** A logger that keeps every line (tests assert on what a user would read, and on what must not be there). */
export function memoryLogger(echo = false): Logger & { lines: string[] } {
  const lines: string[] = [];
  const add =
    (level: string) =>
    (message: unknown, ...args: unknown[]) => {
      const line = `${level} ${[message, ...args].map(String).join(' ')}`;
      lines.push(line);
      if (echo) process.stderr.write(`${line}\n`);
    };
  return { lines, debug: add('debug'), info: add('info'), warn: add('warn'), error: add('error') };
}
