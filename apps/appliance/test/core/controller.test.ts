import fs from 'node:fs';
import { manualClock, tempDir } from '@waved/test-lab';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFileStore } from '../../src/adapters/system/files.js';
import { type ProvisioningState, StateBus } from '../../src/core/bus.js';
import { createLogger } from '../../src/core/log/logger.js';
import type { StationEvent } from '../../src/core/ports/radio.js';
import { createProvisioningController, type PortalHandle } from '../../src/domain/provisioning/controller.js';
import { createSimRadio, type SimNetwork, type SimRadio } from '../../src/sim/radio.js';

type Fault = 'throw' | 'hang' | Error;

const NETWORKS: SimNetwork[] = [
  { ssid: 'Home', passphrase: 'correct horse', signal: -48 },
  { ssid: 'Cafe', passphrase: 'espresso42', signal: -67 },
  { ssid: 'NoDhcp', passphrase: 'password1', signal: -55, dhcp: false },
  { ssid: 'Hidden', passphrase: 'secret-net', signal: -60, hidden: true },
];

const RADIO_METHODS = [
  'scan',
  'stopStation',
  'configureApAddress',
  'startHostapd',
  'startDhcpServer',
  'startDnsServer',
  'stopDnsServer',
  'stopDhcpServer',
  'stopHostapd',
  'flushAddresses',
  'startStation',
  'startDhcpClient',
  'provision',
] as const;

/** A sim radio wrapped so every step is recorded and any step can fail or hang. */
function fakeRadio(sim: SimRadio, calls: string[], faults: Map<string, Fault>, configPath: string) {
  const wrapped = Object.create(sim) as SimRadio;
  for (const name of RADIO_METHODS) {
    const original = (sim[name] as (...a: unknown[]) => Promise<unknown>).bind(sim);
    (wrapped as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      calls.push(
        name === 'startHostapd'
          ? `startHostapd(${fs.existsSync(configPath) ? 'config' : 'NO CONFIG'})`
          : name,
      );
      const fault = faults.get(name);
      if (fault === 'hang') return new Promise(() => {});
      if (fault === 'throw') throw new Error(`${name} failed`);
      if (fault instanceof Error) throw fault;
      return original(...args);
    };
  }
  return wrapped;
}

function setup(opts: { faults?: [string, Fault][]; portalFails?: boolean } = {}) {
  const dir = tempDir('waved-ctl-');
  const configPath = dir.join('waved-hostapd.conf');
  const bus = new StateBus();
  const states: ProvisioningState[] = [];
  bus.on('ProvisioningState', (s) => states.push(s));
  const calls: string[] = [];
  const faults = new Map<string, Fault>(opts.faults ?? []);
  const clock = manualClock();
  const sim = createSimRadio({
    clock,
    networks: NETWORKS,
    mac: '02:11:22:33:5e:a1',
    associationDelayMs: 500,
    dhcpDelayMs: 200,
  });
  const radio = fakeRadio(sim, calls, faults, configPath);
  // Station events the test adds to the sim's own (wpa_supplicant's unsolicited messages).
  const listeners = new Set<(e: StationEvent) => void>();
  radio.onEvent = (fn) => {
    listeners.add(fn);
    const off = sim.onEvent(fn);
    return () => {
      listeners.delete(fn);
      off();
    };
  };
  const stationEvent = (e: StationEvent) => {
    for (const fn of [...listeners]) fn(e);
  };
  const lines: string[] = [];
  const { logger, secrets } = createLogger({ level: 5, write: (l) => lines.push(l) });
  // like the CLI: every state is logged (the redacting reporter must mask the AP passphrase)
  bus.on('ProvisioningState', (s) => logger.info('provisioning state', s));
  const wifi = {
    paused: false,
    pause: vi.fn(() => (wifi.paused = true)),
    resume: vi.fn(() => (wifi.paused = false)),
  };
  const restarts: unknown[] = [];
  let portalOpen = 0;
  const controller = createProvisioningController({
    files: createFileStore(),
    bus,
    radio,
    station: radio,
    wifi,
    hostapdConfigPath: configPath,
    derivePsk: async () => 'ab'.repeat(32),
    logger,
    secrets,
    clock,
    finishDelayMs: 100,
    startPortal: async (): Promise<PortalHandle> => {
      calls.push('startPortal');
      if (opts.portalFails) throw new Error('EADDRINUSE 0.0.0.0:80');
      portalOpen++;
      return {
        url: 'http://127.0.0.1:1/',
        close: async () => {
          calls.push('closePortal');
          portalOpen--;
        },
      };
    },
    onRestart: (info) => {
      restarts.push(info);
    },
  });
  controller.start();
  return {
    clock,
    bus,
    states,
    calls,
    faults,
    sim,
    controller,
    configPath,
    lines,
    wifi,
    restarts,
    stationEvent,
    portalOpen: () => portalOpen,
    dir,
    last: () => states.at(-1)!,
    names: () => states.map((s) => s.state),
  };
}

/** Advances fake time in small steps until the predicate holds (or fails after `maxMs`). */
async function until(pred: () => boolean, maxMs = 60_000) {
  for (let t = 0; t <= maxMs; t += 50) {
    if (pred()) return;
    // real I/O (the hostapd config file) completes outside the manual clock
    await new Promise((r) => setTimeout(r, 0));
    await ctx.clock.advance(50);
  }
  throw new Error(
    `condition not reached; states: ${JSON.stringify(ctx?.names())} calls: ${ctx?.calls.join(',')}`,
  );
}

const AP_UP = [
  'stopStation',
  'configureApAddress',
  'startHostapd(config)',
  'startDhcpServer',
  'startDnsServer',
  'startPortal',
];
const AP_DOWN = [
  'closePortal',
  'stopDnsServer',
  'stopDhcpServer',
  'stopHostapd',
  'flushAddresses',
  'startStation',
];

let ctx: ReturnType<typeof setup>;
afterEach(async () => {
  ctx?.sim.close();
  ctx?.dir.remove();
});

async function openAp(c = ctx) {
  c.bus.send({ type: 'OpenWifiProvisioning' });
  await until(() => c.last().state === 'ApActive' || c.last().state === 'Failed');
}

/** The portal form submitted for a network. */
function submit(ssid: string, passphrase: string, hidden = false) {
  ctx.bus.send({
    type: 'SettingsSaved',
    connect: { ssid, ssidHex: Buffer.from(ssid, 'utf8').toString('hex'), passphrase, hidden },
  });
}

describe('session start', () => {
  it('scans in STA mode first, then brings the AP up in the spec order and shows Device-XXXX', async () => {
    ctx = setup();
    await openAp();
    expect(ctx.names()).toEqual(['Idle', 'Scanning', 'ApActive']);
    expect(ctx.calls).toEqual(['scan', ...AP_UP]);
    const ap = ctx.last();
    expect(ap).toMatchObject({ state: 'ApActive', ssid: 'Device-5EA1', url: 'http://192.168.2.1/' });
    expect(ap.state === 'ApActive' && ap.passphrase).toMatch(/^[0-9a-f]{8}$/);
    expect(fs.statSync(ctx.configPath).mode & 0o777).toBe(0o600);
    const session = ctx.controller.session()!;
    expect(session.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.apSsid).toBe('Device-5EA1');
    // the cached list: visible networks only, strongest first, with their class
    expect(session.networks.map((n) => [n.ssid, n.signalClass])).toEqual([
      ['Home', 'excellent'],
      ['NoDhcp', 'good'],
      ['Cafe', 'fair'],
    ]);
    expect(ctx.wifi.pause).toHaveBeenCalled();
    expect(ctx.sim.mode).toBe('ap');
  });

  it('uses a fresh passphrase and CSRF token for every session', async () => {
    ctx = setup();
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      await openAp();
      const ap = ctx.last();
      if (ap.state !== 'ApActive') throw new Error('no AP');
      seen.add(ap.passphrase);
      seen.add(ctx.controller.session()!.csrf);
      ctx.bus.send({ type: 'CancelProvisioning' });
      await until(() => ctx.last().state === 'Idle');
    }
    expect(seen.size).toBe(6);
  });

  it('ignores a second open while the AP is up', async () => {
    ctx = setup();
    await openAp();
    const n = ctx.calls.length;
    ctx.bus.send({ type: 'OpenWifiProvisioning' });
    await ctx.clock.advance(1000);
    expect(ctx.calls.length).toBe(n);
    expect(ctx.last().state).toBe('ApActive');
  });
});

describe('leaving the session', () => {
  it('cancel tears the AP down in the spec order, removes the config and restores STA', async () => {
    ctx = setup();
    await openAp();
    ctx.calls.length = 0;
    ctx.bus.send({ type: 'CancelProvisioning' });
    await until(() => ctx.last().state === 'Idle');
    expect(ctx.calls).toEqual(AP_DOWN);
    expect(fs.existsSync(ctx.configPath)).toBe(false);
    expect(ctx.sim.mode).toBe('sta');
    expect(ctx.wifi.paused).toBe(false);
    expect(ctx.controller.session()).toBeNull();
    expect(ctx.portalOpen()).toBe(0);
  });

  it('returns to STA after 300 s and not before', async () => {
    ctx = setup();
    await openAp();
    const opened = ctx.clock.now();
    await ctx.clock.advance(300_000 - (ctx.clock.now() - opened) - 100);
    expect(ctx.last().state).toBe('ApActive');
    await until(() => ctx.last().state === 'Idle', 1000);
    expect(ctx.calls.slice(-AP_DOWN.length)).toEqual(AP_DOWN);
    expect(fs.existsSync(ctx.configPath)).toBe(false);
  });

  it('cancel during the scan returns to Idle without bringing the AP up', async () => {
    ctx = setup({ faults: [['scan', 'hang']] });
    ctx.bus.send({ type: 'OpenWifiProvisioning' });
    await until(() => ctx.last().state === 'Scanning');
    ctx.bus.send({ type: 'CancelProvisioning' });
    await until(() => ctx.last().state === 'Idle', 20_000);
    expect(ctx.calls).not.toContain('startHostapd(config)');
    expect(fs.existsSync(ctx.configPath)).toBe(false);
    expect(ctx.wifi.paused).toBe(false);
  });
});

describe('saving and connecting', () => {
  it('a valid save tears down, provisions, starts udhcpc after association and ends Connected', async () => {
    ctx = setup();
    await openAp();
    ctx.calls.length = 0;
    submit('Home', 'correct horse');
    await until(() => ctx.last().state === 'Connected');
    expect(ctx.names().slice(-2)).toEqual(['Connecting', 'Connected']);
    expect(ctx.states.at(-2)).toEqual({ state: 'Connecting', ssid: 'Home' });
    expect(ctx.last()).toEqual({ state: 'Connected', ssid: 'Home' });
    expect(ctx.calls).toEqual([...AP_DOWN, 'provision', 'startDhcpClient']);
    expect(fs.existsSync(ctx.configPath)).toBe(false);
    expect(ctx.sim.profiles()).toEqual([{ id: 0, ssid: 'Home', priority: 1, disabled: false }]);
    expect(await ctx.sim.status()).toMatchObject({
      state: 'COMPLETED',
      ssid: 'Home',
      ipv4: expect.any(String),
    });
    await ctx.clock.advance(10);
    expect(ctx.restarts).toEqual([{ pendingWebhookTest: true, connected: true }]);
    expect(ctx.controller.session()).toBeNull();
  });

  it('a hidden network is provisioned from the manual entry', async () => {
    ctx = setup();
    await openAp();
    submit('Hidden', 'secret-net', true);
    await until(() => ctx.last().state === 'Connected');
    expect(ctx.last()).toEqual({ state: 'Connected', ssid: 'Hidden' });
  });

  it('a wrong password gives Failed{wrong-password} with the AP and the same session back; Try again works', async () => {
    ctx = setup();
    await openAp();
    const first = ctx.last();
    const csrf = ctx.controller.session()!.csrf;
    submit('Home', 'wrong horse');
    await until(() => ctx.last().state === 'Failed');
    expect(ctx.last()).toMatchObject({ state: 'Failed', reason: 'wrong-password' });
    expect(ctx.sim.mode).toBe('ap');
    expect(ctx.controller.session()!.csrf).toBe(csrf);
    ctx.bus.send({ type: 'OpenWifiProvisioning' });
    await until(() => ctx.last().state === 'ApActive');
    expect(ctx.last()).toEqual(first);
    submit('Home', 'correct horse');
    await until(() => ctx.last().state === 'Connected');
    expect(ctx.sim.profiles()).toHaveLength(1);
  });

  it('the form can be resubmitted straight from Failed', async () => {
    ctx = setup();
    await openAp();
    submit('Home', 'wrong horse');
    await until(() => ctx.last().state === 'Failed');
    submit('Home', 'correct horse');
    await until(() => ctx.last().state === 'Connected');
  });

  it('a network out of range gives Failed{network-not-found}', async () => {
    ctx = setup();
    await openAp();
    submit('Elsewhere', 'whatever1', true);
    await until(() => ctx.last().state === 'Failed');
    expect(ctx.last()).toMatchObject({ reason: 'network-not-found' });
    expect(fs.existsSync(ctx.configPath)).toBe(true);
  });

  it('one scan that misses the network does not fail the join; the network is joined', async () => {
    ctx = setup();
    await openAp();
    submit('Home', 'correct horse');
    await until(() => ctx.last().state === 'Connecting');
    // wpa_supplicant's first scan after the AP comes down misses the network, the next finds it.
    await until(() => ctx.calls.includes('provision'));
    ctx.stationEvent({ type: 'not-found' });
    await until(() => ctx.last().state !== 'Connecting');
    expect(ctx.last()).toMatchObject({ state: 'Connected', ssid: 'Home' });
  });

  it('no DHCP lease gives Failed{no-address}', async () => {
    ctx = setup();
    await openAp();
    submit('NoDhcp', 'password1');
    await until(() => ctx.last().state === 'Failed');
    expect(ctx.last()).toMatchObject({ reason: 'no-address' });
  });

  it('30 s without association gives Failed{association-timeout}', async () => {
    ctx = setup();
    await openAp();
    ctx.sim.setNetwork({ ssid: 'Slow', passphrase: 'password1', signal: -50 });
    // a radio that never completes association: wpa_supplicant stays ASSOCIATING
    ctx.faults.set('startDhcpClient', 'throw');
    const status = ctx.sim.status.bind(ctx.sim);
    ctx.sim.status = async () => ({ ...(await status()), state: 'ASSOCIATING' });
    ctx.sim.onEvent = () => () => {};
    const started = ctx.clock.now();
    submit('Slow', 'password1');
    await until(() => ctx.last().state === 'Failed', 40_000);
    expect(ctx.last()).toMatchObject({ reason: 'association-timeout' });
    expect(ctx.clock.now() - started).toBeGreaterThanOrEqual(30_000);
  });

  it('the session timeout during Connecting ends in Idle with STA, not in Failed', async () => {
    ctx = setup();
    await openAp();
    const status = ctx.sim.status.bind(ctx.sim);
    ctx.sim.status = async () => ({ ...(await status()), state: 'ASSOCIATING' });
    ctx.sim.onEvent = () => () => {};
    await ctx.clock.advance(290_000);
    submit('Home', 'correct horse');
    await until(() => ctx.last().state === 'Idle', 40_000);
    expect(ctx.names()).not.toContain('Failed');
    expect(ctx.sim.mode).toBe('sta');
    expect(fs.existsSync(ctx.configPath)).toBe(false);
  });

  it('/save without a network reconnects the saved profile the device left', async () => {
    ctx = setup();
    await ctx.sim.provision({ ssid: 'Office', passphrase: 'espresso42' });
    ctx.sim.setNetwork({ ssid: 'Office', passphrase: 'espresso42', signal: -58 });
    await ctx.clock.advance(2000);
    expect((await ctx.sim.status()).ssid).toBe('Office');
    ctx.bus.publish('ConnectionDetails', {
      ssid: 'Office',
      status: 'COMPLETED',
      signal: 'good',
      rssi: -58,
      ipv4: null,
    });
    await openAp();
    ctx.bus.send({ type: 'SettingsSaved' });
    await until(() => ctx.last().state === 'Connected');
    expect(ctx.states.at(-2)).toEqual({ state: 'Connecting', ssid: 'Office' });
    expect(ctx.last()).toEqual({ state: 'Connected', ssid: 'Office' });
    expect(ctx.calls).not.toContain('provision');
  });

  it('SettingsSaved outside a session is ignored', async () => {
    ctx = setup();
    submit('Home', 'correct horse');
    await ctx.clock.advance(5000);
    expect(ctx.names()).toEqual(['Idle']);
    expect(ctx.calls).toEqual([]);
  });
});

describe('a fault at each AP step', () => {
  const steps: [string, Fault, string][] = [
    ['stopStation', 'hang', 'wpa_cli hangs while stopping the station'],
    ['configureApAddress', 'throw', 'ip fails'],
    ['startHostapd', new Error('hostapd: Line 7: invalid WPA passphrase length'), 'hostapd fails'],
    [
      'startDhcpServer',
      Object.assign(new Error('bind EADDRINUSE 0.0.0.0:67'), { code: 'EADDRINUSE' }),
      'port 67 in use',
    ],
    [
      'startDnsServer',
      Object.assign(new Error('bind EADDRINUSE 0.0.0.0:53'), { code: 'EADDRINUSE' }),
      'port 53 in use',
    ],
    ['startDnsServer', 'hang', 'the DNS server never binds'],
  ];
  it.each(steps)('%s (%s: %s): Failed{ap-failed}, config removed, STA restored', async (name, fault) => {
    ctx = setup({ faults: [[name, fault]] });
    ctx.bus.send({ type: 'OpenWifiProvisioning' });
    await until(() => ctx.last().state === 'Failed', 40_000);
    expect(ctx.last()).toMatchObject({ state: 'Failed', reason: 'ap-failed' });
    // the message names the step, never the program's output
    const failed = ctx.last();
    expect(failed.state === 'Failed' && failed.message).toMatch(
      /\((stop station|configure AP address|start hostapd|start DHCP server|start DNS server) failed\)$/,
    );
    expect(JSON.stringify(failed)).not.toContain('Line 7');
    expect(fs.existsSync(ctx.configPath)).toBe(false);
    expect(ctx.calls.at(-1)).toBe('startStation');
    expect(ctx.sim.mode).toBe('sta');
    expect(ctx.wifi.paused).toBe(false);
    expect(ctx.controller.session()).toBeNull();
    // Try again starts a new session, which works once the fault is gone
    ctx.faults.clear();
    ctx.bus.send({ type: 'OpenWifiProvisioning' });
    await until(() => ctx.last().state === 'ApActive');
  });

  it('the portal failing to bind also tears everything down', async () => {
    ctx = setup({ portalFails: true });
    ctx.bus.send({ type: 'OpenWifiProvisioning' });
    await until(() => ctx.last().state === 'Failed');
    expect(ctx.calls).toEqual([
      'scan',
      ...AP_UP,
      'stopDnsServer',
      'stopDhcpServer',
      'stopHostapd',
      'flushAddresses',
      'startStation',
    ]);
    expect(fs.existsSync(ctx.configPath)).toBe(false);
  });

  it('a teardown step failing does not stop the others', async () => {
    ctx = setup({
      faults: [
        ['stopHostapd', 'throw'],
        ['stopDnsServer', 'hang'],
      ],
    });
    await openAp();
    ctx.bus.send({ type: 'CancelProvisioning' });
    await until(() => ctx.last().state === 'Idle', 40_000);
    expect(ctx.calls.slice(-AP_DOWN.length)).toEqual(AP_DOWN);
    expect(fs.existsSync(ctx.configPath)).toBe(false);
  });
});

describe('secrets', () => {
  it('neither the AP passphrase, the CSRF token nor the submitted passphrase reaches the log', async () => {
    ctx = setup();
    await openAp();
    const ap = ctx.last();
    if (ap.state !== 'ApActive') throw new Error('no AP');
    const csrf = ctx.controller.session()!.csrf;
    submit('Home', 'wrong horse');
    await until(() => ctx.last().state === 'Failed');
    submit('Home', 'correct horse');
    await until(() => ctx.last().state === 'Connected');
    const text = ctx.lines.join('');
    expect(ctx.lines.length).toBeGreaterThan(10);
    for (const secret of [ap.passphrase, csrf, 'wrong horse', 'correct horse'])
      expect(text).not.toContain(secret);
  });
});
