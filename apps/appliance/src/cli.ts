import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pkg from '../package.json' with { type: 'json' };
import type { TerminalScreen } from './adapters/system/terminal.js';
import { createLogger } from './core/log/logger.js';
import type { PowerOffType } from './domain/device/constants.js';
import { describePlan, planFeatures, simulatedPlan } from './domain/profile/features.js';
import { parseProfile } from './domain/profile/parse.js';
import { DEFAULT_PROFILE_PATH, type DeviceProfile, defaultProfile } from './domain/profile/schema.js';
import { createRuntime, type Runtime } from './runtime.js';

// Each command loads only the adapters it picks: the simulator never loads the system's, and a
// screen's renderer (qrcode) only when one is drawn.
const systemAdapters = () => import('./adapters/system/index.js');
const terminal = () => import('./adapters/system/terminal.js');

export const VERSION: string = pkg.version;

export const HELP = `waved ${VERSION} — Wi-Fi station manager, phone provisioning and device application

Usage:
  waved start [options]   run on the device (root; see docs/device.md)
  waved check [options]   print what will run and what is missing (exit 0 or 1)
  waved sim   [options]   run on a simulated radio (what \`npm start\` runs)
  waved password recover --send-code | --verify-code <code> [--profile <file>]
                          forgotten device password: the cloud sends a code to the owner; a code
                          it accepts removes the password (restart waved to apply it)
  waved --version | --help

Options for all:
  --log-level <0-5>       0 errors only … 3 info (default) … 5 trace; secrets are always masked
  --exit-after <ms>       stop cleanly after this many milliseconds (tests, benchmarks)
  --config <file>         the user's settings (start: the profile's paths.settings; sim: <data-dir>/config.toml)

waved start and waved check:
  --profile <file>        the device profile (default ${DEFAULT_PROFILE_PATH})
  --tty <device>          draw the screen and read its keys on this terminal (e.g. /dev/tty1)
  --screen-port <n>       serve the screen page on 127.0.0.1:<n> for a kiosk browser (0 = off)
  --setup-on-start        open the setup network at start (a device with no saved network)
  --no-screen             do not draw the screen on stdout (a --tty still gets it)
  These override the profile's [wifi] table (lab use):
  --iface <name>  --wpa-config <file>  --ctrl-dir <dir>  --wpa-driver <name>
  --hostapd-driver <name>  --hostapd-config <file>  --gateway <ip>  --portal-port <n>  --run-dir <dir>
  --scan-wait <ms>  (default 10000)
  --association-timeout <ms>  time to join after a save (profile wifi.association_timeout_ms, 30000)
  --step-limit <ms>       bound of one radio step (profile wifi.step_limit_ms, 15000)
  --setup-timeout <ms>    the setup network closes after this (profile wifi.setup_timeout_ms, 300000)
  --ntp-port <n>          ask every NTP server on this port (default 123)

waved sim:
  --port <n>              portal port on 127.0.0.1 (default 8080; 0 = any free port)
  --data-dir <dir>        settings, device database and recordings (default <tmp>/waved-sim)
  --screen-port <n>       device screen emulator in the browser (default: portal port + 1; 0 = off)
  --no-screen             do not draw the device screen in the terminal
  --no-auto-setup         do not open Set up Wi-Fi at start
  --no-cloud              no reference cloud server (and so no device application)
  --no-device             do not start the device application (cloud session, OTA, recording, Bluetooth)
  --cloud-url <url>       use this cloud instead of starting the reference server
  --no-device-demo        do not walk through a recording, transcription and a phone call after the
                          first connect (the walk-through runs by default, once)
  --ntp <host:port>       SNTP server to query after connect (default: none; the clock is never set)
  Simulated networks: Home (passphrase "correct horse"), Office (office-pass), Cafe (open),
  Neighbour (n3ighbour-pass, weak), NoDHCP (password1; joins, no address), Attic (attic-pass, hidden).
  Keys: w Wi-Fi screen, b Wi-Fi button, y confirm, n dismiss, t Try again, c Cancel, d Done,
        m back, q quit.
        Software update: i Install, l Later, o OK (after a failure).
        PC Link: p a computer asks for verification (simulated); on its page 0-9 type the
        device password, Backspace delete, Enter OK, Esc or c Cancel.

Exit status: 0 stopped cleanly, 1 could not run (the reason is printed), 2 usage error,
70 crashed (the setup network was torn down first).
`;

/** A command-line mistake: one line on stderr, exit status 2. */
class UsageError extends Error {}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  config: { type: 'string' },
  profile: { type: 'string' },
  'log-level': { type: 'string' },
  'exit-after': { type: 'string' },
  'no-screen': { type: 'boolean' },
  tty: { type: 'string' },
  port: { type: 'string' },
  'screen-port': { type: 'string' },
  'no-auto-setup': { type: 'boolean' },
  'no-cloud': { type: 'boolean' },
  'cloud-url': { type: 'string' },
  ntp: { type: 'string' },
  'ntp-port': { type: 'string' },
  iface: { type: 'string' },
  'wpa-config': { type: 'string' },
  'ctrl-dir': { type: 'string' },
  'wpa-driver': { type: 'string' },
  'hostapd-driver': { type: 'string' },
  'hostapd-config': { type: 'string' },
  gateway: { type: 'string' },
  'portal-port': { type: 'string' },
  'run-dir': { type: 'string' },
  'setup-on-start': { type: 'boolean' },
  'no-device': { type: 'boolean' },
  'data-dir': { type: 'string' },
  // The walk-through is the default; --device-demo is still accepted.
  'device-demo': { type: 'boolean' },
  'no-device-demo': { type: 'boolean' },
  'association-timeout': { type: 'string' },
  'step-limit': { type: 'string' },
  'setup-timeout': { type: 'string' },
  'scan-wait': { type: 'string' },
  'send-code': { type: 'boolean' },
  'verify-code': { type: 'string' },
} as const;

type Values = ReturnType<typeof parse>['values'];

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]);
  }
}

/** A whole number flag within [min, max]; `fallback` when absent. */
function int(values: Values, name: keyof typeof OPTIONS, min: number, max: number, fallback: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const text = String(raw);
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(
      `--${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`,
    );
  }
  return n;
}

function path_(values: Values, name: keyof typeof OPTIONS): string | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  const text = String(v);
  if (text === '' || /\p{Cc}/u.test(text)) throw new UsageError(`--${name} needs a path`);
  return path.resolve(text);
}

/** A fatal condition at start: the reason on stderr, exit status 1, nothing else printed. */
class FatalError extends Error {}

function loadProfile(file: string, explicit: boolean): { profile: DeviceProfile; note?: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !explicit) {
      return { profile: defaultProfile(), note: `no device profile at ${file}: the defaults are used` };
    }
    throw new FatalError(`cannot read the device profile ${file}: ${(error as Error).message}`);
  }
  const parsed = parseProfile(text);
  if (parsed.errors.length > 0) {
    throw new FatalError(
      `the device profile ${file} has ${parsed.errors.length} error(s):\n${parsed.errors
        .map((e) => `  ${e.key}: ${e.message}`)
        .join('\n')}`,
    );
  }
  return { profile: parsed.profile };
}

/** The profile with the [wifi] flags and the screen flags applied. */
function withFlags(profile: DeviceProfile, values: Values): DeviceProfile {
  const p = structuredClone(profile);
  const w = p.wifi;
  if (values.iface !== undefined) w.interface = String(values.iface);
  w.wpa_config = path_(values, 'wpa-config') ?? w.wpa_config;
  w.ctrl_dir = path_(values, 'ctrl-dir') ?? w.ctrl_dir;
  if (values['wpa-driver'] !== undefined) w.wpa_driver = String(values['wpa-driver']);
  if (values['hostapd-driver'] !== undefined) w.hostapd_driver = String(values['hostapd-driver']);
  w.hostapd_config = path_(values, 'hostapd-config') ?? w.hostapd_config;
  if (values.gateway !== undefined) {
    if (!net.isIPv4(String(values.gateway))) throw new UsageError('--gateway must be an IPv4 address');
    w.gateway = String(values.gateway);
  }
  w.portal_port = int(values, 'portal-port', 1, 65_535, w.portal_port);
  w.run_dir = path_(values, 'run-dir') ?? w.run_dir;
  w.association_timeout_ms = int(values, 'association-timeout', 1_000, 600_000, w.association_timeout_ms);
  w.step_limit_ms = int(values, 'step-limit', 1_000, 600_000, w.step_limit_ms);
  w.setup_timeout_ms = int(values, 'setup-timeout', 5_000, 3_600_000, w.setup_timeout_ms);
  p.paths.settings = path_(values, 'config') ?? p.paths.settings;
  p.screen.page_port = int(values, 'screen-port', 0, 65_535, p.screen.page_port);
  if (values.tty !== undefined) p.screen.tty = path_(values, 'tty') ?? '';
  return p;
}

/** The Wi-Fi timings in force (profile and flags), as `waved check` and the start log say them. */
function wifiTimings(profile: DeviceProfile): string {
  const w = profile.wifi;
  return `wifi timings: join within ${w.association_timeout_ms} ms after a save, a radio step within ${w.step_limit_ms} ms, the setup network closes after ${w.setup_timeout_ms} ms`;
}

interface Common {
  logLevel: number;
  exitAfter?: number;
  screen: boolean;
}

/** `power_off_type` of a stop: SIGINT and the quit key are the user's, the rest the system's (docs/decisions.md). */
function powerOffTypeOf(why: string): PowerOffType {
  return why === 'SIGINT' || why === 'quit' ? 'user' : 'shutdown';
}

function stopSignal(common: Common): Promise<string> {
  return new Promise((resolve) => {
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(s, () => resolve(s));
    if (common.exitAfter !== undefined) setTimeout(() => resolve('exit-after'), common.exitAfter).unref();
  });
}

/** After an uncaught exception or rejection: the AP goes down first, then the process exits 70. */
function exitOnCrash(runtime: Runtime, log: (line: string) => void): void {
  let crashing = false;
  const crash = (kind: string) => (error: unknown) => {
    if (crashing) return;
    crashing = true;
    log(`waved: ${kind}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    const hard = setTimeout(() => process.exit(70), 25_000);
    hard.unref();
    void runtime
      .teardown()
      .catch(() => {})
      .finally(() => process.exit(70));
  };
  process.on('uncaughtException', crash('uncaught exception'));
  process.on('unhandledRejection', crash('unhandled rejection'));
}

async function check(values: Values): Promise<number> {
  const file = path_(values, 'profile') ?? DEFAULT_PROFILE_PATH;
  let loaded: { profile: DeviceProfile; note?: string };
  try {
    loaded = loadProfile(file, values.profile !== undefined);
  } catch (error) {
    if (!(error instanceof FatalError)) throw error;
    process.stdout.write(`profile ${file}: INVALID\n${error.message}\n`);
    return 1;
  }
  const profile = withFlags(loaded.profile, values);
  process.stdout.write(`profile ${file}: ${loaded.note ?? 'valid'}\n`);
  process.stdout.write(`${wifiTimings(profile)}\n`);
  const { createSystemProbe } = await systemAdapters();
  const plan = await planFeatures(profile, createSystemProbe(profile));
  for (const line of describePlan(plan)) process.stdout.write(`${line}\n`);
  return plan.blocking.length > 0 ? 1 : 0;
}

async function start(values: Values, common: Common): Promise<number> {
  const file = path_(values, 'profile') ?? DEFAULT_PROFILE_PATH;
  const loaded = loadProfile(file, values.profile !== undefined);
  const profile = withFlags(loaded.profile, values);
  if (process.getuid?.() !== 0) {
    throw new FatalError(
      'waved start must run as root (it drives the Wi-Fi interface, hostapd and wpa_supplicant)',
    );
  }
  let screen: TerminalScreen | null = null;
  const log = createLogger({
    level: common.logLevel,
    write: (line) => {
      if (!screen?.log(line)) process.stderr.write(line);
    },
  });
  const { logger } = log;
  if (loaded.note) logger.warn?.(loaded.note);
  logger.info?.(wifiTimings(profile));
  const { createSystemAdapters, createSystemProbe } = await systemAdapters();
  const plan = await planFeatures(profile, createSystemProbe(profile));
  if (plan.blocking.length > 0) throw new FatalError(`cannot run: ${plan.blocking.join('; ')}`);
  const adapters = createSystemAdapters({
    profile,
    logger,
    scanWaitMs: int(values, 'scan-wait', 0, 120_000, 10_000),
    ntpPort: int(values, 'ntp-port', 1, 65_535, 123),
  });
  const screenOn = !!profile.screen.tty || (common.screen && process.stdout.isTTY === true);
  const { attachTerminalScreen, openTty } = screenOn
    ? await terminal()
    : ({} as Awaited<ReturnType<typeof terminal>>);
  const ttyDevice = profile.screen.tty ? openTty(profile.screen.tty) : null;
  const runtime = createRuntime({
    profile,
    adapters,
    plan,
    log,
    ...(values['setup-on-start'] ? { openSetupOnStart: true } : {}),
    interactive: ttyDevice !== null || profile.screen.page_port > 0,
  });
  exitOnCrash(runtime, (line) => process.stderr.write(line));
  // The screen shows the setup passphrase: only on a terminal (the tty, or stdout when it is one).
  if (ttyDevice) screen = attachTerminalScreen(runtime.screens, { ...ttyDevice });
  else if (common.screen && process.stdout.isTTY) {
    screen = attachTerminalScreen(runtime.screens, { output: process.stdout, logTail: true });
  }
  const stop = stopSignal(common);
  try {
    await runtime.start();
  } catch (error) {
    await runtime.stop().catch(() => {});
    screen?.close();
    ttyDevice?.close();
    throw new FatalError((error as Error).message);
  }
  const why = await stop;
  logger.info?.(`stopping (${why})`);
  await runtime.stop({ powerOffType: powerOffTypeOf(why) });
  screen?.close();
  ttyDevice?.close();
  return 0;
}

/** `waved password recover`: password recovery against the profile's cloud (spec Endpoints B). */
async function password(values: Values, positionals: string[], common: Common): Promise<number> {
  if (positionals[1] !== 'recover' || positionals.length > 2) {
    throw new UsageError('use waved password recover --send-code, or --verify-code <code>');
  }
  const code = values['verify-code'];
  if (!!values['send-code'] === (code !== undefined)) {
    throw new UsageError('password recover takes one of --send-code and --verify-code <code>');
  }
  // the code is not echoed: it goes to the cloud and nowhere else
  if (code !== undefined && !/^[A-Za-z0-9]{4,12}$/.test(code)) {
    throw new UsageError('--verify-code takes the code as it was received: 4 to 12 letters or digits');
  }
  const file = path_(values, 'profile') ?? DEFAULT_PROFILE_PATH;
  const { profile, note } = loadProfile(file, values.profile !== undefined);
  const { logger } = createLogger({ level: common.logLevel, write: (line) => process.stderr.write(line) });
  if (note) logger.warn?.(note);
  const { openSystemPasswordRecovery } = await import('./adapters/system/recovery.js');
  let recovery: Awaited<ReturnType<typeof openSystemPasswordRecovery>>;
  try {
    recovery = await openSystemPasswordRecovery(profile, logger);
  } catch (error) {
    throw new FatalError(`password recovery: ${(error as Error).message}`);
  }
  try {
    if (code === undefined) {
      const { sent } = await recovery.sendCode();
      process.stdout.write(
        sent ? 'a recovery code was sent to the device owner\n' : 'the cloud did not send a recovery code\n',
      );
      return sent ? 0 : 1;
    }
    const { verified } = await recovery.verifyCode(code);
    if (!verified) {
      process.stdout.write('the recovery code was not accepted\n');
      return 1;
    }
    await recovery.clearDevicePassword();
    process.stdout.write(
      'the recovery code was accepted: the device password is removed (restart waved to apply it)\n',
    );
    return 0;
  } catch (error) {
    throw new FatalError(`password recovery: ${(error as Error).message}`);
  } finally {
    await recovery.close().catch(() => {});
  }
}

/** Binds and releases a TCP port on loopback: a port in use is a fatal start error, found before any banner. */
function claimPort(port: number, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new FatalError(
          `${what} port ${port} on 127.0.0.1 is not available (${error.code ?? error.message}); choose another with --${what === 'portal' ? 'port' : 'screen-port'}`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const got = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(got));
    });
  });
}

async function sim(values: Values, common: Common): Promise<number> {
  const asked = int(values, 'port', 0, 65_535, 8080);
  const screenAsked = int(values, 'screen-port', 0, 65_535, asked === 0 ? 0 : Math.min(asked + 1, 65_535));
  const cloudUrl = values['cloud-url'] === undefined ? undefined : String(values['cloud-url']);
  if (cloudUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(cloudUrl)) {
    throw new UsageError('--cloud-url must be an http:// or https:// URL');
  }
  let ntp: { host: string; port: number } | undefined;
  if (values.ntp !== undefined) {
    const m = /^([^\s:]+):(\d{1,5})$/.exec(String(values.ntp));
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 65_535) throw new UsageError('--ntp must be host:port');
    ntp = { host: m[1]!, port: Number(m[2]) };
  }
  const dataDir = path_(values, 'data-dir') ?? path.join(os.tmpdir(), 'waved-sim');
  // Port 0 means "any free port": pick one now, so the URL printed is the one really used.
  const port = await claimPort(asked, 'portal');
  const screenPort = screenAsked > 0 ? await claimPort(screenAsked, 'screen') : 0;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  let screen: TerminalScreen | null = null;
  const log = createLogger({
    level: common.logLevel,
    write: (line) => {
      if (!screen?.log(line)) process.stderr.write(line);
    },
  });
  const { logger } = log;
  const withDevice = !values['no-device'] && !values['no-cloud'];
  const { createSimAdapters, playSimulator, simProfile } = await import('./sim/index.js');
  const { createSystemdNotifier } = await import('./adapters/system/notify.js');
  const profile = simProfile({
    dataDir,
    settings: path_(values, 'config'),
    screenPort,
  });
  const adapters = createSimAdapters({
    logger,
    deviceDir: path.join(dataDir, 'device'),
    portalPort: port,
    device: withDevice,
    cloudUrl: cloudUrl || undefined,
    ntp,
    // the simulator reports to a service manager like the device (the benchmark measures READY=1)
    notifier: createSystemdNotifier({
      socket: process.env.NOTIFY_SOCKET,
      watchdogUsec: process.env.WATCHDOG_USEC,
      watchdogPid: process.env.WATCHDOG_PID,
      onError: (error) => logger.debug?.(`sd_notify: ${error.message}`),
    }),
  });
  const portalUrl = `http://127.0.0.1:${port}/`;
  const keys = process.stdin.isTTY === true && common.screen;
  const runtime = createRuntime({
    profile,
    adapters,
    plan: simulatedPlan({ device: withDevice, screenPage: screenPort > 0 }),
    log,
    portal: { host: '127.0.0.1', port, setupUrl: portalUrl, gateway: `127.0.0.1:${port}` },
    // Someone can press Install or Later (keys or the emulator page); otherwise the sim consents itself.
    interactive: keys || screenPort > 0,
  });
  exitOnCrash(runtime, (line) => process.stderr.write(line));
  let resolveQuit: (why: string) => void = () => {};
  const quit = new Promise<string>((r) => {
    resolveQuit = r;
  });
  if (common.screen) {
    const { attachTerminalScreen } = await terminal();
    screen = attachTerminalScreen(runtime.screens, {
      output: process.stdout,
      ...(keys ? { input: process.stdin } : {}),
      logTail: true,
      onKey: (key) => {
        if (key === 'q' || key === '\u0003') {
          resolveQuit('quit');
          return true;
        }
        if (key === 'p') {
          // A computer on the PC Link sends an empty password: the device shows its verification page.
          void runtime.device()?.verifyDevicePassword('');
          return true;
        }
        return false;
      },
    });
  }
  const stop = Promise.race([stopSignal(common), quit]);
  let info: Awaited<ReturnType<Runtime['start']>>;
  try {
    info = await runtime.start();
  } catch (error) {
    await runtime.stop().catch(() => {});
    screen?.close();
    throw new FatalError((error as Error).message);
  }
  const cloud = adapters.simDevice()?.cloudUrl ?? cloudUrl;
  const header = [
    `waved sim — portal: ${portalUrl}${info.screenPage ? `  screen: ${info.screenPage.url}` : ''}${cloud ? `  cloud: ${cloud}` : ''}`,
    `  (the portal is up while Set up Wi-Fi is open; try Home / "correct horse", or a wrong password)`,
  ].join('\n');
  if (screen) screen.setHeader(header);
  else process.stderr.write(`${header}\n`);
  playSimulator(runtime, adapters, {
    logger,
    autoSetup: !values['no-auto-setup'],
    demo: withDevice && !values['no-device-demo'],
  });
  process.stdout.write(`portal: ${portalUrl}\n`);
  const why = await stop;
  logger.info?.(`stopping (${why})`);
  await runtime.stop({ powerOffType: powerOffTypeOf(why) });
  screen?.close();
  return 0;
}

/** Runs `waved` with `argv`; resolves with the exit status. */
export async function main(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parse(argv);
    if (values.version) {
      process.stdout.write(`waved ${VERSION}\n`);
      return 0;
    }
    const command = positionals[0];
    if (values.help || command === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    if (command === undefined) throw new UsageError('a command is needed: start, check, sim or password');
    if (positionals.length > 1 && command !== 'password')
      throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}`);
    const common: Common = {
      logLevel: int(values, 'log-level', 0, 5, 3),
      ...(values['exit-after'] !== undefined
        ? { exitAfter: int(values, 'exit-after', 0, 2_147_483_647, 0) }
        : {}),
      screen: !values['no-screen'],
    };
    if (command === 'sim') return await sim(values, common);
    if (command === 'start') return await start(values, common);
    if (command === 'check') return await check(values);
    if (command === 'password') return await password(values, positionals, common);
    throw new UsageError(`unknown command ${JSON.stringify(command)}: use start, check, sim or password`);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`waved: ${error.message} (see waved --help)\n`);
      return 2;
    }
    if (error instanceof FatalError) {
      process.stderr.write(`waved: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** Runs `waved` with `argv` and exits the process with its status (1 with the stack on a failure). */
export function runMain(argv: string[]): void {
  main(argv).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(
        `waved: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}

const invokedDirectly = process.argv[1] !== undefined && /cli\.(js|ts)$/.test(process.argv[1]);
if (invokedDirectly) runMain(process.argv.slice(2));
