import type { Logger } from '@waved/internal';
import { WpaCliError, type WpaCliErrorCode } from './errors.js';
import { type NetworkEntry, parseListNetworks } from './networks.js';
import { type CommandResult, type CommandRunner, runCommand } from './runner.js';
import { parseScanResults, type ScanResult } from './scan-results.js';
import { parseSignalPoll, type SignalPoll } from './signal-poll.js';
import { parseStatus, type WpaStatus } from './status.js';

/** @deprecated The shared `Logger` shape (every level optional); this alias goes in 1.0. */
export type WpaCliLogger = Logger;

export interface WpaCliOptions {
  /** The interface wpa_supplicant manages (`wpa_cli -i`). */
  iface: string;
  /** The control socket directory (`wpa_cli -p`); wpa_cli's default (/var/run/wpa_supplicant) when absent. */
  ctrlDir?: string;
  /** Runs a program from argv; defaults to the real `runCommand`. */
  run?: CommandRunner | undefined;
  /** Per call; the child is killed when it passes. Default 10 000 ms. */
  timeoutMs?: number;
  /**
   * Debug log of every call (`wpa_cli set_network 0 psk **** -> OK (4 ms)`), secrets masked. Any
   * `{ debug?, info?, warn?, error? }` logger: consola, pino and `console` fit as they are.
   */
  logger?: Logger;
  /** The wpa_cli program; default `wpa_cli` from PATH. */
  bin?: string;
}

/** A typed wpa_cli client bound to one interface. Every method rejects with a `WpaCliError`. */
export interface WpaCli {
  readonly iface: string;
  /** `status` */
  status(): Promise<WpaStatus>;
  /** `signal_poll` (fails with `WPA_CLI_FAIL` while not associated, and always with the wired driver). */
  signalPoll(): Promise<SignalPoll>;
  /** `list_networks`, following `LAST_ID=` pages when the 4 KiB reply was cut short. */
  listNetworks(): Promise<NetworkEntry[]>;
  /** `scan` (`WPA_CLI_FAIL_BUSY` while a scan or association is under way). */
  scan(): Promise<void>;
  /** `scan_results` */
  scanResults(): Promise<ScanResult[]>;
  /** `add_network`: the new (disabled) profile's id. */
  addNetwork(): Promise<number>;
  /** `set_network <id> <name> <value>`; the value is passed as one argument, never through a shell. */
  setNetwork(id: number, name: string, value: string): Promise<void>;
  /** `get_network <id> <name>`: the value exactly as printed (`"text"`, hex, a number, `*` for a psk). */
  getNetwork(id: number, name: string): Promise<string>;
  /** `enable_network <id>`: only this profile; others stay as they are. */
  enableNetwork(id: number): Promise<void>;
  /** `disable_network <id>` */
  disableNetwork(id: number): Promise<void>;
  /** `remove_network <id|all>` */
  removeNetwork(id: number | 'all'): Promise<void>;
  /** `save_config` (`WPA_CLI_FAIL` when update_config=0 or the file cannot be written). */
  saveConfig(): Promise<void>;
  /** `reassociate` */
  reassociate(): Promise<void>;
  /** `reconnect` */
  reconnect(): Promise<void>;
  /** `disconnect` */
  disconnect(): Promise<void>;
  /** `ping`: resolves on `PONG`. */
  ping(): Promise<void>;
  /** The logger given at creation, for helpers such as `provisionNetwork`. */
  readonly logger: Logger | undefined;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** The value after one of these argument names is replaced by `****` in logs and errors. */
const SECRET_NAMES: ReadonlySet<string> = new Set([
  'psk',
  'password',
  'sae_password',
  'wep_key0',
  'wep_key1',
  'wep_key2',
  'wep_key3',
  'private_key_passwd',
  'private_key2_passwd',
  'pin',
]);

/** `set_network 0 psk ****`: the command as logs and errors may show it. */
export function maskCommand(args: readonly string[]): string {
  return args.map((a, i) => (i > 0 && SECRET_NAMES.has(args[i - 1]!.toLowerCase()) ? '****' : a)).join(' ');
}

const IFACE = /^[A-Za-z0-9_.:@+][A-Za-z0-9_.:@+-]{0,14}$/;
const VAR_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const CONTROL = /[\x00-\x1f\x7f]/;
const MAX_ID = 2 ** 31 - 1;
// wpa_cli builds the request in a 4 KiB buffer; refuse values that could not fit.
const MAX_VALUE = 2048;

function argError(message: string): WpaCliError {
  return new WpaCliError('WPA_CLI_ARGUMENT', message);
}

function checkId(id: number): string {
  if (!Number.isSafeInteger(id) || id < 0 || id > MAX_ID)
    throw argError(`network id must be an integer 0..${MAX_ID}`);
  return String(id);
}

function checkName(name: string): string {
  if (typeof name !== 'string' || !VAR_NAME.test(name)) {
    throw argError(
      'network variable name must be lowercase letters, digits and _ (e.g. ssid, psk, priority)',
    );
  }
  return name;
}

function checkValue(value: string, name: string): string {
  if (typeof value !== 'string') throw argError(`value for ${name} must be a string`);
  if (CONTROL.test(value))
    throw argError(`value for ${name} has a control character; wpa_supplicant cannot take it`);
  if (value.length > MAX_VALUE) throw argError(`value for ${name} is longer than ${MAX_VALUE} characters`);
  return value;
}

const firstLine = (s: string) => (s.split('\n').find((l) => l.trim() !== '') ?? '').trim().slice(0, 200);

/** Maps a finished wpa_cli run to a WpaCliError, or undefined when the reply is a normal one. */
function classifyReply(result: CommandResult, command: string): WpaCliError | undefined {
  const fail = (code: WpaCliErrorCode, message: string) => new WpaCliError(code, message, { command });
  const reply = result.stdout.endsWith('\n') ? result.stdout.slice(0, -1) : result.stdout;
  if (result.timedOut)
    return fail('WPA_CLI_TIMEOUT', `wpa_cli ${command} did not finish in time and was killed`);
  if (result.code !== 0) {
    if (result.code === 1 && reply.startsWith('Unknown command ')) {
      return fail('WPA_CLI_UNKNOWN_COMMAND', `wpa_cli does not know the command in "${command}"`);
    }
    if (/command timed out/.test(reply)) {
      return fail(
        'WPA_CLI_TIMEOUT',
        `wpa_supplicant did not answer "${command}" (wpa_cli gave up after 10 s)`,
      );
    }
    if (/Failed to connect to/.test(result.stderr)) {
      return fail(
        'WPA_CLI_CONNECT',
        `wpa_cli cannot reach wpa_supplicant's control socket: ${firstLine(result.stderr)}. Is wpa_supplicant running for this interface and ctrl_interface directory?`,
      );
    }
    const how =
      result.code === null ? `was killed by ${result.signal ?? 'a signal'}` : `exited with ${result.code}`;
    const detail = firstLine(result.stderr) || firstLine(result.stdout);
    return fail('WPA_CLI_EXIT', `wpa_cli ${command} ${how}${detail ? `: ${detail}` : ''}`);
  }
  if (reply === 'FAIL') return fail('WPA_CLI_FAIL', `wpa_supplicant refused "${command}" (FAIL)`);
  if (reply === 'FAIL-BUSY') {
    return fail(
      'WPA_CLI_FAIL_BUSY',
      `wpa_supplicant is busy and refused "${command}" (FAIL-BUSY); try again shortly`,
    );
  }
  if (/^FAIL-[A-Z0-9-]+$/.test(reply))
    return fail('WPA_CLI_FAIL', `wpa_supplicant refused "${command}" (${reply})`);
  if (reply === 'UNKNOWN COMMAND') {
    return fail('WPA_CLI_UNKNOWN_COMMAND', `wpa_supplicant does not support "${command}" (UNKNOWN COMMAND)`);
  }
  return undefined;
}

// A list_networks line is at most ~230 characters (10-digit id, 128-character SSID, MAC, flags);
// a reply this close to wpa_supplicant's 4096-byte buffer may have been cut short.
const LIST_PAGE_FULL = 4095 - 256;
const MAX_PAGES = 256;

/** Creates a client that runs `wpa_cli -i IFACE [-p DIR] -- CMD ARGS` for every call. */
export function createWpaCli(options: WpaCliOptions): WpaCli {
  const { iface, ctrlDir, logger } = options;
  const run = options.run ?? runCommand;
  const bin = options.bin ?? 'wpa_cli';
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof iface !== 'string' || !IFACE.test(iface)) {
    throw argError('iface must be a Linux interface name (1-15 characters, no spaces or slashes)');
  }
  if (ctrlDir !== undefined && (typeof ctrlDir !== 'string' || ctrlDir === '' || CONTROL.test(ctrlDir))) {
    throw argError('ctrlDir must be a non-empty path');
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw argError('timeoutMs must be a positive number');
  const prefix = ['-i', iface, ...(ctrlDir === undefined ? [] : ['-p', ctrlDir]), '--'];

  /** Runs one command and returns stdout once the reply is known not to be an error. */
  async function call(args: readonly string[]): Promise<string> {
    const command = maskCommand(args);
    const started = performance.now();
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // Backstop for runners that ignore the timeout: give up a moment after the runner should have.
    const backstop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(
          new WpaCliError('WPA_CLI_TIMEOUT', `wpa_cli ${command} did not finish in ${timeoutMs} ms`, {
            command,
          }),
        );
      }, timeoutMs + 250);
    });
    let result: CommandResult;
    try {
      result = await Promise.race([
        run(bin, [...prefix, ...args], { timeoutMs, signal: abort.signal }).catch((error: unknown) => {
          throw new WpaCliError(
            'WPA_CLI_SPAWN',
            `could not start ${bin}: ${(error as Error)?.message ?? String(error)}. Is wpa_cli (package wpasupplicant) installed?`,
            { cause: error, command },
          );
        }),
        backstop,
      ]);
    } catch (error) {
      logger?.debug?.(`wpa_cli ${command} -> ${(error as WpaCliError).code}`, {
        command,
        ms: Math.round(performance.now() - started),
      });
      throw error;
    } finally {
      clearTimeout(timer);
    }
    const error = classifyReply(result, command);
    const ms = Math.round(performance.now() - started);
    logger?.debug?.(`wpa_cli ${command} -> ${error ? error.code : 'ok'} (${ms} ms)`, {
      command,
      ms,
      exitCode: result.code,
      ...(error ? { error: error.code } : {}),
    });
    if (error) throw error;
    return result.stdout;
  }

  const parse = <T>(command: string, fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      if (error instanceof WpaCliError && error.code === 'WPA_CLI_PARSE') {
        throw new WpaCliError('WPA_CLI_PARSE', error.message, { cause: error.cause, command });
      }
      throw error;
    }
  };

  async function expect(args: readonly string[], want: string): Promise<void> {
    const out = await call(args);
    if (out !== `${want}\n` && out !== want) {
      throw new WpaCliError(
        'WPA_CLI_PARSE',
        `expected ${want} from "${maskCommand(args)}", got ${JSON.stringify(firstLine(out))}`,
        { command: maskCommand(args) },
      );
    }
  }
  const ok = (...args: string[]) => expect(args, 'OK');

  return {
    iface,
    logger,
    status: async () => {
      const out = await call(['status']);
      return parse('status', () => parseStatus(out));
    },
    signalPoll: async () => {
      const out = await call(['signal_poll']);
      return parse('signal_poll', () => parseSignalPoll(out));
    },
    listNetworks: async () => {
      const all: NetworkEntry[] = [];
      let args = ['list_networks'];
      for (let page = 0; page < MAX_PAGES; page++) {
        const out = await call(args);
        const entries = parse('list_networks', () => parseListNetworks(out));
        const last = entries.at(-1);
        const prev = all.at(-1);
        if (prev && last && last.id <= prev.id) {
          throw new WpaCliError('WPA_CLI_PARSE', 'list_networks: LAST_ID paging did not move forward', {
            command: args.join(' '),
          });
        }
        all.push(...entries);
        if (!last || out.length < LIST_PAGE_FULL) return all;
        args = ['list_networks', `LAST_ID=${last.id}`];
      }
      throw new WpaCliError('WPA_CLI_PARSE', `list_networks: more than ${MAX_PAGES} pages`, {
        command: 'list_networks',
      });
    },
    scan: async () => ok('scan'),
    scanResults: async () => {
      const out = await call(['scan_results']);
      return parse('scan_results', () => parseScanResults(out));
    },
    addNetwork: async () => {
      const out = await call(['add_network']);
      const m = /^(\d{1,10})\n?$/.exec(out);
      if (!m || Number(m[1]) > MAX_ID) {
        throw new WpaCliError(
          'WPA_CLI_PARSE',
          `add_network: expected a network id, got ${JSON.stringify(firstLine(out))}`,
          {
            command: 'add_network',
          },
        );
      }
      return Number(m[1]);
    },
    setNetwork: async (id, name, value) =>
      ok('set_network', checkId(id), checkName(name), checkValue(value, name)),
    getNetwork: async (id, name) => call(['get_network', checkId(id), checkName(name)]),
    enableNetwork: async (id) => ok('enable_network', checkId(id)),
    disableNetwork: async (id) => ok('disable_network', checkId(id)),
    removeNetwork: async (id) => ok('remove_network', id === 'all' ? 'all' : checkId(id)),
    saveConfig: async () => ok('save_config'),
    reassociate: async () => ok('reassociate'),
    reconnect: async () => ok('reconnect'),
    disconnect: async () => ok('disconnect'),
    ping: async () => expect(['ping'], 'PONG'),
  };
}
