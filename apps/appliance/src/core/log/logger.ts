import { formatWithOptions } from 'node:util';
import type { Logger } from '@waved/internal';
// consola/core: the logger without its terminal reporters and environment probing (we bring our own reporter)
import { type ConsolaInstance, type ConsolaReporter, createConsola, type LogObject } from 'consola/core';
import { createSecretRegistry, redactString, redactValue, type SecretRegistry } from './redact.js';
import { escapeControls, escapeControlsIn } from './sanitize.js';

/**
 * The logger the appliance's components take: the one contract of the waved packages,
 * `{ debug?, info?, warn?, error? }(message, fields?)`, so a component hands its logger to a package
 * as it is. A consola instance (what `createLogger` returns) satisfies it.
 */
export type { Logger } from '@waved/internal';

/**
 * Wraps any consola reporter so that every record is redacted before it reaches it, and every
 * control character in it (a terminal escape in a network or Bluetooth name, say) is made visible.
 */
export function createRedactingReporter(inner: ConsolaReporter, secrets: SecretRegistry): ConsolaReporter {
  const text = (s: string) => escapeControls(redactString(s, secrets));
  return {
    log(logObj, ctx) {
      const clean: LogObject = {
        ...logObj,
        args: (logObj.args ?? []).map((a) => escapeControlsIn(redactValue(a, secrets))),
      };
      if (typeof logObj.message === 'string') clean.message = text(logObj.message);
      if (logObj.tag) clean.tag = escapeControls(logObj.tag);
      if (logObj.additional !== undefined) {
        clean.additional = Array.isArray(logObj.additional)
          ? logObj.additional.map((a) => text(String(a)))
          : text(String(logObj.additional));
      }
      inner.log(clean, ctx);
    },
  };
}

/**
 * A plain one-line-per-record reporter (`2026-01-01T00:00:00.000Z INFO [tag] text`). Control
 * characters are made visible, and the continuation lines of a multi-line record (a stack trace,
 * a newline inside a name) are indented, so no text can start a line that looks like a record.
 */
export function createLineReporter(write: (line: string) => void): ConsolaReporter {
  return {
    log(logObj) {
      const text = escapeControls(
        formatWithOptions({ colors: false, breakLength: Number.POSITIVE_INFINITY }, ...logObj.args),
      ).replace(/\n/g, '\n    ');
      const tag = logObj.tag ? ` [${escapeControls(logObj.tag)}]` : '';
      write(`${logObj.date.toISOString()} ${logObj.type.toUpperCase()}${tag} ${text}\n`);
    },
  };
}

export interface CreateLoggerOptions {
  /** consola level: 0 error … 3 info, 4 debug, 5 trace. Default 3. */
  level?: number;
  /** Where lines go; default stderr. */
  write?: (line: string) => void;
  /** Replace the line reporter (it is still wrapped by the redactor). */
  reporter?: ConsolaReporter;
  secrets?: SecretRegistry;
  tag?: string;
}

export interface ApplianceLogger {
  logger: ConsolaInstance;
  /** Register runtime secrets here; they are masked in every later record. */
  secrets: SecretRegistry;
}

/** consola with a redacting reporter: no passphrase, PSK, CSRF token or device token reaches a log. */
export function createLogger(options: CreateLoggerOptions = {}): ApplianceLogger {
  const secrets = options.secrets ?? createSecretRegistry();
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const inner = options.reporter ?? createLineReporter(write);
  const logger = createConsola({
    level: options.level ?? 3,
    reporters: [createRedactingReporter(inner, secrets)],
    defaults: options.tag ? { tag: options.tag } : {},
  });
  return { logger, secrets };
}

/** A logger that drops everything (tests and library defaults): every level is optional. */
export const silentLogger: Logger = {};

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * The appliance's logger as a package gets it: each message prefixed with the component
 * (`cloud: …`), the fields passed on (the reporter redacts them), and where a package's level is
 * louder than the appliance wants (a telemetry retry is routine), that level mapped to a quieter one.
 */
export function scopedLogger(
  logger: Logger,
  prefix: string | null,
  levels: Partial<Record<Level, Level>> = {},
): Logger {
  const text = prefix === null ? (m: string) => m : (m: string) => `${prefix}: ${m}`;
  const at =
    (level: Level) =>
    (message: string, fields?: Record<string, unknown>): void => {
      const target = levels[level] ?? level;
      if (fields === undefined) logger[target]?.(text(message));
      else logger[target]?.(text(message), fields);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
