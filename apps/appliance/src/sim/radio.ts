import fs from 'node:fs/promises';
import { derivePskSync } from '@waved/psk';
import type { ScannedNetwork } from '../core/bus.js';
import { type Logger, silentLogger } from '../core/log/logger.js';
import { type Clock, systemClock } from '../core/ports/clock.js';
import type { ProvisionRequest, Radio, Station, StationEvent, StationStatus } from '../core/ports/radio.js';
import { classifySignal } from '../domain/wifi/signal.js';

/** A network the simulated radio can see. */
export interface SimNetwork {
  ssid: string;
  /** null: an open network (never joined automatically, the device supports WPA2-PSK only). */
  passphrase: string | null;
  /** RSSI in dBm. */
  signal: number;
  frequency?: number;
  /** Not in scan results (needs the hidden-SSID entry of the form). */
  hidden?: boolean;
  /** false: association works but its DHCP server never answers (`no-address`). */
  dhcp?: boolean;
  /** The address its DHCP server hands out. */
  address?: string;
}

interface Profile {
  id: number;
  ssid: string;
  psk: string;
  priority: number;
  disabled: boolean;
  hidden: boolean;
}

/** Hooks for the AP's in-process DHCP and DNS servers (real servers on loopback ports in `waved sim`). */
export interface SimApServices {
  startDhcp(): Promise<void>;
  stopDhcp(): Promise<void>;
  startDns(): Promise<void>;
  stopDns(): Promise<void>;
}

export interface SimRadioOptions {
  networks?: SimNetwork[];
  mac?: string;
  /** Timers (default `systemClock`); tests pass a manual clock. */
  clock?: Clock;
  associationDelayMs?: number;
  dhcpDelayMs?: number;
  scanDelayMs?: number;
  apServices?: SimApServices;
  logger?: Logger;
}

export interface SimRadio extends Radio, Station {
  readonly mode: 'sta' | 'ap' | 'off';
  /** Saved profiles as wpa_supplicant would list them (no keys). */
  profiles(): { id: number; ssid: string; priority: number; disabled: boolean }[];
  /** Adds or replaces a network in range. A healthy connection is kept even if it has a higher priority. */
  setNetwork(network: SimNetwork): void;
  /** Takes a network out of range; a station on it drops and wpa_supplicant selects again. */
  removeNetwork(ssid: string): void;
  /** Moves the station to another in-range network without a full drop (a roam). */
  roam(ssid: string): void;
  /** Simulates wpa_supplicant dying (the Wi-Fi service's recovery restarts it). */
  crashSupplicant(): void;
  close(): void;
}

/**
 * An in-process radio for `waved sim` and tests: networks with signal levels, a wpa_supplicant-like
 * station (profiles with priorities, wrong-key and not-found events, DHCP after association) and the
 * AP steps. Deterministic: no randomness, every delay goes through the injected clock.
 */
export function createSimRadio(options: SimRadioOptions = {}): SimRadio {
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? silentLogger;
  const associationDelayMs = options.associationDelayMs ?? 600;
  const dhcpDelayMs = options.dhcpDelayMs ?? 200;
  const scanDelayMs = options.scanDelayMs ?? 400;
  const networks = new Map<string, SimNetwork>();
  for (const n of options.networks ?? []) networks.set(n.ssid, n);
  const pskCache = new Map<string, string>();
  const profiles: Profile[] = [];
  const listeners = new Set<(e: StationEvent) => void>();
  const pending = new Set<unknown>();
  let mode: 'sta' | 'ap' | 'off' = 'sta';
  let supplicant = true;
  let dhcpClient = false;
  let nextId = 0;
  let link: { ssid: string; state: 'ASSOCIATING' | 'COMPLETED'; ip: string | null } | null = null;
  const tempDisabled = new Set<string>();

  const later = (ms: number, fn: () => void) => {
    const h = clock.setTimeout(() => {
      pending.delete(h);
      fn();
    }, ms);
    pending.add(h);
  };
  /** A rescan after a scan that found no enabled profile is pending. */
  let rescanning = false;
  const cancelAll = () => {
    for (const h of pending) clock.clearTimeout(h);
    pending.clear();
    rescanning = false;
  };
  const emit = (e: StationEvent) => {
    for (const l of [...listeners]) l(e);
  };
  const networkPsk = (n: SimNetwork) => {
    if (n.passphrase === null) return null;
    const key = `${n.ssid}\0${n.passphrase}`;
    let psk = pskCache.get(key);
    if (!psk) {
      psk = derivePskSync(n.ssid, n.passphrase);
      pskCache.set(key, psk);
    }
    return psk;
  };

  const requestAddress = () => {
    if (!dhcpClient || !link || link.state !== 'COMPLETED' || link.ip) return;
    const net = networks.get(link.ssid);
    if (!net || net.dhcp === false) return;
    const ssid = link.ssid;
    later(dhcpDelayMs, () => {
      if (link && link.ssid === ssid && link.state === 'COMPLETED' && dhcpClient) {
        link.ip = net.address ?? `192.168.1.${100 + ([...networks.keys()].indexOf(ssid) % 100)}`;
      }
    });
  };

  const drop = () => {
    if (!link) return;
    link = null;
    emit({ type: 'disconnected' });
  };

  /** wpa_supplicant's own selection: enabled profiles in range, highest priority, then signal. */
  const select = () => {
    if (!supplicant || mode !== 'sta' || link) return;
    const candidates = profiles
      .filter((p) => !p.disabled && !tempDisabled.has(p.ssid))
      .map((p) => ({ p, net: networks.get(p.ssid) }))
      .filter((c): c is { p: Profile; net: SimNetwork } => c.net !== undefined && c.net.passphrase !== null)
      .sort((a, b) => b.p.priority - a.p.priority || b.net.signal - a.net.signal);
    const best = candidates[0];
    if (!best) {
      // Like wpa_supplicant: each scan that finds no enabled profile says so, and it scans again.
      if (profiles.some((p) => !p.disabled) && !rescanning) {
        rescanning = true;
        later(associationDelayMs, () => {
          rescanning = false;
          emit({ type: 'not-found' });
          select();
        });
      }
      return;
    }
    link = { ssid: best.p.ssid, state: 'ASSOCIATING', ip: null };
    const attempt = link;
    later(associationDelayMs, () => {
      if (link !== attempt) return;
      if (networkPsk(best.net) !== best.p.psk) {
        link = null;
        tempDisabled.add(best.p.ssid);
        emit({ type: 'wrong-key', ssid: best.p.ssid });
        later(associationDelayMs, select);
        return;
      }
      attempt.state = 'COMPLETED';
      emit({ type: 'connected', ssid: attempt.ssid });
      requestAddress();
    });
  };

  const requireSupplicant = () => {
    if (!supplicant) throw new Error('wpa_supplicant is not running (no control socket)');
  };

  const radio: SimRadio = {
    get mode() {
      return mode;
    },
    iface: 'sim0',
    async macAddress() {
      return options.mac ?? '02:00:00:00:5e:a1';
    },
    hostapdConfig: ({ ssid }) => `interface=sim0\ndriver=sim\nssid=${ssid}\nwpa=2\nwpa_psk=(derived)\n`,

    async stopStation() {
      supplicant = false;
      dhcpClient = false;
      drop();
      cancelAll();
    },
    async configureApAddress() {
      mode = 'off';
    },
    async startHostapd(configPath) {
      const st = await fs.stat(configPath);
      if ((st.mode & 0o077) !== 0) throw new Error(`hostapd config ${configPath} is readable by others`);
      mode = 'ap';
    },
    async startDhcpServer() {
      await options.apServices?.startDhcp();
    },
    async startDnsServer() {
      await options.apServices?.startDns();
    },
    async stopDnsServer() {
      await options.apServices?.stopDns();
    },
    async stopDhcpServer() {
      await options.apServices?.stopDhcp();
    },
    async stopHostapd() {
      mode = 'off';
    },
    async flushAddresses() {},
    async startStation() {
      if (supplicant) return;
      supplicant = true;
      mode = 'sta';
      tempDisabled.clear();
      log.debug?.('sim: wpa_supplicant started');
      select();
    },
    async startDhcpClient() {
      dhcpClient = true;
      requestAddress();
    },

    async status(): Promise<StationStatus> {
      requireSupplicant();
      if (!link) {
        return {
          state: profiles.some((p) => !p.disabled) ? 'SCANNING' : 'DISCONNECTED',
          ssid: null,
          bssid: null,
          ipv4: null,
        };
      }
      return {
        state: link.state,
        ssid: link.ssid,
        bssid: `02:00:00:00:00:${(([...networks.keys()].indexOf(link.ssid) + 1) & 0xff).toString(16).padStart(2, '0')}`,
        ipv4: link.ip,
      };
    },
    async signalPoll() {
      requireSupplicant();
      const current = link;
      if (current?.state !== 'COMPLETED') return null;
      return networks.get(current.ssid)?.signal ?? null;
    },
    async scan(): Promise<ScannedNetwork[]> {
      requireSupplicant();
      if (mode !== 'sta') throw new Error('scan needs station mode');
      await new Promise<void>((resolve) => later(scanDelayMs, resolve));
      return [...networks.values()]
        .filter((n) => !n.hidden)
        .sort((a, b) => b.signal - a.signal)
        .map((n) => ({
          ssid: n.ssid,
          ssidHex: Buffer.from(n.ssid, 'utf8').toString('hex'),
          signal: n.signal,
          signalClass: classifySignal(n.signal),
          frequency: n.frequency ?? 2437,
          secure: n.passphrase !== null,
        }));
    },
    async provision(request: ProvisionRequest) {
      requireSupplicant();
      const psk = derivePskSync(request.ssid, request.passphrase);
      const max = profiles.reduce((m, p) => Math.max(m, p.priority), 0);
      let profile = profiles.find((p) => p.ssid === request.ssid);
      if (!profile) {
        profile = {
          id: nextId++,
          ssid: request.ssid,
          psk,
          priority: 0,
          disabled: true,
          hidden: !!request.hidden,
        };
        profiles.push(profile);
      }
      profile.psk = psk;
      profile.priority = max + 1;
      profile.disabled = false;
      profile.hidden = !!request.hidden;
      tempDisabled.delete(request.ssid);
      // reassociate: drop the current link and let selection run.
      if (link) drop();
      select();
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    profiles: () => profiles.map(({ id, ssid, priority, disabled }) => ({ id, ssid, priority, disabled })),
    setNetwork(network) {
      networks.set(network.ssid, network);
      if (!link) select();
    },
    removeNetwork(ssid) {
      networks.delete(ssid);
      if (link?.ssid === ssid) {
        drop();
        later(associationDelayMs, select);
      }
    },
    roam(ssid) {
      if (!link || !networks.has(ssid)) return;
      link = { ssid, state: 'COMPLETED', ip: link.ip };
    },
    crashSupplicant() {
      supplicant = false;
      dhcpClient = false;
      link = null;
      cancelAll();
    },
    close() {
      cancelAll();
      listeners.clear();
    },
  };
  return radio;
}
