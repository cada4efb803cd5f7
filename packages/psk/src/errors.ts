/** Every way @waved/psk can refuse an input. Every code starts with `PSK_`. */
export type PskErrorCode =
  // WPA2 pre-shared keys
  | 'PSK_SSID_LENGTH'
  | 'PSK_SSID_TYPE'
  | 'PSK_PASSPHRASE_LENGTH'
  | 'PSK_PASSPHRASE_CHARSET'
  | 'PSK_PASSPHRASE_TYPE'
  // device PIN records
  | 'PSK_PIN_FORMAT'
  | 'PSK_PIN_RECORD_FORMAT'
  | 'PSK_PIN_RECORD_VERSION'
  | 'PSK_PIN_OPTIONS';

export class PskError extends Error {
  override readonly name = 'PskError';
  constructor(
    readonly code: PskErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `e` is a PskError (with the given code, when one is given). */
export function isPskError(e: unknown, code?: PskErrorCode): e is PskError {
  return e instanceof PskError && (code === undefined || e.code === code);
}
