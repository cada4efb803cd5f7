/**
 * The device profile (`/etc/waved/device.toml`): what the device maker sets once per product and
 * the portal never writes. One table describes every key; parsing, `waved check` and
 * docs/device.md follow it.
 */

export type Region = 'cn' | 'us' | 'eu';
export type CloudEnvironment = 'production' | 'test';

export interface CloudHosts {
  /** `{cloud_url}`: OTA descriptors and packages. */
  cloud: string;
  /** `{summary_url}`: registration, tokens, meetings. */
  summary: string;
  /** `{telemetry_url}`: analytics events. */
  telemetry: string;
}

export interface DeviceProfile {
  identity: {
    /** Device serial; absent: read from `serial_file`, else from key-store slot 0. */
    serial: string;
    serial_file: string;
    /** File holding the factory secret (registration); absent: key-store entry 0xe7. */
    factory_secret_file: string;
    /** The credential store file (the key-store slots and database entries, 0600). Default `<data_dir>/credentials.json`. */
    credentials_file: string;
    /** Version of the running firmware image (`X-Device-Version`). */
    firmware_version: string;
    model_version: string;
  };
  cloud: {
    environment: CloudEnvironment;
    /** One URL for every service, region and environment (a private or reference server). */
    base_url: string;
    /** Extra trusted CA (PEM) for the cloud and the package server. */
    ca_file: string;
    /** Base URLs per environment and region. */
    hosts: Partial<Record<CloudEnvironment, Partial<Record<Region, CloudHosts>>>>;
  };
  ota: {
    /** `/mnt/udisk/misc/data`: the package goes to `<package_root>/<system_dir>/software.swu`. */
    package_root: string;
    system_dir: string;
    /** CMS signing certificate (PEM) passed to swupdate `-k`. */
    certificate: string;
    /** `board:revision` for swupdate `-H`. */
    hardware_revision: string;
    allow_unsigned: boolean;
    allow_downgrade: boolean;
    require_image_sha256: boolean;
    /** Minimum battery percent to install. */
    min_battery: number;
  };
  battery: {
    /** A `/sys/class/power_supply/<name>` directory, or `mains` for a device without a battery. */
    source: string;
  };
  bluetooth: {
    /** Serial port of the Bluetooth module. */
    port: string;
    baud: number;
  };
  audio: {
    /** ALSA capture device for `arecord -D`. */
    capture_device: string;
  };
  wifi: {
    interface: string;
    wpa_config: string;
    ctrl_dir: string;
    wpa_driver: string;
    hostapd_driver: string;
    hostapd_config: string;
    gateway: string;
    portal_port: number;
    run_dir: string;
    /** udhcpc `-s` script; empty: udhcpc's own. */
    udhcpc_script: string;
    /** How long joining a network may take after a save before Failed (30 s). */
    association_timeout_ms: number;
    /** Upper bound of one radio step (start hostapd, provision, start udhcpc …) before it fails; each command of a step gets the same bound (at least 10 s). */
    step_limit_ms: number;
    /** How long the setup network stays up without a save (`PROV_TIMEOUT`: 300 s). */
    setup_timeout_ms: number;
  };
  security: {
    /**
     * Plain-http webhook URLs allowed: `never` (https only, the default), `loopback` (http to this
     * device only), `always`.
     */
    webhook_http: 'never' | 'loopback' | 'always';
  };
  screen: {
    /** Port of the screen page on 127.0.0.1 (for a kiosk browser); 0: off. */
    page_port: number;
    /** Terminal that shows the screen and takes its keys (`/dev/tty1`); empty: off. */
    tty: string;
  };
  paths: {
    /** The user's settings, written by the portal. */
    settings: string;
    /** Databases, credentials and recordings. */
    data_dir: string;
    pid_file: string;
    power_on_flag_file: string;
    phone_book: string;
    analytics_dir: string;
    progress_dir: string;
    done_file: string;
  };
}

export type ProfileSection = keyof DeviceProfile;

export const DEFAULT_PROFILE: DeviceProfile = {
  identity: {
    serial: '',
    serial_file: '',
    factory_secret_file: '',
    credentials_file: '',
    firmware_version: '',
    model_version: '0.0.0',
  },
  cloud: { environment: 'production', base_url: '', ca_file: '', hosts: {} },
  ota: {
    package_root: '/mnt/udisk/misc/data',
    system_dir: '',
    certificate: '',
    hardware_revision: '',
    allow_unsigned: false,
    allow_downgrade: false,
    require_image_sha256: true,
    min_battery: 30,
  },
  battery: { source: '' },
  bluetooth: { port: '', baud: 115_200 },
  audio: { capture_device: '' },
  wifi: {
    interface: 'wlan0',
    wpa_config: '/etc/wpa_supplicant.conf',
    ctrl_dir: '/var/run/wpa_supplicant',
    wpa_driver: 'nl80211',
    hostapd_driver: 'nl80211',
    hostapd_config: '/tmp/waved-hostapd.conf',
    gateway: '192.168.2.1',
    portal_port: 80,
    run_dir: '/run/waved',
    udhcpc_script: '',
    association_timeout_ms: 30_000,
    step_limit_ms: 15_000,
    setup_timeout_ms: 300_000,
  },
  security: { webhook_http: 'never' },
  screen: { page_port: 0, tty: '' },
  paths: {
    settings: '/etc/waved/config.toml',
    data_dir: '/var/lib/waved',
    pid_file: '/tmp/pspapp.pid',
    power_on_flag_file: '/tmp/power_on_report.txt',
    phone_book: '/tmp/PHONE_BOOK.bin',
    analytics_dir: '/data/common_settings/finder/finder_sdk_dir',
    progress_dir: '/tmp',
    done_file: '/tmp/swu.done',
  },
};

export const DEFAULT_PROFILE_PATH = '/etc/waved/device.toml';

export function defaultProfile(): DeviceProfile {
  return structuredClone(DEFAULT_PROFILE);
}

export type ProfileKind =
  | 'text'
  | 'path'
  | 'file-name'
  | 'url'
  | 'boolean'
  | 'port'
  | 'int'
  | 'environment'
  | 'hardware'
  | 'version'
  | 'ipv4'
  | 'battery'
  | 'iface'
  | 'webhook-http';

export interface ProfileKey {
  section: Exclude<ProfileSection, never>;
  key: string;
  kind: ProfileKind;
  /** One line for docs/device.md and `waved check`. */
  doc: string;
  min?: number;
  max?: number;
}

/** Every key of the profile except the cloud host tables (`[cloud.<environment>.<region>]`). */
export const PROFILE_KEYS: readonly ProfileKey[] = [
  {
    section: 'identity',
    key: 'serial',
    kind: 'text',
    doc: 'device serial (absent: serial_file, else key-store slot 0)',
  },
  { section: 'identity', key: 'serial_file', kind: 'path', doc: 'file holding the serial' },
  {
    section: 'identity',
    key: 'factory_secret_file',
    kind: 'path',
    doc: 'file holding the factory secret (absent: key-store entry 0xe7)',
  },
  {
    section: 'identity',
    key: 'credentials_file',
    kind: 'path',
    doc: 'credential store file, 0600 (default <data_dir>/credentials.json)',
  },
  { section: 'identity', key: 'firmware_version', kind: 'version', doc: 'version of the running firmware' },
  { section: 'identity', key: 'model_version', kind: 'version', doc: 'version of the installed AI model' },
  { section: 'cloud', key: 'environment', kind: 'environment', doc: '`production` or `test` hosts' },
  { section: 'cloud', key: 'base_url', kind: 'url', doc: 'one URL for every service and region' },
  { section: 'cloud', key: 'ca_file', kind: 'path', doc: 'extra trusted CA (PEM)' },
  { section: 'ota', key: 'package_root', kind: 'path', doc: 'package directory root' },
  {
    section: 'ota',
    key: 'system_dir',
    kind: 'file-name',
    doc: 'the package goes to <package_root>/<system_dir>/software.swu',
  },
  { section: 'ota', key: 'certificate', kind: 'path', doc: 'CMS signing certificate (PEM), swupdate -k' },
  { section: 'ota', key: 'hardware_revision', kind: 'hardware', doc: '`board:revision`, swupdate -H' },
  { section: 'ota', key: 'allow_unsigned', kind: 'boolean', doc: 'install packages without a certificate' },
  {
    section: 'ota',
    key: 'allow_downgrade',
    kind: 'boolean',
    doc: 'install versions older than the running one',
  },
  { section: 'ota', key: 'require_image_sha256', kind: 'boolean', doc: 'every image needs a sha256' },
  {
    section: 'ota',
    key: 'min_battery',
    kind: 'int',
    min: 0,
    max: 100,
    doc: 'minimum battery percent to install',
  },
  { section: 'battery', key: 'source', kind: 'battery', doc: '/sys/class/power_supply/<name>, or `mains`' },
  { section: 'bluetooth', key: 'port', kind: 'path', doc: 'serial port of the Bluetooth module' },
  { section: 'bluetooth', key: 'baud', kind: 'int', min: 1200, max: 4_000_000, doc: 'its baud rate' },
  { section: 'audio', key: 'capture_device', kind: 'text', doc: 'ALSA capture device (arecord -D)' },
  { section: 'wifi', key: 'interface', kind: 'iface', doc: 'Wi-Fi interface' },
  { section: 'wifi', key: 'wpa_config', kind: 'path', doc: 'wpa_supplicant.conf (station profiles)' },
  { section: 'wifi', key: 'ctrl_dir', kind: 'path', doc: "wpa_supplicant's control directory" },
  { section: 'wifi', key: 'wpa_driver', kind: 'text', doc: 'wpa_supplicant -D' },
  { section: 'wifi', key: 'hostapd_driver', kind: 'text', doc: 'hostapd driver=' },
  {
    section: 'wifi',
    key: 'hostapd_config',
    kind: 'path',
    doc: 'runtime AP config (0600, removed on teardown)',
  },
  { section: 'wifi', key: 'gateway', kind: 'ipv4', doc: 'AP address' },
  { section: 'wifi', key: 'portal_port', kind: 'port', min: 1, doc: 'portal port on the AP address' },
  { section: 'wifi', key: 'run_dir', kind: 'path', doc: 'pid files of wpa_supplicant, udhcpc, hostapd' },
  { section: 'wifi', key: 'udhcpc_script', kind: 'path', doc: "udhcpc -s script (absent: udhcpc's own)" },
  {
    section: 'wifi',
    key: 'association_timeout_ms',
    kind: 'int',
    min: 1_000,
    max: 600_000,
    doc: 'time to join a network after a save before Failed (default 30000)',
  },
  {
    section: 'wifi',
    key: 'step_limit_ms',
    kind: 'int',
    min: 1_000,
    max: 600_000,
    doc: 'upper bound of one radio step, e.g. starting hostapd (default 15000)',
  },
  {
    section: 'wifi',
    key: 'setup_timeout_ms',
    kind: 'int',
    min: 5_000,
    max: 3_600_000,
    doc: 'the setup network closes after this long without a save (default 300000)',
  },
  {
    section: 'security',
    key: 'webhook_http',
    kind: 'webhook-http',
    doc: 'plain-http webhook URLs: `never` (https only), `loopback`, `always`',
  },
  {
    section: 'screen',
    key: 'page_port',
    kind: 'port',
    doc: 'screen page on 127.0.0.1 for a kiosk browser (0: off)',
  },
  { section: 'screen', key: 'tty', kind: 'path', doc: 'terminal for the screen and its keys (absent: off)' },
  { section: 'paths', key: 'settings', kind: 'path', doc: "the user's settings (config.toml)" },
  { section: 'paths', key: 'data_dir', kind: 'path', doc: 'databases, credentials, recordings' },
  { section: 'paths', key: 'pid_file', kind: 'path', doc: 'the device application PID file' },
  { section: 'paths', key: 'power_on_flag_file', kind: 'path', doc: 'the device power-on flag file' },
  { section: 'paths', key: 'phone_book', kind: 'path', doc: 'the Bluetooth phone book' },
  { section: 'paths', key: 'analytics_dir', kind: 'path', doc: 'the telemetry analytics database directory' },
  { section: 'paths', key: 'progress_dir', kind: 'path', doc: 'download progress files' },
  { section: 'paths', key: 'done_file', kind: 'path', doc: 'written `done` after a download' },
];

export const REGIONS: readonly Region[] = ['cn', 'us', 'eu'];
export const CLOUD_ENVIRONMENTS: readonly CloudEnvironment[] = ['production', 'test'];
export const CLOUD_SERVICES: readonly (keyof CloudHosts)[] = ['cloud', 'summary', 'telemetry'];
