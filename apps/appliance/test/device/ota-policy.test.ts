import { describe, expect, it } from 'vitest';
import { createOtaService, isNewerVersion, type OtaEvent } from '../../src/domain/device/ota.js';
import { memoryLogger } from './helpers.js';

describe('OTA anti-rollback (profile ota.allow_downgrade)', () => {
  it.each([
    ['1.1.0', '1.0.0', true],
    ['1.10.0', '1.9.3', true],
    ['PSP_0.3.20', 'PSP_0.3.19', true],
    ['1.0.0', '1.0.0', false],
    ['0.9.9', '1.0.0', false],
    ['1.0', '1.0.0', false],
    ['latest', '1.0.0', false],
  ])('%s is newer than %s: %s', (candidate, installed, newer) => {
    expect(isNewerVersion(candidate, installed)).toBe(newer);
  });

  const service = (allowDowngrade: boolean, events: OtaEvent[]) => {
    const ota = createOtaService({
      client: {
        getUpdateDescriptor: async (kind: string) =>
          kind === 'psp_firmware'
            ? {
                version: '0.9.0',
                download_url: 'http://127.0.0.1:9/none.swu',
                file_md5: '0'.repeat(32),
                descriptions: {},
                forced: true,
              }
            : null,
      } as never,
      telemetry: { track: async () => {} },
      versions: { get: () => '1.0.0', set: () => {} },
      battery: { read: async () => 100 },
      consent: async () => true,
      reboot: async () => {},
      packageDir: '/nonexistent',
      ...(allowDowngrade ? { allowDowngrade: true } : {}),
      onEvent: (e) => {
        events.push(e);
        // no package server here: stop as soon as the download would begin
        if (e.type === 'available') ota.abort();
      },
      logger: memoryLogger(),
    });
    return ota;
  };

  it('an older version offered by the cloud is not downloaded', async () => {
    const events: OtaEvent[] = [];
    expect(await service(false, events).checkNow()).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['checking', 'up-to-date', 'up-to-date']);
  });

  it('with allow_downgrade it is tried', async () => {
    const events: OtaEvent[] = [];
    await service(true, events).checkNow();
    expect(events.some((e) => e.type === 'available')).toBe(true);
  });
});
