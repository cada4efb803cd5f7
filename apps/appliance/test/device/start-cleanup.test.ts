import fs from 'node:fs';
import { tempDir } from '@waved/test-lab';
import { afterAll, expect, it } from 'vitest';
import { createSystemAdapters } from '../../src/adapters/system/index.js';
import { silentLogger } from '../../src/core/log/logger.js';
import type { CommandRunner } from '../../src/core/ports/runner.js';
import { defaultProfile } from '../../src/domain/profile/schema.js';
import { defaultSettings } from '../../src/domain/settings/schema.js';

const dir = tempDir('device-start-cleanup-');
afterAll(() => dir.remove());

// The programs the start runs (ip, hostapd, wpa_supplicant) answer as on a machine with nothing left over.
const run: CommandRunner = async () => ({ code: 0, stdout: '', stderr: '', timedOut: false, signal: null });

it('the start removes the temporary files a power cut left beside every file the device keeps', async () => {
  const profile = defaultProfile();
  profile.paths.settings = dir.join('etc/config.toml');
  profile.paths.data_dir = dir.join('data');
  profile.paths.phone_book = dir.join('pb/PHONE_BOOK.bin');
  profile.wifi.interface = 'wlx0test';
  profile.wifi.wpa_config = dir.join('wpa/wpa_supplicant.conf');
  profile.wifi.ctrl_dir = dir.join('ctrl');
  profile.wifi.hostapd_config = dir.join('hostapd.conf');
  profile.wifi.run_dir = dir.join('run');
  for (const d of ['etc', 'data', 'pb', 'wpa']) fs.mkdirSync(dir.join(d), { recursive: true });
  fs.writeFileSync(profile.wifi.wpa_config, `ctrl_interface=${profile.wifi.ctrl_dir}\nupdate_config=1\n`, {
    mode: 0o600,
  });
  const cut = [
    dir.join('etc/.config.toml.0123456789ab.tmp'),
    dir.join('data/.credentials.json.a1b2c3d4e5f6.tmp'),
    dir.join('pb/.PHONE_BOOK.bin.00ff00ff00ff.tmp'),
    dir.join('wpa/.wpa_supplicant.conf.abcdefabcdef.tmp'),
    // wpa_supplicant's own save_config temp
    dir.join('wpa/wpa_supplicant.conf.tmp'),
  ];
  for (const f of cut) fs.writeFileSync(f, 'half a write', { mode: 0o600 });
  // files that are not temps of an atomic write stay
  const kept = [dir.join('pb/PHONE_BOOK.bin'), dir.join('pb/.PHONE_BOOK.bin.notours.tmp')];
  for (const f of kept) fs.writeFileSync(f, 'x');

  const adapters = createSystemAdapters({
    profile,
    logger: silentLogger,
    run,
    notifier: { notify() {}, close() {} } as never,
  });
  await adapters.prepare?.(defaultSettings());
  expect(cut.filter((f) => fs.existsSync(f))).toEqual([]);
  expect(kept.filter((f) => fs.existsSync(f))).toEqual(kept);
  await adapters.close?.();
});
