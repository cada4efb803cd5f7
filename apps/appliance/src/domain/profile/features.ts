import type { DeviceProfile } from './schema.js';
import { CLOUD_SERVICES, REGIONS } from './schema.js';

/** What `waved start` needs to know about the machine to decide what runs. */
export interface FeatureProbe {
  /** The program is on PATH and executable. */
  program(name: string): Promise<boolean>;
  /** The path exists and can be read. */
  readable(path: string): Promise<boolean>;
  /** What the credential store already holds (factory provisioning into a key store). */
  keyStore(): Promise<{ serial: boolean; factorySecret: boolean }>;
}

export type FeatureName =
  | 'wifi'
  | 'wifi-country'
  | 'cloud'
  | 'ota'
  | 'recording'
  | 'asr'
  | 'bluetooth'
  | 'screen-page'
  | 'screen-tty';

export interface Feature {
  name: FeatureName;
  on: boolean;
  /** What runs, or why it is off. */
  detail: string;
  /** What to set or install to turn it on (empty when on). */
  missing: string[];
}

export interface FeaturePlan {
  features: Feature[];
  /** Problems that stop the device from running at all (`waved check` exits 1). */
  blocking: string[];
  isOn(name: FeatureName): boolean;
}

/** The programs Area A runs (spec: wpa_supplicant, wpa_cli, udhcpc, hostapd; plus ip and date). */
export const WIFI_PROGRAMS = ['ip', 'wpa_supplicant', 'wpa_cli', 'hostapd', 'udhcpc', 'date'] as const;

function plan(features: Feature[], blocking: string[]): FeaturePlan {
  return { features, blocking, isOn: (name) => features.some((f) => f.name === name && f.on) };
}

function feature(name: FeatureName, missing: string[], on: string, off = ''): Feature {
  return {
    name,
    on: missing.length === 0,
    detail: missing.length === 0 ? on : off || on,
    missing,
  };
}

/** What a package must carry to install: the signature and the per-image sha256 (ota.require_image_sha256). */
function otaTrust(profile: DeviceProfile): string {
  if (profile.ota.certificate) return 'signed packages only, every image with its sha256';
  if (!profile.ota.allow_unsigned) return 'signed packages only';
  return profile.ota.require_image_sha256
    ? 'unsigned packages allowed, every image with its sha256'
    : 'unsigned packages allowed, images without a sha256 too (ota.require_image_sha256 = false)';
}

/** Cloud URLs complete for the profile's environment (every region, or one `base_url`). */
export function cloudHostsMissing(profile: DeviceProfile): string[] {
  if (profile.cloud.base_url) return [];
  const env = profile.cloud.environment;
  const table = profile.cloud.hosts[env] ?? {};
  const missing: string[] = [];
  for (const region of REGIONS) {
    const hosts = table[region];
    if (!hosts) missing.push(`[cloud.${env}.${region}] ${CLOUD_SERVICES.join(', ')} (or cloud.base_url)`);
  }
  return missing;
}

/**
 * Decides which features run on this device from the profile and what the machine has. A feature
 * whose hardware, program or secret is missing is off, with what to set; only a missing Wi-Fi
 * program blocks the start.
 */
export async function planFeatures(profile: DeviceProfile, probe: FeatureProbe): Promise<FeaturePlan> {
  const features: Feature[] = [];
  const blocking: string[] = [];
  const missingPrograms = async (names: readonly string[]) => {
    const out: string[] = [];
    for (const n of names) if (!(await probe.program(n))) out.push(`install ${n}`);
    return out;
  };
  const readable = async (key: string, path: string) =>
    path && !(await probe.readable(path)) ? [`${key}: ${path} cannot be read`] : [];

  const wifi = await missingPrograms(WIFI_PROGRAMS);
  blocking.push(...wifi.map((m) => `Wi-Fi: ${m}`));
  features.push(
    feature('wifi', wifi, `station and setup network on ${profile.wifi.interface}`, 'cannot run'),
  );
  features.push(
    feature(
      'wifi-country',
      await missingPrograms(['iw']),
      'the Wi-Fi country is applied with iw reg set, wpa_supplicant and hostapd',
      'the country goes to wpa_supplicant and hostapd only',
    ),
  );

  const id = profile.identity;
  const store = await probe.keyStore();
  const cloud: string[] = [];
  if (id.serial_file) cloud.push(...(await readable('identity.serial_file', id.serial_file)));
  else if (!id.serial && !store.serial) cloud.push('identity.serial (or identity.serial_file)');
  if (id.factory_secret_file) {
    cloud.push(...(await readable('identity.factory_secret_file', id.factory_secret_file)));
  } else if (!store.factorySecret) {
    cloud.push('identity.factory_secret_file (or the factory secret in the key store)');
  }
  cloud.push(...cloudHostsMissing(profile));
  cloud.push(...(await readable('cloud.ca_file', profile.cloud.ca_file)));
  features.push(
    feature(
      'cloud',
      cloud,
      `cloud session, telemetry and uploads (${profile.cloud.environment} hosts, region from the device country)`,
      'no cloud session, telemetry or uploads',
    ),
  );

  const ota: string[] = [];
  if (cloud.length > 0) ota.push('the cloud (above)');
  if (!id.firmware_version) ota.push('identity.firmware_version');
  if (!profile.ota.system_dir) ota.push('ota.system_dir');
  ota.push(...(await missingPrograms(['swupdate'])));
  if (profile.ota.certificate) ota.push(...(await readable('ota.certificate', profile.ota.certificate)));
  else if (!profile.ota.allow_unsigned) ota.push('ota.certificate (or ota.allow_unsigned = true)');
  if (!profile.ota.hardware_revision) ota.push('ota.hardware_revision');
  const battery = profile.battery.source;
  if (!battery) ota.push('battery.source (a /sys/class/power_supply/<name> directory, or "mains")');
  else if (battery !== 'mains') ota.push(...(await readable('battery.source', battery)));
  features.push(
    feature(
      'ota',
      ota,
      `firmware and model updates into ${profile.ota.package_root}/${profile.ota.system_dir || '<system_dir>'}; ${otaTrust(profile)}`,
      'no firmware or model updates',
    ),
  );

  const rec: string[] = [];
  if (cloud.length > 0) rec.push('the cloud (above)');
  if (!profile.audio.capture_device) rec.push('audio.capture_device');
  rec.push(...(await missingPrograms(['arecord'])));
  features.push(
    feature(
      'recording',
      rec,
      `meeting recording from ${profile.audio.capture_device || 'the capture device'}`,
      'no meeting recording',
    ),
  );
  features.push({
    name: 'asr',
    on: false,
    detail: 'no speech recognition engine is built in',
    missing: ['a vendor ASR engine (see docs/device.md)'],
  });

  const bt: string[] = [];
  if (cloud.length > 0) bt.push('the cloud (above)');
  if (!profile.bluetooth.port) bt.push('bluetooth.port');
  else bt.push(...(await readable('bluetooth.port', profile.bluetooth.port)));
  features.push(
    feature(
      'bluetooth',
      bt,
      `Bluetooth module on ${profile.bluetooth.port} at ${profile.bluetooth.baud} baud`,
      'no Bluetooth',
    ),
  );

  features.push(
    feature(
      'screen-page',
      profile.screen.page_port > 0 ? [] : ['screen.page_port'],
      `screen page on http://127.0.0.1:${profile.screen.page_port}/ (loopback only)`,
      'no screen page for a kiosk browser',
    ),
  );
  const tty: string[] = [];
  if (!profile.screen.tty) tty.push('screen.tty (or --tty)');
  else tty.push(...(await readable('screen.tty', profile.screen.tty)));
  features.push(feature('screen-tty', tty, `screen and keys on ${profile.screen.tty}`, 'no terminal screen'));
  return plan(features, blocking);
}

/** A plan where everything the simulator simulates runs (`waved sim`). */
export function simulatedPlan(options: { device: boolean; screenPage: boolean }): FeaturePlan {
  const on = (name: FeatureName, detail: string): Feature => ({ name, on: true, detail, missing: [] });
  const off = (name: FeatureName, detail: string, missing: string): Feature => ({
    name,
    on: false,
    detail,
    missing: [missing],
  });
  const device = (name: FeatureName, detail: string) =>
    options.device ? on(name, detail) : off(name, 'left out', 'drop --no-device / --no-cloud');
  return plan(
    [
      on('wifi', 'simulated radio with six networks'),
      device('cloud', 'reference cloud server on loopback'),
      device('ota', 'simulated firmware update 1.1.0'),
      device('recording', 'generated audio'),
      device('asr', 'simulated speech recognition'),
      device('bluetooth', 'simulated module with three contacts'),
      options.screenPage
        ? on('screen-page', 'screen emulator in the browser (loopback only)')
        : off('screen-page', 'off', '--screen-port'),
    ],
    [],
  );
}

/** The lines `waved check` prints and `waved start` logs once. */
export function describePlan(plan: FeaturePlan): string[] {
  const lines: string[] = [];
  for (const f of plan.features) {
    if (f.on) lines.push(`on   ${f.name}: ${f.detail}`);
    else lines.push(`off  ${f.name}: ${f.detail}; set ${f.missing.join('; ')}`);
  }
  for (const b of plan.blocking) lines.push(`MISSING ${b}`);
  return lines;
}
