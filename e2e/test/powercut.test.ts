import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { needs } from '@waved/test-lab';
import { expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const runScript = path.resolve(here, '../powercut/run');
const CYCLES = 10;

const powercut = needs({
  root: true,
  peers: [
    'qemu-system-x86_64',
    'mkfs.ext4',
    'hostapd',
    'wpa_supplicant',
    'iw',
    'depmod',
    'cpio',
    'dpkg-deb',
    'readelf',
  ],
});

powercut.describe('power cuts: the device on an ext4 disk in a TCG VM, QEMU killed at random moments', () => {
  // Each boot takes 30-120 s under TCG, with the load of the machine; the run gets 240 s per boot.
  it(`survives ${CYCLES} power cuts: no torn file, no lost acknowledged record, every boot back to READY and its network`, {
    timeout: (CYCLES + 1) * 240_000 + 300_000,
  }, async () => {
    const cache = path.resolve(here, '../powercut/cache');
    const started = Date.now();
    const { code, out, err } = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
      const child = spawn('bash', [runScript, String(CYCLES)], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, WAVED_POWERCUT_CACHE: cache },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
      });
      child.on('exit', (c) => resolve({ code: c ?? 1, out, err }));
    });
    const report = err
      .split('\n')
      .filter((l) => l.startsWith('[powercut]'))
      .join('\n');
    console.log(
      `${report}\n${out.trim()}\n(${((Date.now() - started) / 1000).toFixed(0)} s wall with the image build)`,
    );
    const m =
      /^power cuts: (\d+), files checked: (\d+), torn: (\d+), lost acknowledged records: (\d+), failed boots: (\d+)$/m.exec(
        out,
      );
    expect(m, 'the summary line').not.toBeNull();
    const [cuts, files, torn, lost, failed] = m!.slice(1).map(Number);
    expect(cuts).toBe(CYCLES);
    // every boot after a cut checks the versioned files, the queue, the recording, the download and
    // the lease store
    expect(files).toBeGreaterThanOrEqual(CYCLES * 5);
    expect({ torn, lost, failed }).toEqual({ torn: 0, lost: 0, failed: 0 });
    const summary = JSON.parse(fs.readFileSync(path.join(cache, 'logs/summary.json'), 'utf8')) as {
      problems: string[];
    };
    expect(summary.problems).toEqual([]);
    expect(code).toBe(0);
  });
});
