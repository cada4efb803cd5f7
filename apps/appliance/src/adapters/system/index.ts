import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApplianceError } from '../../core/errors.js';
import type { Logger } from '../../core/log/logger.js';
import type { Notifier } from '../../core/ports/notify.js';
import type { CommandRunner } from '../../core/ports/runner.js';
import { FACTORY_SECRET_ENTRY, SERIAL_SLOT } from '../../domain/device/constants.js';
import type { FeatureProbe } from '../../domain/profile/features.js';
import type { DeviceProfile } from '../../domain/profile/schema.js';
import type { Settings } from '../../domain/settings/index.js';
import { checkWpaConfig, minimalWpaConfig, withCountry } from '../../domain/wifi/wpa-config.js';
import type { DeviceAdapters, RuntimeAdapters } from '../../runtime.js';
import { createRunnerClock } from './clock.js';
import { createFileStore } from './files.js';
import { serveHttp } from './http.js';
import { createSystemdNotifier } from './notify.js';
import { createLowPriorityPinHash } from './pin-hash.js';
import { createPowerSupplyBattery, createSystemReboot, readInterfaceMac, statfsStorage } from './power.js';
import { createSystemRadio, type SystemRadio } from './radio.js';
import { COMMAND_TIMEOUT_MS, runCommand } from './runner.js';
import { removeLeftTemps } from './temps.js';
import { createUdpSocket, resolveHost } from './udp.js';
import { createWpaStation } from './wpa-station.js';

export interface SystemAdaptersOptions {
  profile: DeviceProfile;
  logger: Logger;
  run?: CommandRunner;
  /** the longest wait for a scan to finish before `scan_results` (default 10000 ms). */
  scanWaitMs?: number;
  /** Default: `$NOTIFY_SOCKET` of the environment. */
  notifier?: Notifier;
  /** Port every NTP server is asked on (default 123). */
  ntpPort?: number;
}

export interface SystemAdapters extends RuntimeAdapters {
  radio: SystemRadio;
}

/** The setup network's lease table, in the data directory (it must survive a power cut). */
const DHCP_LEASE_FILE = 'dhcp-leases.json';

const credentialsFile = (profile: DeviceProfile) =>
  profile.identity.credentials_file || path.join(profile.paths.data_dir, 'credentials.json');

async function readSecretFile(file: string, what: string): Promise<string> {
  const value = (await fs.readFile(file, 'utf8')).trim();
  if (value === '') throw new ApplianceError('APPLIANCE_PROFILE', `${what} ${file} is empty`);
  return value;
}

/** What the machine has, for `planFeatures` (`waved check` and the start). */
export function createSystemProbe(profile: DeviceProfile): FeatureProbe {
  const dirs = (process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin').split(':').filter(Boolean);
  return {
    async program(name) {
      for (const dir of dirs) {
        try {
          await fs.access(path.join(dir, name), fs.constants.X_OK);
          return true;
        } catch {
          // next directory
        }
      }
      return false;
    },
    async readable(p) {
      try {
        await fs.access(p, fs.constants.R_OK);
        return true;
      } catch {
        return false;
      }
    },
    async keyStore() {
      try {
        const data = JSON.parse(await fs.readFile(credentialsFile(profile), 'utf8')) as {
          slots?: Record<string, string>;
          entries?: Record<string, string>;
        };
        return {
          serial: !!data.slots?.[String(SERIAL_SLOT)],
          factorySecret: !!data.entries?.[String(FACTORY_SECRET_ENTRY)],
        };
      } catch {
        return { serial: false, factorySecret: false };
      }
    },
  };
}

/**
 * The device's adapter set for `waved start`: the real radio (ip, hostapd, wpa_supplicant,
 * udhcpc), wpa_cli and the control socket, node:fs, node:http, SNTP over node:dgram with `date`,
 * `sd_notify`, and for the device application SQLite, the credentials file, `arecord`, the
 * power-supply class, the Bluetooth UART, swupdate and `systemctl reboot`.
 */
export function createSystemAdapters(options: SystemAdaptersOptions): SystemAdapters {
  const { profile, logger } = options;
  const run = options.run ?? runCommand;
  const w = profile.wifi;
  let country = '00';
  const radio = createSystemRadio({
    run,
    iface: w.interface,
    ctrlDir: w.ctrl_dir,
    wpaConfig: w.wpa_config,
    wpaDriver: w.wpa_driver,
    hostapdDriver: w.hostapd_driver,
    runDir: w.run_dir,
    gateway: w.gateway,
    udhcpcScript: w.udhcpc_script || undefined,
    dhcpLeaseFile: path.join(profile.paths.data_dir, DHCP_LEASE_FILE),
    // no command is killed before the radio step it belongs to runs out
    commandTimeoutMs: Math.max(COMMAND_TIMEOUT_MS, w.step_limit_ms),
    country: () => country,
    logger,
  });
  const station = createWpaStation({
    iface: w.interface,
    ctrlDir: w.ctrl_dir,
    configPath: w.wpa_config,
    run,
    logger,
    scanWaitMs: options.scanWaitMs ?? 10_000,
  });
  const files = createFileStore();
  const notifier =
    options.notifier ??
    createSystemdNotifier({
      socket: process.env.NOTIFY_SOCKET,
      watchdogUsec: process.env.WATCHDOG_USEC,
      watchdogPid: process.env.WATCHDOG_PID,
      onError: (error) => logger.debug?.(`sd_notify: ${error.message}`),
    });
  let warnedIw = false;

  /** wpa_supplicant.conf: created when absent, checked otherwise (0600 in both cases). */
  async function checkStationConfig(settings: Settings): Promise<void> {
    const file = w.wpa_config;
    const text = await files.read(file);
    if (text === null) {
      await files.mkdir(path.dirname(file), 0o755);
      await files.write(
        file,
        minimalWpaConfig({ ctrlDir: w.ctrl_dir, country: settings.wifi.country }),
        0o600,
      );
      logger.info?.(`created ${file} (ctrl_interface ${w.ctrl_dir}, update_config=1)`);
      return;
    }
    const issues = checkWpaConfig(text, { ctrlDir: w.ctrl_dir, path: file });
    if (issues.length > 0) {
      throw new ApplianceError('APPLIANCE_STATION_CONFIG', issues.map((i) => i.message).join('; '));
    }
    const st = await fs.stat(file);
    if ((st.mode & 0o077) !== 0) {
      await fs.chmod(file, 0o600);
      logger.warn?.(`${file} was readable by others (mode ${(st.mode & 0o777).toString(8)}); now 0600`);
    }
  }

  // PINs are hashed on a thread at nice 19: the setup network's DNS and DHCP answers come first
  const pinHash = createLowPriorityPinHash();
  return {
    radio,
    station,
    files,
    serve: serveHttp,
    notifier,
    pinHash,
    clock: {
      setClock: createRunnerClock(run),
      createSocket: createUdpSocket,
      resolveHost,
      port: options.ntpPort || undefined,
      ...(profile.cloud.base_url || profile.cloud.hosts[profile.cloud.environment]
        ? { secondSource: () => cloudDate(profile) }
        : {}),
    },
    async prepare(settings) {
      // What a crash or a power cut left: hostapd, its config, the AP address.
      await radio.stopHostapd().catch((error) => logger.warn?.('could not stop a leftover hostapd:', error));
      await files.remove(w.hostapd_config);
      if (await radio.removeApAddress().catch(() => false)) {
        logger.warn?.(`removed the setup address ${w.gateway} a previous run left on ${w.interface}`);
      }
      await radio.stopStrays();
      // temporary files a write left when the power went (ours, and wpa_supplicant's <conf>.tmp)
      const p = profile.paths;
      const removed = await removeLeftTemps(
        {
          atomic: [
            p.settings,
            `${p.settings}.invalid`,
            path.join(path.dirname(p.settings), 'pin-attempts.json'),
            path.join(p.data_dir, 'pin-attempts.json'),
            w.wpa_config,
            w.hostapd_config,
            credentialsFile(profile),
            p.pid_file,
            p.power_on_flag_file,
            p.phone_book,
          ],
          supplicantConfig: w.wpa_config,
        },
        (file, error) => logger.warn?.(`could not remove the temp file of ${file}: ${error.message}`),
      );
      if (removed > 0) logger.info?.(`removed ${removed} temp file(s) a power cut left`);
      await checkStationConfig(settings);
      await radio.startStation().catch((error) => logger.error?.('could not start wpa_supplicant:', error));
    },
    async applyCountry(code) {
      country = code;
      const text = await files.read(w.wpa_config);
      const next = text === null ? null : withCountry(text, code);
      if (next !== null) await files.write(w.wpa_config, next, 0o600);
      if (code !== '00') {
        await run('wpa_cli', ['-i', w.interface, '-p', w.ctrl_dir, 'set', 'country', code], {
          timeoutMs: 10_000,
        }).catch(() => undefined);
      }
      const iw = await run('iw', ['reg', 'set', code], { timeoutMs: 10_000 }).catch((error: Error) => ({
        code: -1,
        stdout: '',
        stderr: error.message,
        timedOut: false,
        signal: null,
      }));
      if (iw.code !== 0 && !warnedIw) {
        warnedIw = true;
        logger.warn?.(`iw reg set ${code} failed: ${(iw.stderr || iw.stdout).trim() || `exit ${iw.code}`}`);
      } else if (iw.code === 0) {
        logger.info?.(`Wi-Fi country ${code} applied (iw, wpa_supplicant, hostapd)`);
      }
    },
    device: () => openSystemDevice(profile, run, logger),
    close: async () => {
      notifier.close();
      await pinHash.close();
    },
  };
}

/** The cloud's HTTPS `Date` header: a second time source for a large clock step. */
async function cloudDate(profile: DeviceProfile): Promise<Date | null> {
  const hosts = profile.cloud.hosts[profile.cloud.environment];
  const url = profile.cloud.base_url || hosts?.eu?.cloud || hosts?.us?.cloud || hosts?.cn?.cloud;
  if (!url?.startsWith('https:')) return null;
  const r = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(10_000) });
  const date = r.headers.get('date');
  const t = date ? Date.parse(date) : Number.NaN;
  return Number.isNaN(t) ? null : new Date(t);
}

async function openSystemDevice(
  profile: DeviceProfile,
  run: CommandRunner,
  logger: Logger,
): Promise<DeviceAdapters> {
  const { openDeviceStores } = await import('./device-stores.js');
  const p = profile.paths;
  const id = profile.identity;
  const stores = await openDeviceStores({
    dataDir: p.data_dir,
    analyticsDir: p.analytics_dir,
    credentialsFile: credentialsFile(profile),
  });
  try {
    const serial =
      id.serial || (id.serial_file ? await readSecretFile(id.serial_file, 'identity.serial_file') : '');
    const secret = id.factory_secret_file
      ? await readSecretFile(id.factory_secret_file, 'identity.factory_secret_file')
      : undefined;
    const storedSerial = await stores.credentials.readSlot(SERIAL_SLOT);
    const mac = await readInterfaceMac(profile.wifi.interface).catch(() => undefined);
    const ca = profile.cloud.ca_file ? await fs.readFile(profile.cloud.ca_file) : undefined;
    const hosts = profile.cloud.hosts;
    let bluetooth: DeviceAdapters['bluetooth'];
    let closePort: (() => Promise<void>) | null = null;
    if (profile.bluetooth.port) {
      const { SerialPort } = await import('serialport');
      const port = new SerialPort({ path: profile.bluetooth.port, baudRate: profile.bluetooth.baud });
      bluetooth = { port: port as never };
      closePort = () => new Promise<void>((r) => (port.isOpen ? port.close(() => r()) : r()));
    }
    const { createArecordCapture } = await import('./audio.js');
    return {
      stores,
      identity: {
        serial: serial || storedSerial || '',
        registrationSecret: secret || undefined,
        mac: mac || undefined,
        firmwareVersion: id.firmware_version || '0.0.0',
        modelVersion: id.model_version,
      },
      cloud: {
        environment: profile.cloud.environment,
        ...(profile.cloud.base_url ? { baseUrl: profile.cloud.base_url } : { urls: hosts }),
        ...(ca ? { tls: { ca } } : {}),
      },
      paths: {
        dataDir: p.data_dir,
        pidFile: p.pid_file,
        powerOnFlagFile: p.power_on_flag_file,
        phoneBookPath: p.phone_book,
        packageDir: path.join(profile.ota.package_root, profile.ota.system_dir || 'default'),
        progressDir: p.progress_dir,
        doneFile: p.done_file,
      },
      audio: createArecordCapture(
        profile.audio.capture_device ? { device: profile.audio.capture_device } : {},
      ),
      battery: createPowerSupplyBattery(profile.battery.source || 'mains'),
      bluetooth,
      ota: {
        reboot: createSystemReboot(run),
        certificate: profile.ota.certificate || undefined,
        hardware: profile.ota.hardware_revision || undefined,
        minBattery: profile.ota.min_battery,
        ...(profile.ota.allow_downgrade ? { allowDowngrade: true } : {}),
        requireImageSha256: profile.ota.require_image_sha256,
        ca,
      },
      storage: statfsStorage(p.data_dir),
      uptimeMs: () => Math.round(os.uptime() * 1000),
      async close() {
        await closePort?.();
      },
    };
  } catch (error) {
    await stores.close();
    logger.error?.(`device application: ${(error as Error).message}`);
    throw error;
  }
}
