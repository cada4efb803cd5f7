import fs from 'node:fs/promises';
import path from 'node:path';
import type { DhcpServer, LeaseStore } from '@waved/dhcp-server';
import { ApplianceError } from '../../core/errors.js';
import { type Logger, scopedLogger, silentLogger } from '../../core/log/logger.js';
import type { Radio } from '../../core/ports/radio.js';
import {
  AP_DHCP_RANGE,
  AP_GATEWAY,
  AP_LEASE_SECONDS,
  AP_NETMASK,
  AP_PREFIX,
  formatHostapdConfig,
} from '../../domain/provisioning/ap.js';
import { captiveDnsThreadEntry, startCaptiveDnsThread } from './dns-thread.js';
import { COMMAND_TIMEOUT_MS, type CommandRunner, runChecked, runCommand } from './runner.js';
import { findStrays, stopProcesses } from './strays.js';

export interface SystemRadioOptions {
  run?: CommandRunner;
  /** Default `wlan0`; the namespace lab passes a veth. */
  iface?: string;
  /** wpa_supplicant `-D` (default `nl80211`; `wired` in the lab). */
  wpaDriver?: string;
  /** hostapd `driver=` (default `nl80211`; `wired` in the lab). */
  hostapdDriver?: string;
  /** Default `/etc/wpa_supplicant.conf`. */
  wpaConfig?: string;
  /** wpa_supplicant's control directory (default `/var/run/wpa_supplicant`). */
  ctrlDir?: string;
  /** Where the pid files of wpa_supplicant, udhcpc and hostapd go (default `/run/waved`). */
  runDir?: string;
  /** udhcpc `-s` script (default: udhcpc's own). */
  udhcpcScript?: string | undefined;
  /**
   * Upper bound of each command (default 10 s). The device passes its radio step limit, so on a slow
   * device no command is killed before its step runs out: udhcpc killed in the middle of its script
   * leaves an address without a default route.
   */
  commandTimeoutMs?: number;
  gateway?: string;
  /** Binaries (default from PATH). */
  bins?: Partial<Record<'ip' | 'hostapd' | 'wpa_supplicant' | 'wpa_cli' | 'udhcpc' | 'sh', string>>;
  /** Bind the DHCP socket to the interface (SO_BINDTOIFINDEX; default true, as on the device). */
  bindDhcpToInterface?: boolean;
  /** UDP ports of the in-process servers (default 67 and 53). */
  dhcpPort?: number;
  /**
   * The setup network's lease table (`createFileLeaseStore`): a restart after a power cut never
   * hands out an address a phone still holds. Without it the leases live in memory only.
   */
  dhcpLeaseFile?: string;
  dnsPort?: number;
  /** The MAC for `Device-XXXX` (default: /sys/class/net/<iface>/address). */
  macAddress?: () => Promise<string>;
  /** The Wi-Fi country for hostapd's `country_code` (default: none, the world domain). */
  country?: () => string;
  logger?: Logger;
}

/** The system radio, plus what start-up and crash recovery need beyond the `Radio` port. */
export interface SystemRadio extends Radio {
  /** PIDs of the daemons this radio started (from its pid files). */
  ownPids(): Promise<Set<number>>;
  /** Stops a DHCP client or wpa_supplicant on the interface that waved did not start; returns what it stopped. */
  stopStrays(): Promise<string[]>;
  /** Removes the AP address a crash left on the interface (station addresses are kept). */
  removeApAddress(): Promise<boolean>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The real `Radio`: ip, hostapd, wpa_supplicant and udhcpc through the command runner (10 s each by
 * default, `commandTimeoutMs`), and
 * the in-process DHCP (@waved/dhcp-server) and captive DNS (@waved/captive-dns) servers.
 */
export function createSystemRadio(options: SystemRadioOptions = {}): SystemRadio {
  const run = options.run ?? runCommand;
  const commandTimeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  const log = options.logger ?? silentLogger;
  const iface = options.iface ?? 'wlan0';
  const runDir = options.runDir ?? '/run/waved';
  const ctrlDir = options.ctrlDir ?? '/var/run/wpa_supplicant';
  const wpaConfig = options.wpaConfig ?? '/etc/wpa_supplicant.conf';
  const gateway = options.gateway ?? AP_GATEWAY;
  const bin = (name: keyof NonNullable<SystemRadioOptions['bins']>) => options.bins?.[name] ?? name;
  const pidFile = (name: string) => path.join(runDir, `${name}-${iface}.pid`);
  let dhcp: DhcpServer | null = null;
  let dns: { close(): Promise<void> } | null = null;

  const readPid = async (name: string): Promise<number | null> => {
    try {
      const pid = Number.parseInt((await fs.readFile(pidFile(name), 'utf8')).trim(), 10);
      return Number.isInteger(pid) && pid > 1 ? pid : null;
    } catch {
      return null;
    }
  };

  /** SIGTERM by pid file, SIGKILL after 3 s; the pid file is removed. */
  const stopByPidFile = async (name: string): Promise<boolean> => {
    const pid = await readPid(name);
    await fs.rm(pidFile(name), { force: true });
    if (pid === null || !alive(pid)) return false;
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 60 && alive(pid); i++) await sleep(50);
    if (alive(pid)) process.kill(pid, 'SIGKILL');
    return true;
  };

  const runningByPidFile = async (name: string) => {
    const pid = await readPid(name);
    return pid !== null && alive(pid);
  };

  const ip = (...args: string[]) => runChecked(run, bin('ip'), args, commandTimeoutMs);

  const ownPids = async () => {
    const pids = new Set<number>();
    for (const name of ['wpa_supplicant', 'udhcpc', 'hostapd']) {
      const pid = await readPid(name);
      if (pid !== null) pids.add(pid);
    }
    return pids;
  };

  const stopStrays = async () => {
    const strays = await findStrays(iface, await ownPids());
    if (strays.length === 0) return [];
    for (const s of strays)
      log.warn?.(`stopping ${s.program} (pid ${s.pid}) on ${iface}: waved runs the station itself`);
    await stopProcesses(strays.map((s) => s.pid));
    return strays.map((s) => `${s.program} (pid ${s.pid})`);
  };

  return {
    iface,
    ownPids,
    stopStrays,
    async removeApAddress() {
      const r = await run(bin('ip'), ['-4', '-o', 'addr', 'show', 'dev', iface], {
        timeoutMs: commandTimeoutMs,
      });
      if (!r.stdout.includes(` ${gateway}/${AP_PREFIX} `)) return false;
      await ip('addr', 'del', `${gateway}/${AP_PREFIX}`, 'dev', iface);
      return true;
    },
    async macAddress() {
      if (options.macAddress) return options.macAddress();
      return (await fs.readFile(`/sys/class/net/${iface}/address`, 'utf8')).trim();
    },
    hostapdConfig: ({ ssid, psk }) =>
      formatHostapdConfig({
        iface,
        driver: options.hostapdDriver ?? 'nl80211',
        ssid,
        psk,
        ...(options.country ? { country: options.country() } : {}),
      }),

    async stopStation() {
      await stopByPidFile('udhcpc');
      // A DHCP client the OS started would deconfigure the AP address in the middle of a session.
      await stopStrays();
      if (!(await stopByPidFile('wpa_supplicant'))) {
        // Started by someone else (init): ask it to terminate over its control socket.
        const r = await run(bin('wpa_cli'), ['-i', iface, '-p', ctrlDir, 'terminate'], {
          timeoutMs: commandTimeoutMs,
        });
        if (r.timedOut)
          throw new ApplianceError('APPLIANCE_COMMAND_TIMEOUT', 'wpa_cli terminate hung and was killed');
      }
    },
    async configureApAddress() {
      await ip('addr', 'flush', 'dev', iface);
      await ip('link', 'set', iface, 'up');
      await ip('addr', 'add', `${gateway}/${AP_PREFIX}`, 'dev', iface);
    },
    async startHostapd(configPath) {
      await fs.mkdir(runDir, { recursive: true, mode: 0o700 });
      await runChecked(run, bin('hostapd'), ['-B', '-P', pidFile('hostapd'), configPath], commandTimeoutMs);
    },
    async startDhcpServer() {
      // the setup network's servers are loaded when it first comes up
      const { createDhcpServer, createFileLeaseStore } = await import('@waved/dhcp-server');
      const leaseFile = options.dhcpLeaseFile;
      let store: LeaseStore | undefined;
      if (leaseFile) {
        const file = createFileLeaseStore(leaseFile);
        store = {
          save: (leases) => file.save(leases),
          // the setup network comes up even when the table cannot be read (it is rewritten at the first lease)
          load: async () => {
            try {
              await fs.mkdir(path.dirname(leaseFile), { recursive: true, mode: 0o700 });
              return await file.load();
            } catch (error) {
              log.warn?.(`DHCP leases not restored: ${(error as Error).message}`);
              return [];
            }
          },
        };
      }
      const server = createDhcpServer({
        ...(store ? { store } : {}),
        serverAddress: gateway,
        netmask: AP_NETMASK,
        range: gateway === AP_GATEWAY ? AP_DHCP_RANGE : rangeFor(gateway),
        leaseSeconds: AP_LEASE_SECONDS,
        router: gateway,
        dns: gateway,
        captivePortalUri: `http://${gateway}/`,
        ...(options.bindDhcpToInterface === false ? { listenAddress: gateway } : { interface: iface }),
        port: options.dhcpPort ?? 67,
        logger: scopedLogger(log, null, { info: 'debug' }),
      });
      await server.listen();
      dhcp = server;
    },
    async startDnsServer() {
      const dnsOptions = { answer: gateway, address: gateway, port: options.dnsPort ?? 53, logger: log };
      // On a thread of its own, so that no portal work delays an answer (dns-thread.ts).
      const entry = captiveDnsThreadEntry();
      if (entry) {
        dns = await startCaptiveDnsThread({ ...dnsOptions, entry });
        return;
      }
      log.warn?.('captive DNS runs on the main thread: there is no dns-thread.js beside the appliance code');
      const { createCaptiveDns } = await import('@waved/captive-dns');
      const server = createCaptiveDns(dnsOptions);
      await server.listen();
      dns = server;
    },
    async stopDnsServer() {
      const s = dns;
      dns = null;
      await s?.close();
    },
    async stopDhcpServer() {
      const s = dhcp;
      dhcp = null;
      await s?.close();
    },
    async stopHostapd() {
      await stopByPidFile('hostapd');
    },
    async flushAddresses() {
      await ip('addr', 'flush', 'dev', iface);
    },
    async startStation() {
      if (await runningByPidFile('wpa_supplicant')) return;
      const ping = await run(bin('wpa_cli'), ['-i', iface, '-p', ctrlDir, 'ping'], {
        timeoutMs: commandTimeoutMs,
      });
      if (ping.code === 0 && ping.stdout.includes('PONG')) {
        // Started by someone else (init): its umask decides the mode save_config gives the file.
        const mask = await supplicantUmask(iface);
        if (mask !== null && (mask & 0o077) !== 0o077) {
          log.warn?.(
            `wpa_supplicant on ${iface} runs with umask ${mask.toString(8).padStart(4, '0')}: each save_config leaves ${wpaConfig} readable by others until it is set back to 0600. Start it with umask 077 (systemd: UMask=0077).`,
          );
        }
        return;
      }
      await fs.mkdir(runDir, { recursive: true, mode: 0o700 });
      // umask 077: save_config rewrites the file with the daemon's umask (lab.md §1).
      await runChecked(
        run,
        bin('sh'),
        [
          '-c',
          'umask 077 && exec "$@"',
          'sh',
          bin('wpa_supplicant'),
          '-B',
          '-D',
          options.wpaDriver ?? 'nl80211',
          '-i',
          iface,
          '-c',
          wpaConfig,
          '-P',
          pidFile('wpa_supplicant'),
        ],
        commandTimeoutMs,
      );
    },
    async startDhcpClient() {
      if (await runningByPidFile('udhcpc')) return;
      await fs.mkdir(runDir, { recursive: true, mode: 0o700 });
      const args = ['-i', iface, '-b', '-t', '3', '-T', '2', '-p', pidFile('udhcpc')];
      if (options.udhcpcScript) args.push('-s', options.udhcpcScript);
      await runChecked(run, bin('udhcpc'), args, commandTimeoutMs);
    },
  };
}

/**
 * The umask of the wpa_supplicant that serves `iface` (from /proc/<pid>/status), or null when it
 * cannot be told (no /proc, no such process, a kernel before 4.7).
 */
export async function supplicantUmask(iface: string, proc = '/proc'): Promise<number | null> {
  let entries: string[];
  try {
    entries = await fs.readdir(proc);
  } catch {
    return null;
  }
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if ((await fs.readFile(path.join(proc, pid, 'comm'), 'utf8')).trim() !== 'wpa_supplicant') continue;
      const argv = (await fs.readFile(path.join(proc, pid, 'cmdline'), 'utf8')).split('\0');
      const serves = argv.some((a, i) => a === `-i${iface}` || (a === '-i' && argv[i + 1] === iface));
      if (!serves) continue;
      const status = await fs.readFile(path.join(proc, pid, 'status'), 'utf8');
      const m = /^Umask:\s+([0-7]+)$/m.exec(status);
      return m ? Number.parseInt(m[1]!, 8) : null;
    } catch {
      // the process went away meanwhile
    }
  }
  return null;
}

/** A .50-.200 pool in the gateway's /24 (for labs that use another subnet). */
function rangeFor(gateway: string): { start: string; end: string } {
  const base = gateway.split('.').slice(0, 3).join('.');
  return { start: `${base}.50`, end: `${base}.200` };
}
