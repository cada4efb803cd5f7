/** Every way the device application (Area B glue) can fail. */
export type DeviceErrorCode =
  | 'DEVICE_OPTIONS'
  | 'DEVICE_DATABASE'
  | 'DEVICE_SESSION'
  | 'DEVICE_RECORDING_STATE'
  | 'DEVICE_RECORDING_IO'
  | 'DEVICE_AUDIO'
  | 'DEVICE_WAV'
  | 'DEVICE_ASR_STATE'
  | 'DEVICE_ASR_ENGINE'
  | 'DEVICE_BT';

export class DeviceError extends Error {
  override readonly name = 'DeviceError';
  readonly code: DeviceErrorCode;
  constructor(code: DeviceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
