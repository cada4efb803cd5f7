import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeCodeBlocks, runReadmeExample } from '@waved/test-lab';
import { expect, it } from 'vitest';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const exampleDirs = () => new Set(fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('swu-example-')));

it('the README example builds and verifies a .swu, prints what its comments say and removes its files', async () => {
  const before = exampleDirs();
  const { code, stdout, stderr } = await runReadmeExample(dir, { timeoutMs: 10_000 });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const sha256 = createHash('sha256').update('a root filesystem image').digest('hex');
  expect(stdout.split('\n')).toEqual([`1.2.3 rootfs.img ${sha256}`, 'OTA_MD5_MISMATCH', '']);
  expect([...exampleDirs()].filter((n) => !before.has(n))).toEqual([]);
});

it('the README example is 10 to 20 lines', () => {
  const lines = readmeCodeBlocks(path.join(dir, 'README.md'))[0]!.trimEnd().split('\n').length;
  expect(lines).toBeGreaterThanOrEqual(10);
  expect(lines).toBeLessThanOrEqual(20);
});
