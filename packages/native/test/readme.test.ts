import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runReadmeExample } from '@waved/test-lab';
import { expect, it } from 'vitest';

it('the README example runs and prints what its comments say', async () => {
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { code, stdout, stderr } = await runReadmeExample(dir);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout.trim().split('\n')).toEqual(['true', 'PONG PING']);
});
