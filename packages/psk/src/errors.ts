/** Every way @waved/psk can refuse an input. */
export type PskErrorCode =
  | 'PSK_SSID_LENGTH'
  | 'PSK_SSID_TYPE'
  | 'PSK_PASSPHRASE_LENGTH'
  | 'PSK_PASSPHRASE_CHARSET'
  | 'PSK_PASSPHRASE_TYPE'
  | 'PIN_FORMAT'
  | 'PIN_RECORD_FORMAT'
  | 'PIN_RECORD_VERSION'
  | 'PIN_OPTIONS';

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
