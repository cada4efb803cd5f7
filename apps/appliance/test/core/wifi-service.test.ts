import { type ManualClock, manualClock } from '@waved/test-lab';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ConnectionDetails, StateBus } from '../../src/core/bus.js';
import { createLogger } from '../../src/core/log/logger.js';
import { createWifiService, type WifiService } from '../../src/domain/wifi/service.js';
import { classifySignal } from '../../src/domain/wifi/signal.js';
import { createSimRadio, type SimRadio } from '../../src/sim/radio.js';

let clock: ManualClock;

let sim: SimRadio;
let service: WifiService;
let bus: StateBus;
let events: string[];
let details: ConnectionDetails[];
let lines: string[];

beforeEach(() => {
  clock = manualClock();
  sim = createSimRadio({
    clock,
    networks: [
      { ssid: 'Home', passphrase: 'correct horse', signal: -48 },
      { ssid: 'Office', passphrase: 'office-pass', signal: -66 },
      { ssid: 'Far', passphrase: 'far-far-away', signal: -80 },
    ],
    associationDelayMs: 300,
    dhcpDelayMs: 100,
  });
  bus = new StateBus();
  events = [];
  details = [];
  bus.on('WifiConnected', (e) => events.push(`connected:${e.ssid}`));
  bus.on('WifiDisconnected', (e) => events.push(`disconnected:${e.ssid}`));
  bus.on('ConnectionDetails', (d) => details.push(d));
  const l = createLogger({ level: 5, write: (line) => lines.push(line) });
  lines = [];
  service = createWifiService({ bus, station: sim, radio: sim, logger: l.logger, secrets: l.secrets, clock });
});
afterEach(() => {
  service.stop();
  sim.close();
});

async function advance(ms: number) {
  for (let t = 0; t < ms; t += 100) {
    await new Promise((r) => setTimeout(r, 0));
    await clock.advance(100);
  }
}

async function connectHome() {
  service.start();
  bus.send({ type: 'WifiConnect', ssid: 'Home', password: 'correct horse' });
  await advance(1000);
}

describe('Wi-Fi service', () => {
  it('publishes connection details on start and every 10 s', async () => {
    service.start();
    await advance(100);
    expect(details).toHaveLength(1);
    expect(details[0]).toEqual({ ssid: null, status: 'DISCONNECTED', signal: null, rssi: null, ipv4: null });
    await advance(30_000);
    expect(details).toHaveLength(4);
  });

  it('WifiConnect provisions the profile, then publishes name, signal class and IPv4', async () => {
    await connectHome();
    expect(sim.profiles()).toEqual([{ id: 0, ssid: 'Home', priority: 1, disabled: false }]);
    expect(events).toEqual(['connected:Home']);
    await advance(10_000);
    expect(details.at(-1)).toEqual({
      ssid: 'Home',
      status: 'COMPLETED',
      signal: 'excellent',
      rssi: -48,
      ipv4: expect.stringMatching(/^192\.168\.1\.\d+$/),
    });
    expect(lines.join('')).not.toContain('correct horse');
  });

  it('a roam emits WifiDisconnected then WifiConnected', async () => {
    await connectHome();
    sim.roam('Office');
    await advance(10_000);
    expect(events).toEqual(['connected:Home', 'disconnected:Home', 'connected:Office']);
    expect(details.at(-1)).toMatchObject({ ssid: 'Office', signal: 'fair' });
  });

  it('a drop emits WifiDisconnected once', async () => {
    await connectHome();
    sim.removeNetwork('Home');
    await advance(20_000);
    expect(events).toEqual(['connected:Home', 'disconnected:Home']);
  });

  it('restarts a dead wpa_supplicant at the next poll and reconnects, and a second recovery is harmless', async () => {
    await connectHome();
    const startStation = vi.spyOn(sim, 'startStation');
    sim.crashSupplicant();
    await advance(10_000);
    expect(startStation).toHaveBeenCalledTimes(1);
    expect(details.some((d) => d.status === 'UNAVAILABLE')).toBe(true);
    await sim.startStation(); // idempotent: already running, nothing changes
    await advance(10_000);
    expect(events).toEqual(['connected:Home', 'disconnected:Home', 'connected:Home']);
    expect(details.at(-1)).toMatchObject({ ssid: 'Home', status: 'COMPLETED' });
  });

  it('keeps a healthy connection when a higher-priority saved network appears, and never scans', async () => {
    sim.removeNetwork('Office');
    await connectHome();
    bus.send({ type: 'WifiConnect', ssid: 'Office', password: 'office-pass' });
    await advance(2000);
    // Office is saved with the higher priority but out of range: wpa_supplicant falls back to Home
    expect(sim.profiles().find((p) => p.ssid === 'Office')?.priority).toBe(2);
    expect((await sim.status()).ssid).toBe('Home');
    const scan = vi.spyOn(sim, 'scan');
    const provision = vi.spyOn(sim, 'provision');
    sim.setNetwork({ ssid: 'Office', passphrase: 'office-pass', signal: -40 });
    await advance(60_000);
    expect((await sim.status()).ssid).toBe('Home');
    expect(details.at(-1)?.ssid).toBe('Home');
    expect(scan).not.toHaveBeenCalled();
    expect(provision).not.toHaveBeenCalled();
  });

  it('starts the DHCP client only after association', async () => {
    const dhcp = vi.spyOn(sim, 'startDhcpClient');
    service.start();
    await advance(20_000);
    expect(dhcp).not.toHaveBeenCalled();
    bus.send({ type: 'WifiConnect', ssid: 'Home', password: 'correct horse' });
    await advance(1000);
    expect(dhcp).toHaveBeenCalled();
  });

  it('does nothing while paused (the radio is an AP) and reports the drop', async () => {
    await connectHome();
    const status = vi.spyOn(sim, 'status');
    service.pause();
    expect(events.at(-1)).toBe('disconnected:Home');
    await advance(30_000);
    expect(status).not.toHaveBeenCalled();
    service.resume();
    await advance(100);
    expect(status).toHaveBeenCalled();
    expect(events.at(-1)).toBe('connected:Home');
  });
});

describe('classifySignal (the signal thresholds)', () => {
  it.each([
    [-30, 'excellent'],
    [-50, 'excellent'],
    [-51, 'good'],
    [-60, 'good'],
    [-61, 'fair'],
    [-70, 'fair'],
    [-71, 'weak'],
    [-95, 'weak'],
  ] as const)('%d dBm is %s', (rssi, cls) => {
    expect(classifySignal(rssi)).toBe(cls);
  });
});
