/** Every way a wpa_cli call or a provisioning step can fail. Every code starts with `WPA_CLI_`. */
export type WpaCliErrorCode =
  /** wpa_supplicant answered `FAIL` (bad value, unknown network id, save_config refused...). */
  | 'WPA_CLI_FAIL'
  /** wpa_supplicant answered `FAIL-BUSY` (e.g. `scan` while associating): retry later. */
  | 'WPA_CLI_FAIL_BUSY'
  /** wpa_supplicant answered `UNKNOWN COMMAND`, or wpa_cli itself did not know the command. */
  | 'WPA_CLI_UNKNOWN_COMMAND'
  /** wpa_cli could not reach the control socket (wpa_supplicant not running, wrong iface or ctrlDir). */
  | 'WPA_CLI_CONNECT'
  /** The call ran past its timeout; the child was killed. */
  | 'WPA_CLI_TIMEOUT'
  /** wpa_cli could not be started (not installed, not executable). */
  | 'WPA_CLI_SPAWN'
  /** wpa_cli exited with a non-zero status or was killed by a signal. */
  | 'WPA_CLI_EXIT'
  /** The reply did not have the shape the command promises. */
  | 'WPA_CLI_PARSE'
  /** A caller-supplied value was refused before anything was sent. */
  | 'WPA_CLI_ARGUMENT'
  /** The configuration file could not be set to mode 0600 after save_config. */
  | 'WPA_CLI_CONFIG_MODE'
  /** The configuration file or its directory could not be fsynced after save_config. */
  | 'WPA_CLI_CONFIG_SYNC';

export class WpaCliError extends Error {
  override readonly name = 'WpaCliError';
  /** The command as it was sent, with secrets masked (`set_network 0 psk ****`); '' when none. */
  readonly command: string;
  constructor(
    readonly code: WpaCliErrorCode,
    message: string,
    options?: { cause?: unknown; command?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.command = options?.command ?? '';
  }
}

/** True when `e` is a WpaCliError (with the given code, when one is given). */
export function isWpaCliError(e: unknown, code?: WpaCliErrorCode): e is WpaCliError {
  return e instanceof WpaCliError && (code === undefined || e.code === code);
}

/**
 * @deprecated Renamed `WpaCliError` (the same class); this alias goes in 1.0.
 * @alias
 */
export const WifiError = WpaCliError;
/**
 * @deprecated Renamed `WpaCliError` (the same class); this alias goes in 1.0.
 * @alias
 */
export type WifiError = WpaCliError;
/** @deprecated Renamed `WpaCliErrorCode`; this alias goes in 1.0. */
export type WifiErrorCode = WpaCliErrorCode;
