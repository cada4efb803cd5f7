import { createHash } from 'node:crypto';
import { normalizeStoredPin, type PinRecordOptions } from '@waved/psk';
import { parse, stringify, TomlError } from 'smol-toml';
import type { FileStore } from '../../core/ports/files.js';
import type { PinHash } from '../../core/ports/pin-hash.js';
import { translator } from '../../i18n/index.js';
import { createPinRecordAsync } from '../security/pin.js';
import type { WebhookHttp } from '../webhook.js';
import type { Logger } from './logger.js';
import { defaultSettings, FIELDS, type Settings } from './schema.js';
import { type ValidateResult, validateSettings } from './validate.js';

export interface SettingsStoreOptions {
  /** Path of `config.toml`. */
  path: string;
  /** Reads the file and writes it atomically (0600). */
  files: Pick<FileStore, 'read' | 'write'>;
  logger: Logger;
  /** PBKDF2 iterations for new PIN records (tests lower it; default from @waved/psk). */
  pinIterations?: number;
  /** Where new PIN records are hashed (default: libuv's thread pool). */
  pinHash?: PinHash | undefined;
  /** Plain-http webhook URLs the device maker allows (default `never`: https only). */
  webhookHttp?: WebhookHttp | undefined;
}

export interface SettingsStore {
  /**
   * Reads the file. A missing file gives the defaults. A file that is not valid TOML is left in
   * place untouched, the defaults are used and a warning names the line. A field with a wrong
   * type or value falls back to its default with a warning. A plain PIN is hashed and the file is
   * rewritten at once so the digits do not stay on disk; any other PIN value is dropped.
   */
  load(): Promise<Settings>;
  /** The settings from the last `load` or `save` (the defaults before either). */
  current(): Settings;
  /** Checks form input on top of the current settings; writes nothing, hashes nothing. */
  validate(input: Record<string, string>): ValidateResult;
  /** A PIN record for new digits (PBKDF2 on the thread pool, never on the event loop). */
  hashPin(digits: string): Promise<string>;
  /**
   * Runs `task` when no other task of this store runs: a read-check-write of the settings inside
   * it cannot interleave with another, so two concurrent saves never lose one.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  /** A short fingerprint of the current settings; it changes whenever they do. */
  revision(): string;
  /** Writes the settings atomically with mode 0600. */
  save(settings: Settings): Promise<void>;
}

/** The log is written in English. */
const english = translator('en');

const HEADER = '# waved device settings. Written by the device; fields are described in docs/settings.md.\n';

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** TOML value → the string a form would send, or undefined when the type cannot be right. */
function toInput(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(' ');
  return undefined;
}

export function createSettingsStore(options: SettingsStoreOptions): SettingsStore {
  const { path, logger, files } = options;
  const pinOptions: PinRecordOptions =
    options.pinIterations !== undefined ? { iterations: options.pinIterations } : {};
  let settings = defaultSettings();
  /** Keys the schema does not know, kept so that a newer file survives a save by this version. */
  let unknown: Table = {};
  /** The file on disk could not be parsed: keep a copy before the first save replaces it. */
  let unreadable = false;

  async function load(): Promise<Settings> {
    const text = await files.read(path);
    if (text === null) {
      settings = defaultSettings();
      unknown = {};
      unreadable = false;
      return structuredClone(settings);
    }
    let doc: Table;
    try {
      doc = parse(text) as Table;
    } catch (error) {
      // The parser's message quotes the offending line, which may hold a secret: report the position only.
      const where = error instanceof TomlError ? ` at line ${error.line}, column ${error.column}` : '';
      logger.warn?.(
        `settings: ${path} is not valid TOML${where}; using defaults and leaving the file as it is`,
      );
      settings = defaultSettings();
      unknown = {};
      unreadable = true;
      return structuredClone(settings);
    }
    unreadable = false;
    let next = defaultSettings();
    unknown = {};
    let rewrite = false;
    const known = new Map<string, Set<string>>();
    for (const spec of FIELDS) {
      if (!known.has(spec.group)) known.set(spec.group, new Set());
      known.get(spec.group)!.add(spec.field);
    }
    for (const [group, value] of Object.entries(doc)) {
      const fields = known.get(group);
      if (!fields) {
        unknown[group] = value;
        continue;
      }
      if (!isTable(value)) {
        logger.warn?.(`settings: [${group}] is not a table; using defaults for it`);
        continue;
      }
      for (const [field, fieldValue] of Object.entries(value)) {
        const key = `${group}.${field}`;
        if (!fields.has(field)) {
          const extra = (unknown[group] ?? {}) as Table;
          extra[field] = fieldValue;
          unknown[group] = extra;
          continue;
        }
        if (key === 'security.device_password') {
          if (fieldValue === '') continue;
          const pin = normalizeStoredPin(fieldValue, pinOptions);
          if (pin.action === 'drop') {
            logger.warn?.(`settings: security.device_password dropped: ${pin.reason}`);
            rewrite = true;
          } else {
            next.security.device_password = pin.record;
            if (pin.action === 'hashed') {
              logger.info?.('settings: hashed the plain device PIN found in the file');
              rewrite = true;
            }
          }
          continue;
        }
        const input = toInput(fieldValue);
        const result =
          input === undefined
            ? undefined
            : validateSettings(
                next,
                { [key]: input },
                { fromFile: true, webhookHttp: options.webhookHttp ?? 'never' },
              );
        if (result?.ok) {
          next = result.settings;
        } else {
          const secret = key === 'webhook.secret';
          const problem = result && !result.ok ? result.errors[key] : undefined;
          const why = problem && !secret ? `: ${english.text(problem)}` : '';
          logger.warn?.(`settings: ${key} has an invalid value${why}; using the default`);
        }
      }
    }
    settings = next;
    if (rewrite) await write(settings);
    return structuredClone(settings);
  }

  async function write(value: Settings): Promise<void> {
    if (unreadable) {
      // Never lose a file the user may want to repair: keep it next to the new one.
      const old = await files.read(path).catch(() => null);
      if (old !== null) await files.write(`${path}.invalid`, old, 0o600).catch(() => {});
      unreadable = false;
    }
    const doc: Table = structuredClone(unknown);
    for (const [group, fields] of Object.entries(value)) {
      doc[group] = { ...(isTable(doc[group]) ? (doc[group] as Table) : {}), ...fields };
    }
    await files.write(path, HEADER + stringify(doc), 0o600);
  }

  let queue: Promise<unknown> = Promise.resolve();

  return {
    load,
    current: () => structuredClone(settings),
    validate: (input) => validateSettings(settings, input, { webhookHttp: options.webhookHttp ?? 'never' }),
    hashPin: (digits) => createPinRecordAsync(digits, { ...pinOptions, hash: options.pinHash }),
    exclusive(task) {
      const run = queue.then(task, task);
      queue = run.catch(() => undefined);
      return run;
    },
    revision: () => createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 16),
    async save(value) {
      await write(value);
      settings = structuredClone(value);
    },
  };
}
