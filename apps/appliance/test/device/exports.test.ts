import { describe, expect, it } from 'vitest';
import { DeviceError, type DeviceErrorCode } from '../../src/domain/device/errors.js';

describe('src/device public surface', () => {
  it('exports exactly this list (a change to the API is deliberate)', async () => {
    expect(Object.keys(await import('../../src/domain/device/index.js')).sort()).toMatchInlineSnapshot(`
      [
        "BT_EVENTS",
        "DeviceError",
        "PcLinkError",
        "WAV_HEADER_BYTES",
        "beginRun",
        "constants",
        "createAsrController",
        "createBluetoothService",
        "createDeviceApp",
        "createMeetingRecorder",
        "createNullAsrEngine",
        "createOtaService",
        "decodeWavHeader",
        "decryptPcLinkFrame",
        "encodeWavHeader",
        "encryptPcLinkFrame",
        "endRun",
        "localAudioServerInfo",
        "slaveVerifyDevPasswd",
      ]
    `);
  });

  it('carries a code, a message and the cause for every error code', () => {
    const codes: DeviceErrorCode[] = [
      'DEVICE_OPTIONS',
      'DEVICE_DATABASE',
      'DEVICE_SESSION',
      'DEVICE_RECORDING_STATE',
      'DEVICE_RECORDING_IO',
      'DEVICE_AUDIO',
      'DEVICE_WAV',
      'DEVICE_ASR_STATE',
      'DEVICE_ASR_ENGINE',
      'DEVICE_BT',
    ];
    for (const code of codes) {
      const cause = new Error('inner');
      const e = new DeviceError(code, `${code} happened`, { cause });
      expect(e).toBeInstanceOf(Error);
      expect(e).toMatchObject({ name: 'DeviceError', code, message: `${code} happened`, cause });
    }
  });
});
