// The committed prebuilds are what the source builds to: rebuilding them with the same compilers
// gives the same bytes (scripts/build-prebuilds.mjs --check).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { needs } from '@waved/test-lab';
import { expect, it } from 'vitest';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

needs({ peers: ['x86_64-linux-gnu-gcc', 'aarch64-linux-gnu-gcc', 'arm-linux-gnueabihf-gcc'] }).describe(
  'reproducible prebuilds',
  () => {
    it('rebuilding linux-x64, linux-arm64 and linux-arm from native/ gives the committed bytes', async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [path.join(pkg, 'scripts/build-prebuilds.mjs'), '--check'],
        { cwd: pkg },
      );
      expect(stdout.trim().split('\n')).toEqual([
        expect.stringMatching(/^linux-x64: committed \w{16} rebuilt \w{16} same$/),
        expect.stringMatching(/^linux-arm64: committed \w{16} rebuilt \w{16} same$/),
        expect.stringMatching(/^linux-arm: committed \w{16} rebuilt \w{16} same$/),
      ]);
    }, 120_000);
  },
);
