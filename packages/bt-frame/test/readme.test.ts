import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeCodeBlocks, runReadmeExample } from '@waved/test-lab';
import { expect, it } from 'vitest';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

it('the README example runs and prints what its comments say', async () => {
  const { code, stdout, stderr } = await runReadmeExample(dir, { timeoutMs: 10_000 });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const lines = stdout.split('\n');
  // Both frames come out whole although each arrived split across pieces; the false start is reported.
  expect(lines.slice(0, 3)).toEqual(['2 0d312e30', '3 01', 'BT_FRAME_CHECKSUM']);
  const counters = lines.slice(3).join('\n');
  expect(counters.startsWith('{')).toBe(true);
  for (const field of ['bytes: 19,', 'frames: 2,', 'droppedBytes: 6,', 'checksumErrors: 1,', 'resyncs: 1']) {
    expect(counters).toContain(field);
  }
});

it('the README example is 10 to 20 lines', () => {
  const lines = readmeCodeBlocks(path.join(dir, 'README.md'))[0]!.trimEnd().split('\n').length;
  expect(lines).toBeGreaterThanOrEqual(10);
  expect(lines).toBeLessThanOrEqual(20);
});
