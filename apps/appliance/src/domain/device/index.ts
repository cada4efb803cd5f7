// The device application (spec Area B): boot bookkeeping, cloud session, telemetry, OTA, meeting
// recording, ASR, Bluetooth and PC Link, wired by createDeviceApp; createSimDevice for `waved sim`.

export { createSimAsrEngine } from '../../sim/asr-engine.js';
export { attachSimBtModule, SIM_CONTACTS, type SimBtModule } from '../../sim/bt-module.js';
export {
  buildSimPackage,
  createSimDevice,
  fakeSwupdateRunner,
  type SimDevice,
  type SimDeviceOptions,
} from '../../sim/device.js';
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
export { createDbCredentialStore } from './credentials.js';
export { openDeviceDatabase } from './db.js';
export { DeviceError, type DeviceErrorCode } from './errors.js';
export { type BatteryPort, createOtaService, type OtaEvent, type OtaService } from './ota.js';
export { decryptPcLinkFrame, encryptPcLinkFrame, PcLinkError, slaveVerifyDevPasswd } from './pclink.js';
export {
  type AudioCapture,
  arecordArgs,
  createArecordCapture,
  createGeneratedCapture,
} from './recording/audio.js';
export {
  createMeetingRecorder,
  type MeetingRecorder,
  type RecorderState,
  type RecordingInfo,
} from './recording/recorder.js';
export { recoverWav, WavWriter } from './recording/wav.js';
