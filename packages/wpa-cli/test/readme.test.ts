import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeCodeBlocks, runReadmeExample } from '@waved/test-lab';
import { expect, it } from 'vitest';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

it('the README example runs without wpa_supplicant and prints what its comments say', async () => {
  const { code, stdout, stderr } = await runReadmeExample(dir, { timeoutMs: 10_000 });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout.split('\n')).toEqual([
    'true Café 📶 <Buffer 43 61 66 c3 a9 20 f0 9f 93 b6>',
    'good',
    'TestAP 2.4GHz -30 psk excellent',
    '(hidden) 5GHz -72 sae weak',
    '<Buffer 61 22 62 ff> a"b\\xff',
    '',
  ]);
});

it('the first example uses only the pure parts; driving wpa_supplicant comes in a later block', () => {
  const [first, daemon] = readmeCodeBlocks(path.join(dir, 'README.md'));
  const lines = first!.trimEnd().split('\n').length;
  expect(lines).toBeGreaterThanOrEqual(10);
  expect(lines).toBeLessThanOrEqual(20);
  expect(first).not.toMatch(/createWpaCli|provisionNetwork/);
  expect(daemon).toMatch(/createWpaCli\(/);
});
