// The device application: boot bookkeeping, cloud session, telemetry, OTA, meeting
// recording, ASR, Bluetooth and PC Link, wired by createDeviceApp. Its adapters are in
// adapters/system (a device) and sim (the simulator).

export {
  createDeviceApp,
  createNullAsrEngine,
  type DeviceApp,
  type DeviceAppOptions,
  type DeviceCloud,
  type DeviceIdentity,
  type DevicePaths,
  type DeviceUiEvents,
} from './app.js';
export {
  type AsrController,
  type AsrEngine,
  type AsrEngineConfig,
  type AsrEngineListener,
  type AsrInfo,
  type AsrState,
  type AsrSubtitle,
  type AsrType,
  type AudioServerInfo,
  createAsrController,
  localAudioServerInfo,
} from './asr/controller.js';
export {
  type BluetoothService,
  BT_EVENTS,
  createBluetoothService,
  type ModuleInfo,
} from './bluetooth/service.js';
export { type BootReport, beginRun, endRun } from './boot.js';
export * as constants from './constants.js';
export { DeviceError, type DeviceErrorCode } from './errors.js';
export { type BatteryPort, createOtaService, type OtaEvent, type OtaService } from './ota.js';
export { decryptPcLinkFrame, encryptPcLinkFrame, PcLinkError, slaveVerifyDevPasswd } from './pclink.js';
export type { DeviceMeta, DeviceStores, StorageSizes } from './ports.js';
export type { AudioCapture } from './recording/audio.js';
export {
  createMeetingRecorder,
  type MeetingRecorder,
  type RecorderState,
  type RecordingInfo,
} from './recording/recorder.js';
export type { RecordingStore, WavFileWriter } from './recording/store.js';
export { decodeWavHeader, encodeWavHeader, WAV_HEADER_BYTES, type WavFormat } from './recording/wav.js';
