import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeCodeBlocks, runReadmeExample } from '@waved/test-lab';
import { expect, it } from 'vitest';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

it('the README example answers node:dns on loopback, prints what its comments say and exits', async () => {
  const started = performance.now();
  const { code, stdout, stderr } = await runReadmeExample(dir, { timeoutMs: 10_000 });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout.split('\n')).toEqual(["[ '192.168.2.1' ]", 'ENODATA', 'ENOTFOUND', '3', '']);
  // It closes its sockets: the process ends by itself, long before the runner's timeout.
  expect(performance.now() - started).toBeLessThan(5_000);
});

it('the README example is 10 to 20 lines', () => {
  const lines = readmeCodeBlocks(path.join(dir, 'README.md'))[0]!.trimEnd().split('\n').length;
  expect(lines).toBeGreaterThanOrEqual(10);
  expect(lines).toBeLessThanOrEqual(20);
});
