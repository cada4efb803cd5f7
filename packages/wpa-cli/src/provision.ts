import { chmod as fsChmod, open as fsOpen } from 'node:fs/promises';
import path from 'node:path';
import { type Logger, syncDir } from '@waved/internal';
import { derivePsk, PskError } from '@waved/psk';
import type { WpaCli } from './client.js';
import { WpaCliError } from './errors.js';
import { encodeSsidHex, formatSsid, ssidToBytes } from './ssid.js';

export interface ProvisionOptions {
  /** The network name: a string (UTF-8) or its exact bytes, 1..32 bytes. */
  ssid: string | Uint8Array;
  /** 8..63 printable ASCII characters; turned into the PSK here and never sent anywhere. */
  passphrase?: string;
  /** The 64-hex PSK, when it is already derived (give this or `passphrase`, not both). */
  psk?: string;
  /** wpa_supplicant's configuration file, set to mode 0600 after `save_config`. */
  configPath: string;
  /** `true` sets `scan_ssid=1` so a network that hides its name is probed for; `false` sets 0. */
  hidden?: boolean | undefined;
  /** Changes a file's mode; defaults to `fs.promises.chmod`. */
  chmod?: (path: string, mode: number) => Promise<void>;
  /**
   * Makes the saved file durable: its data and mode, and the directory entry `save_config`'s rename
   * made. Defaults to `syncSavedConfig` (fsync of the file, then of its directory).
   */
  sync?: (path: string) => Promise<void>;
  /** Defaults to the client's logger. */
  logger?: Logger;
}

export interface ProvisionResult {
  /** The profile's network id. */
  id: number;
  /** `true` when a new profile was added, `false` when the one with the same SSID bytes was reused. */
  created: boolean;
  /** The priority it was given: one above every saved profile's priority. */
  priority: number;
}

export const CONFIG_FILE_MODE = 0o600;

/**
 * fsyncs `file` and then its directory. wpa_supplicant 2.10's `save_config` writes `<file>.tmp`,
 * fdatasyncs it and renames it over `file`, but fsyncs neither the directory nor the mode set
 * afterwards: until this resolves, a power cut can bring back the previous file (or its old mode).
 */
export async function syncSavedConfig(file: string): Promise<void> {
  const handle = await fsOpen(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await syncDir(path.dirname(file));
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

// One provisioning at a time per client: the priority read-modify-write must not interleave.
const queues = new WeakMap<WpaCli, Promise<unknown>>();

async function pskFor(ssid: Buffer, options: ProvisionOptions): Promise<string> {
  const { passphrase, psk } = options;
  if ((passphrase === undefined) === (psk === undefined)) {
    throw new WpaCliError('WPA_CLI_ARGUMENT', 'give exactly one of passphrase or psk');
  }
  if (psk !== undefined) {
    if (typeof psk !== 'string' || !HEX64.test(psk))
      throw new WpaCliError('WPA_CLI_ARGUMENT', 'psk must be 64 hex digits');
    return psk.toLowerCase();
  }
  try {
    return await derivePsk(ssid, passphrase as string);
  } catch (error) {
    // PskError messages never contain the passphrase.
    const message = error instanceof PskError ? error.message : 'the passphrase was refused';
    throw new WpaCliError('WPA_CLI_ARGUMENT', message, { cause: error });
  }
}

/**
 * Saves credentials for one network by the station-profile rules:
 * reuse the profile with the same SSID bytes or add one; set its priority one above the saved
 * maximum; set the SSID as hex and the PSK as the 64-hex PBKDF2 key (the passphrase never leaves
 * this process); enable that profile only; `save_config`; chmod the file 0600; fsync the file and
 * its directory; `reassociate`. When the promise resolves, the profile is on disk and survives a
 * power cut. `select_network` is never sent, so every other profile stays enabled or disabled as it was.
 */
export function provisionNetwork(cli: WpaCli, options: ProvisionOptions): Promise<ProvisionResult> {
  const previous = queues.get(cli) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => provisionNow(cli, options));
  queues.set(cli, next);
  return next;
}

async function provisionNow(cli: WpaCli, options: ProvisionOptions): Promise<ProvisionResult> {
  const logger = options.logger ?? cli.logger;
  const chmod = options.chmod ?? fsChmod;
  const sync = options.sync ?? syncSavedConfig;
  if (typeof options.configPath !== 'string' || options.configPath === '') {
    throw new WpaCliError('WPA_CLI_ARGUMENT', 'configPath must be the path of wpa_supplicant.conf');
  }
  const ssid = ssidToBytes(options.ssid);
  const psk = await pskFor(ssid, options);
  const shown = formatSsid(ssid);

  const networks = await cli.listNetworks();
  let maxPriority = 0;
  for (const n of networks) {
    const value = await cli.getNetwork(n.id, 'priority');
    if (!/^-?\d{1,10}$/.test(value)) {
      throw new WpaCliError(
        'WPA_CLI_PARSE',
        `get_network ${n.id} priority: not an integer: ${JSON.stringify(value.slice(0, 20))}`,
      );
    }
    maxPriority = Math.max(maxPriority, Number(value));
  }
  const priority = maxPriority + 1;
  const existing = networks.find((n) => n.ssid.equals(ssid));

  let id: number;
  let created = false;
  if (existing) {
    id = existing.id;
    logger?.debug?.(`provision "${shown}": reusing network ${id}, priority ${priority}`);
  } else {
    id = await cli.addNetwork();
    created = true;
    logger?.debug?.(`provision "${shown}": added network ${id}, priority ${priority}`);
  }

  try {
    if (created) await cli.setNetwork(id, 'ssid', encodeSsidHex(ssid));
    await cli.setNetwork(id, 'key_mgmt', 'WPA-PSK');
    await cli.setNetwork(id, 'psk', psk);
    if (options.hidden !== undefined) await cli.setNetwork(id, 'scan_ssid', options.hidden ? '1' : '0');
    await cli.setNetwork(id, 'priority', String(priority));
  } catch (error) {
    if (created) await cli.removeNetwork(id).catch(() => undefined);
    throw error;
  }

  // enable_network leaves a temporarily disabled profile (e.g. after WRONG_KEY) held back, so a
  // re-provisioned one is disabled and enabled again to clear that; no other profile is touched.
  if (existing?.tempDisabled && !existing.disabled) await cli.disableNetwork(id);
  await cli.enableNetwork(id);
  await cli.saveConfig();
  try {
    await chmod(options.configPath, CONFIG_FILE_MODE);
  } catch (error) {
    throw new WpaCliError(
      'WPA_CLI_CONFIG_MODE',
      `saved, but could not set ${options.configPath} to mode 0600: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  try {
    await sync(options.configPath);
  } catch (error) {
    throw new WpaCliError(
      'WPA_CLI_CONFIG_SYNC',
      `saved, but could not make ${options.configPath} durable: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  await cli.reassociate();
  logger?.debug?.(`provision "${shown}": network ${id} saved and enabled, reassociating`);
  return { id, created, priority };
}
