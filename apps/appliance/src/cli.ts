import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCaptiveDns } from '@waved/captive-dns';
import { createDhcpServer } from '@waved/dhcp-server';
import { toNodeHandler } from 'h3';
import { createSystemRadio } from './adapters/system/radio.js';
import { runCommand } from './adapters/system/runner.js';
import { createWpaStation } from './adapters/system/wpa-station.js';
import { type Appliance, runWebhookSetupTest, startAppliance } from './app.js';
import { type ProvisioningState, StateBus } from './core/bus.js';
import { createLogger } from './core/log/logger.js';
import type { Radio, Station } from './core/ports/radio.js';
import type { SimDevice } from './domain/device/index.js';
import { HOSTAPD_CONFIG_PATH } from './domain/provisioning/ap.js';
import {
  createScreenPage,
  createScreens,
  renderTerminal,
  type ScreenAction,
} from './domain/screens/index.js';
import { type AttemptLimiter, createAttemptLimiter } from './domain/security/attempts.js';
import { defaultSettings } from './domain/settings/index.js';
import { createRunnerClock } from './domain/sntp/client.js';
import type { WebhookHttp } from './domain/webhook.js';
import { createSimRadio, type SimApServices, type SimNetwork } from './sim/radio.js';

export const HELP = `waved — Wi-Fi station manager and phone provisioning for the device

Usage:
  waved sim   [options]   run on a simulated radio (what \`npm start\` runs)
  waved start [options]   run on the device (root, wlan0, wpa_supplicant, hostapd, udhcpc)
  waved --help

Options for both:
  --config <file>         settings file (sim: <data-dir>/config.toml, start: /etc/waved/config.toml)
  --log-level <0-5>       0 errors only … 3 info (default) … 5 trace; secrets are always masked
  --exit-after <ms>       stop cleanly after this many milliseconds (tests, benchmarks)
  --no-screen             do not draw the device screen in the terminal

waved sim:
  --port <n>              portal port on 127.0.0.1 (default 8080)
  --data-dir <dir>        settings, device database and recordings (default <tmp>/waved-sim)
  --screen-port <n>       device screen emulator in the browser (default: portal port + 1; 0 = off)
  --no-auto-setup         do not open Set up Wi-Fi at start
  --no-cloud              no reference cloud server (and so no device application)
  --no-device             do not start the device application (cloud session, OTA, recording, Bluetooth)
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

waved start:
  --iface <name>          Wi-Fi interface (default wlan0)
  --wpa-config <file>     station profiles (default /etc/wpa_supplicant.conf)
  --ctrl-dir <dir>        wpa_supplicant control directory (default /var/run/wpa_supplicant)
  --wpa-driver <name>     wpa_supplicant -D (default nl80211)
  --hostapd-driver <name> hostapd driver= (default nl80211)
  --hostapd-config <file> runtime AP config (default /tmp/waved-hostapd.conf)
  --gateway <ip>          AP address (default 192.168.2.1)
  --portal-port <n>       portal port (default 80)
  --run-dir <dir>         pid files (default /run/waved)
  --setup-on-start        open the setup network at start (a device with no saved network)
  --association-timeout <ms>  Failed after this long without association (default 30000)
  --scan-wait <ms>        wait between scan and scan_results (default 3000)
`;

export const SIM_NETWORKS: SimNetwork[] = [
  { ssid: 'Home', passphrase: 'correct horse', signal: -45, frequency: 5180 },
  { ssid: 'Office', passphrase: 'office-pass', signal: -58 },
  { ssid: 'Cafe', passphrase: null, signal: -66 },
  { ssid: 'Neighbour', passphrase: 'n3ighbour-pass', signal: -79 },
  { ssid: 'NoDHCP', passphrase: 'password1', signal: -62, dhcp: false },
  { ssid: 'Attic', passphrase: 'attic-pass', signal: -70, hidden: true },
];

const KEYS: Record<string, ScreenAction> = {
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

interface Common {
  config?: string;
  logLevel: number;
  exitAfter?: number;
  screen: boolean;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      config: { type: 'string' },
      'log-level': { type: 'string' },
      'exit-after': { type: 'string' },
      'no-screen': { type: 'boolean' },
      port: { type: 'string' },
      'screen-port': { type: 'string' },
      'no-auto-setup': { type: 'boolean' },
      'no-cloud': { type: 'boolean' },
      ntp: { type: 'string' },
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
      'scan-wait': { type: 'string' },
    },
  });
}

function int(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer`);
  return n;
}

/** The terminal: the screen on top, the last log lines beneath (TTY), or plain lines (pipes). */
function createTerminal(enabled: boolean) {
  const tty = process.stdout.isTTY === true;
  const tail: string[] = [];
  let header = '';
  let last = '';
  const draw = () => {
    if (!enabled || !tty) return;
    process.stdout.write(`\x1b[2J\x1b[H${header}\n${last}\n${tail.slice(-8).join('')}`);
  };
  return {
    log(line: string) {
      if (enabled && tty) {
        tail.push(line);
        if (tail.length > 50) tail.shift();
        draw();
      } else {
        process.stderr.write(line);
      }
    },
    header(text: string) {
      header = text;
      if (enabled && tty) draw();
      else process.stdout.write(`${text}\n`);
    },
    screen(text: string) {
      if (!enabled) return;
      // Without a terminal, print a view only when more than its countdown or download progress changed.
      const shape = (t: string) =>
        t.replace(/\d+:\d\d/g, '').replace(/\d+(\.\d+)? ([KMG]i)?B\b|\d+%|[█░]+/g, '');
      const changed = shape(text) !== shape(last);
      last = text;
      if (tty) draw();
      else if (changed) process.stdout.write(`${text}\n`);
    },
  };
}

async function serveScreenPage(app: ReturnType<typeof createScreenPage>, port: number) {
  const server = http.createServer(toNodeHandler(app));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

interface Runtime {
  bus: StateBus;
  /** One failed-PIN counter for the portal and PC Link, kept across restarts. */
  pinAttempts: AttemptLimiter;
  webhookHttp: WebhookHttp;
  radio: Radio;
  station: Station;
  common: Common;
  settingsPath: string;
  hostapdConfigPath: string;
  portal: { host: string; port: number };
  setupUrl: string;
  gateway: string;
  setClock?: (date: Date) => Promise<void>;
  ntpPort?: number;
  logger: ReturnType<typeof createLogger>;
  timing?: { finishDelayMs?: number; associationTimeoutMs?: number };
  /** Send OpenWifiProvisioning once, at the first start. */
  openOnStart?: boolean;
  /** Told about each (re)started appliance. */
  onStarted?: (app: Appliance) => void;
}

/**
 * Runs the appliance until stopped; a valid save ends in a controlled restart: everything is
 * stopped, the settings file is read again (one consistent snapshot) and the pending webhook setup
 * test runs.
 */
async function runLoop(rt: Runtime, stopSignal: Promise<void>): Promise<void> {
  const { logger } = rt.logger;
  let initialState: ProvisioningState | undefined;
  let pendingWebhookTest = false;
  for (;;) {
    let restart: (() => void) | null = null;
    const restarted = new Promise<'restart'>((resolve) => {
      restart = () => resolve('restart');
    });
    const app: Appliance = await startAppliance({
      bus: rt.bus,
      radio: rt.radio,
      station: rt.station,
      logger,
      secrets: rt.logger.secrets,
      settingsPath: rt.settingsPath,
      pinAttempts: rt.pinAttempts,
      webhookHttp: rt.webhookHttp,
      portal: rt.portal,
      setupUrl: rt.setupUrl,
      gateway: rt.gateway,
      hostapdConfigPath: rt.hostapdConfigPath,
      ...(rt.setClock ? { setClock: rt.setClock } : {}),
      ...(rt.ntpPort ? { ntpPort: rt.ntpPort } : {}),
      ...(initialState ? { initialState } : {}),
      ...(rt.timing ? { timing: rt.timing } : {}),
      onRestart: (info) => {
        pendingWebhookTest = info.pendingWebhookTest;
        restart?.();
      },
    });
    rt.onStarted?.(app);
    if (rt.openOnStart && initialState === undefined) rt.bus.send({ type: 'OpenWifiProvisioning' });
    if (pendingWebhookTest) {
      pendingWebhookTest = false;
      void runWebhookSetupTest(app.current(), logger, { http: rt.webhookHttp });
    }
    const why = await Promise.race([restarted, stopSignal.then(() => 'stop' as const)]);
    initialState = app.controller.state();
    await app.stop();
    if (why === 'stop') return;
    logger.info('restarting with the saved settings');
  }
}

async function sim(values: ReturnType<typeof parse>['values'], common: Common, stop: Promise<void>) {
  const term = createTerminal(common.screen);
  const log = createLogger({ level: common.logLevel, write: (l) => term.log(l) });
  const { logger } = log;
  // Port 0 means "any free port": pick one now, so the URL printed at start is the one the portal
  // (which listens anew each setup session) will really use.
  const asked = int(values.port, 'port', 8080);
  const port = asked === 0 ? await pickFreePort() : asked;
  const simDir = values['data-dir'] ?? path.join(os.tmpdir(), 'waved-sim');
  fs.mkdirSync(simDir, { recursive: true, mode: 0o700 });
  const settingsPath = values.config ?? path.join(simDir, 'config.toml');
  const pinAttempts = createAttemptLimiter({ path: path.join(simDir, 'pin-attempts.json'), logger });

  // The AP's DHCP and DNS servers, for real, on loopback ports (a phone cannot reach them; dig can).
  const services: { dhcp?: { close(): Promise<void> }; dns?: { close(): Promise<void> } } = {};
  const ports = { dhcp: 0, dns: 0 };
  const apServices: SimApServices = {
    async startDhcp() {
      const s = createDhcpServer({
        serverAddress: '192.168.2.1',
        netmask: '255.255.255.0',
        range: ['192.168.2.50', '192.168.2.200'],
        router: '192.168.2.1',
        dns: '192.168.2.1',
        captivePortalUri: `http://127.0.0.1:${port}/`,
        listenAddress: '127.0.0.1',
        port: ports.dhcp,
      });
      ports.dhcp = (await s.listen()).port;
      services.dhcp = s;
    },
    async stopDhcp() {
      await services.dhcp?.close();
      services.dhcp = undefined;
    },
    async startDns() {
      const s = createCaptiveDns({ answer: '127.0.0.1', address: '127.0.0.1', port: ports.dns });
      ports.dns = (await s.listen()).port;
      services.dns = s;
    },
    async stopDns() {
      await services.dns?.close();
      services.dns = undefined;
    },
  };
  const radio = createSimRadio({ networks: SIM_NETWORKS, apServices, logger });
  const simHostapdConfig = path.join(simDir, `waved-hostapd-${process.pid}.conf`);
  process.once('exit', () => fs.rmSync(simHostapdConfig, { force: true }));
  const bus = new StateBus();

  // The device application of Area B (cloud session, telemetry, OTA, recording, ASR, Bluetooth) on
  // simulated hardware; it brings its own reference cloud server with a firmware update to offer.
  let current: Appliance | null = null;
  let device: SimDevice | null = null;
  const screenPort =
    values['screen-port'] === undefined ? port + 1 : int(values['screen-port'], 'screen-port', 0);
  // Someone can press Install or Later (keys or the emulator page); otherwise the sim consents itself.
  const canAnswer = (process.stdin.isTTY === true && common.screen) || screenPort > 0;
  // The screens show the device application's updates and its PC Link verification page.
  const screens = createScreens({
    bus,
    language: () => current?.current().device.language ?? 'en',
    verification: {
      verify: (pin) => device?.app.verifyDevicePassword(pin) ?? { result: 0 },
      report: (outcome) => device?.app.reportUiVerification(outcome),
    },
  });
  if (!values['no-device'] && !values['no-cloud']) {
    try {
      const { createSimDevice } = await import('./domain/device/index.js');
      device = await createSimDevice({
        bus,
        settings: { current: () => (current ? current.current() : defaultSettings()) },
        dir: path.join(simDir, 'device'),
        logger,
        onOtaEvent: (event) => screens.otaEvent(event),
        ...(canAnswer ? { consent: (info) => screens.consent(info) } : {}),
        showVerificationPage: () => screens.showVerificationPage(),
        overrides: { pinAttempts },
      });
      await device.start();
    } catch (error) {
      logger.warn('device application not started:', (error as Error).message);
      device = null;
    }
  }
  if (device && !values['no-device-demo']) {
    const off = bus.on('WifiConnected', () => {
      off();
      void device?.demo().catch((error) => logger.warn('device demo failed:', (error as Error).message));
    });
  }

  let cloud: { url: string; close(): Promise<void> } | null = device
    ? { url: device.cloudUrl, close: async () => {} }
    : null;
  if (!values['no-cloud'] && !device) {
    try {
      const { createCloudServer } = await import('@waved/psp-cloud/server');
      // a loopback simulator: any device may register
      cloud = await createCloudServer({ openRegistration: true }).listen({ host: '127.0.0.1', port: 0 });
    } catch (error) {
      logger.warn('reference cloud server not started:', (error as Error).message);
    }
  }

  const page =
    screenPort > 0
      ? await serveScreenPage(createScreenPage({ screens }), screenPort).catch((error: Error) => {
          logger.warn(`screen emulator not started on port ${screenPort}: ${error.message}`);
          return null;
        })
      : null;
  const portalUrl = `http://127.0.0.1:${port}/`;
  const header = [
    `waved sim — portal: ${portalUrl}${page ? `  screen: ${page.url}` : ''}${cloud ? `  cloud: ${cloud.url}` : ''}`,
    `  (the portal is up while Set up Wi-Fi is open; try Home / "correct horse", or a wrong password)`,
  ].join('\n');
  term.header(header);
  const unsubscribe = screens.subscribe((view) => term.screen(renderTerminal(view)));
  term.screen(renderTerminal(screens.view()));

  let stdinHandler: ((d: Buffer) => void) | null = null;
  let resolveQuit: () => void = () => {};
  const quit = new Promise<void>((r) => {
    resolveQuit = r;
  });
  if (process.stdin.isTTY && common.screen) {
    process.stdin.setRawMode(true);
    stdinHandler = (d: Buffer) => {
      const key = d.toString('utf8');
      if (key === 'q' || key === '\u0003') resolveQuit();
      // A computer on the PC Link sends an empty password: the device shows its verification page.
      if (key === 'p') void device?.app.verifyDevicePassword('');
      const action = KEYS[key];
      if (action) screens.press(action);
    };
    process.stdin.on('data', stdinHandler);
  }

  const ntp = values.ntp ? /^(.*):(\d+)$/.exec(values.ntp) : null;
  const loop = runLoop(
    {
      bus,
      radio,
      station: radio,
      common,
      settingsPath,
      pinAttempts,
      // The simulator's webhook receivers run on this machine: http is allowed to loopback only.
      webhookHttp: 'loopback',
      hostapdConfigPath: simHostapdConfig,
      portal: { host: '127.0.0.1', port },
      setupUrl: portalUrl,
      gateway: `127.0.0.1:${port}`,
      ...(ntp
        ? {
            ntpPort: Number(ntp[2]),
            setClock: async (d: Date) =>
              logger.info(`sim: the device clock would be set to ${d.toISOString()}`),
          }
        : {}),
      logger: log,
      onStarted: (app) => {
        current = app;
        screens.refresh();
      },
    },
    Promise.race([stop, quit]),
  );
  if (!values['no-auto-setup']) {
    // A new device with no saved network: open Set up Wi-Fi, as a user would.
    setTimeout(() => {
      screens.press('open-wifi');
      screens.press('wifi-button');
    }, 100).unref();
  }
  process.stdout.write(`portal: ${portalUrl}\n`);
  await loop;
  unsubscribe();
  screens.close();
  if (stdinHandler) {
    process.stdin.off('data', stdinHandler);
    process.stdin.setRawMode(false);
    process.stdin.pause();
  }
  await page?.close();
  await device?.stop().catch((error) => logger.warn('device application stop:', (error as Error).message));
  await cloud?.close();
  radio.close();
  fs.rmSync(simHostapdConfig, { force: true });
}

async function start(values: ReturnType<typeof parse>['values'], common: Common, stop: Promise<void>) {
  if (process.getuid?.() !== 0) {
    process.stderr.write('waved start: must run as root (it drives wlan0, hostapd and wpa_supplicant)\n');
    process.exitCode = 2;
    return;
  }
  // The screen shows the AP passphrase: draw it only on a terminal, never into a captured stdout.
  const term = createTerminal(common.screen && process.stdout.isTTY === true);
  const log = createLogger({ level: common.logLevel, write: (l) => term.log(l) });
  const { logger } = log;
  const iface = values.iface ?? 'wlan0';
  const ctrlDir = values['ctrl-dir'] ?? '/var/run/wpa_supplicant';
  const wpaConfig = values['wpa-config'] ?? '/etc/wpa_supplicant.conf';
  const gateway = values.gateway ?? '192.168.2.1';
  const portalPort = int(values['portal-port'], 'portal-port', 80);
  const radio = createSystemRadio({
    iface,
    ctrlDir,
    wpaConfig,
    gateway,
    logger,
    ...(values['wpa-driver'] ? { wpaDriver: values['wpa-driver'] } : {}),
    ...(values['hostapd-driver'] ? { hostapdDriver: values['hostapd-driver'] } : {}),
    ...(values['run-dir'] ? { runDir: values['run-dir'] } : {}),
  });
  const hostapdConfigPath = values['hostapd-config'] ?? HOSTAPD_CONFIG_PATH;
  // Boot always returns to station mode: a hostapd and its config left by a crash or power cut go first.
  await radio.stopHostapd().catch((error) => logger.warn('could not stop a leftover hostapd:', error));
  fs.rmSync(hostapdConfigPath, { force: true });
  process.once('exit', () => fs.rmSync(hostapdConfigPath, { force: true }));
  const station = createWpaStation({
    iface,
    ctrlDir,
    configPath: wpaConfig,
    logger,
    scanWaitMs: int(values['scan-wait'], 'scan-wait', 3000),
  });
  await radio.startStation().catch((error) => logger.error('could not start wpa_supplicant:', error));
  const bus = new StateBus();
  let current: Appliance | null = null;
  const screens = createScreens({ bus, language: () => current?.current().device.language ?? 'en' });
  const unsubscribe = screens.subscribe((view) => term.screen(renderTerminal(view)));
  const setupUrl = `http://${gateway}${portalPort === 80 ? '' : `:${portalPort}`}/`;
  const settingsPath = values.config ?? '/etc/waved/config.toml';
  await runLoop(
    {
      bus,
      radio,
      station,
      common,
      settingsPath,
      pinAttempts: createAttemptLimiter({
        path: path.join(path.dirname(settingsPath), 'pin-attempts.json'),
        logger,
      }),
      webhookHttp: 'never',
      hostapdConfigPath,
      portal: { host: gateway, port: portalPort },
      setupUrl,
      gateway: portalPort === 80 ? gateway : `${gateway}:${portalPort}`,
      setClock: createRunnerClock(runCommand),
      logger: log,
      timing: { associationTimeoutMs: int(values['association-timeout'], 'association-timeout', 30_000) },
      ...(values['setup-on-start'] ? { openOnStart: true } : {}),
      onStarted: (app) => {
        current = app;
        // The screens speak the saved language from the first view after the settings load.
        screens.refresh();
      },
    },
    stop,
  );
  unsubscribe();
  screens.close();
  station.close();
}

export async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`waved: ${(error as Error).message}\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(HELP);
    if (!values.help && command === undefined) process.exitCode = 2;
    return;
  }
  let common: Common;
  try {
    common = {
      ...(values.config ? { config: values.config } : {}),
      logLevel: int(values['log-level'], 'log-level', 3),
      ...(values['exit-after'] !== undefined
        ? { exitAfter: int(values['exit-after'], 'exit-after', 0) }
        : {}),
      screen: !values['no-screen'],
    };
  } catch (error) {
    process.stderr.write(`waved: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const stop = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
    if (common.exitAfter !== undefined) setTimeout(resolve, common.exitAfter);
  });
  if (command === 'sim') await sim(values, common, stop);
  else if (command === 'start') await start(values, common, stop);
  else {
    process.stderr.write(`waved: unknown command ${JSON.stringify(command)}\n\n${HELP}`);
    process.exitCode = 2;
  }
}

/** Runs `waved` with `argv` and exits the process when it is done (1 with the stack on a failure). */
export function runMain(argv: string[]): void {
  main(argv).then(
    () => process.exit(),
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

/** A free TCP port on loopback (bind to 0, read it, release it). */
function pickFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
