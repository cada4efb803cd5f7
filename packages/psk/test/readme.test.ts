import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runReadmeExample } from '@waved/test-lab';
import { expect, it } from 'vitest';

it('the README example runs and prints what its comments say', async () => {
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { code, stdout, stderr } = await runReadmeExample(dir);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const lines = stdout.trim().split('\n');
  expect(lines[0]).toBe('f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e');
  expect(lines[1]).toMatch(/^[0-9a-f]{64}$/);
  expect(lines[2]).toBe('PSK_PASSPHRASE_LENGTH');
  expect(lines[3]).toBe('true true false');
  expect(lines[4]).toBe('hashed');
});
