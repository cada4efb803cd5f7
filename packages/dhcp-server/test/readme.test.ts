import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeCodeBlocks, runReadmeExample } from '@waved/test-lab';
import { expect, it } from 'vitest';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

it('the README example runs without root or a socket and prints what its comments say', async () => {
  const { code, stdout, stderr } = await runReadmeExample(dir, { timeoutMs: 10_000 });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout.split('\n')).toEqual([
    // The OFFER: the first pool address, broadcast to the client port.
    '192.168.2.50 255.255.255.255 68',
    // The ACK carries the captive-portal URI (option 114).
    'true http://192.168.2.1/portal',
    '{ size: 151, free: 150, offered: 0, bound: 1, declined: 0 }',
    '',
  ]);
});

it('the README example is 10 to 20 lines', () => {
  const lines = readmeCodeBlocks(path.join(dir, 'README.md'))[0]!.trimEnd().split('\n').length;
  expect(lines).toBeGreaterThanOrEqual(10);
  expect(lines).toBeLessThanOrEqual(20);
});
