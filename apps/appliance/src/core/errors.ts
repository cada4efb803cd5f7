/** Every way the appliance core (runner, radio, provisioning, SNTP, message catalogs) can fail. */
export type ApplianceErrorCode =
  | 'APPLIANCE_COMMAND_TIMEOUT'
  | 'APPLIANCE_COMMAND_SPAWN'
  | 'APPLIANCE_COMMAND_FAILED'
  | 'APPLIANCE_RADIO_STEP'
  /** A message catalog holds a pattern that does not parse (caught by the catalog tests). */
  | 'APPLIANCE_MESSAGE_PATTERN'
  | 'APPLIANCE_PROFILE'
  | 'APPLIANCE_STATION_CONFIG'
  /** The PIN hashing thread stopped, or a `PinHash` gave a digest of the wrong size. */
  | 'APPLIANCE_PIN_HASH'
  /** The captive DNS thread could not start, or stopped. */
  | 'APPLIANCE_DNS_THREAD'
  | 'SNTP_TIMEOUT'
  | 'SNTP_BAD_PACKET'
  | 'SNTP_KISS_OF_DEATH'
  | 'SNTP_UNSYNCHRONISED'
  | 'SNTP_BEFORE_FLOOR'
  | 'SNTP_NO_SERVER'
  | 'SNTP_UNCONFIRMED';

// A plain field rather than a parameter property: the module loads under Node's type stripping
// too (the tests' child processes import the portal, and so this file, from source).
export class ApplianceError extends Error {
  override readonly name = 'ApplianceError';
  readonly code: ApplianceErrorCode;
  constructor(code: ApplianceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
