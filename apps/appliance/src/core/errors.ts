/** Every way the appliance core (runner, radio, provisioning, SNTP) can fail. */
export type ApplianceErrorCode =
  | 'APPLIANCE_COMMAND_TIMEOUT'
  | 'APPLIANCE_COMMAND_SPAWN'
  | 'APPLIANCE_COMMAND_FAILED'
  | 'APPLIANCE_RADIO_STEP'
  | 'APPLIANCE_PROFILE'
  | 'APPLIANCE_STATION_CONFIG'
  | 'SNTP_TIMEOUT'
  | 'SNTP_BAD_PACKET'
  | 'SNTP_KISS_OF_DEATH'
  | 'SNTP_UNSYNCHRONISED'
  | 'SNTP_BEFORE_FLOOR'
  | 'SNTP_NO_SERVER'
  | 'SNTP_UNCONFIRMED';

export class ApplianceError extends Error {
  override readonly name = 'ApplianceError';
  constructor(
    readonly code: ApplianceErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
