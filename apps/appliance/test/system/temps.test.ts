import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { removeLeftTemps, supplicantTemp } from '../../src/adapters/system/temps.js';

const dir = tempDir('waved-temps-');
afterAll(() => dir.remove());

describe('the temp files a power cut left are removed at start', () => {
  it("removes ours and wpa_supplicant's <conf>.tmp (with its PSK), and keeps every real file", async () => {
    const root = dir.join('start');
    fs.mkdirSync(root, { recursive: true });
    const at = (name: string) => path.join(root, name);
    const conf = at('wpa_supplicant.conf');
    fs.writeFileSync(at('config.toml'), '[wifi]\n', { mode: 0o600 });
    fs.writeFileSync(at('.config.toml.0123456789ab.tmp'), '[wifi', { mode: 0o600 });
    fs.writeFileSync(at('.credentials.json.ba9876543210.tmp'), '{"slots":', { mode: 0o600 });
    fs.writeFileSync(conf, 'update_config=1\n', { mode: 0o600 });
    // what a cut between save_config's fdatasync and its rename leaves (umask 022 daemon: 0644)
    fs.writeFileSync(supplicantTemp(conf), 'network={\n\tpsk=' + 'ab'.repeat(32) + '\n}\n', { mode: 0o644 });
    // look-alikes that are not temps of these files
    fs.writeFileSync(at('.config.toml.notahexname.tmp'), 'x');
    fs.writeFileSync(at('other.conf.tmp'), 'x');

    const removed = await removeLeftTemps({
      atomic: [at('config.toml'), at('credentials.json'), at('missing/dir/file')],
      supplicantConfig: conf,
    });

    expect(removed).toBe(3);
    expect(fs.readdirSync(root).sort()).toEqual(
      ['.config.toml.notahexname.tmp', 'config.toml', 'other.conf.tmp', 'wpa_supplicant.conf'].sort(),
    );
    expect(fs.readFileSync(conf, 'utf8')).toBe('update_config=1\n');
  });

  it('reports a temp it cannot remove and goes on with the others', async () => {
    const root = dir.join('blocked');
    const conf = path.join(root, 'wpa.conf');
    // a directory where the daemon's temp file would be: unlink fails with EISDIR (or EPERM)
    fs.mkdirSync(supplicantTemp(conf), { recursive: true });
    fs.writeFileSync(path.join(root, '.a.0123456789ab.tmp'), 'x');
    const errors: string[] = [];
    const removed = await removeLeftTemps(
      { atomic: [path.join(root, 'a')], supplicantConfig: conf },
      (file) => errors.push(file),
    );
    expect(removed).toBe(1);
    expect(errors).toEqual([supplicantTemp(conf)]);
  });
});
