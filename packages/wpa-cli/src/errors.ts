/** Every way a wpa_cli call or a provisioning step can fail. */
export type WifiErrorCode =
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
  | 'WPA_CLI_CONFIG_MODE';

export class WifiError extends Error {
  override readonly name = 'WifiError';
  /** The command as it was sent, with secrets masked (`set_network 0 psk ****`); '' when none. */
  readonly command: string;
  constructor(
    readonly code: WifiErrorCode,
    message: string,
    options?: { cause?: unknown; command?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.command = options?.command ?? '';
  }
}
