import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeCodeBlocks, runReadmeExample } from '@waved/test-lab';
import { expect, it } from 'vitest';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

it('the README example talks to the reference server, prints what its comments say and exits', async () => {
  const { code, stdout, stderr } = await runReadmeExample(dir, { timeoutMs: 20_000 });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  // The signed descriptor call: the release the server was given, with a download URL on that server.
  const md5 = createHash('md5').update(new Uint8Array(1024)).digest('hex');
  const descriptor = stdout.slice(0, stdout.indexOf('\n}\n') + 3);
  expect(descriptor).toMatch(/^\{\n {2}version: '1\.2\.0',\n/);
  expect(descriptor).toMatch(
    /\n {2}download_url: 'http:\/\/127\.0\.0\.1:\d+\/app\/v1\/common\/package\/psp_firmware-1\.2\.0\.swu',\n/,
  );
  expect(descriptor).toContain(`\n  file_md5: '${md5}',\n`);
  // One telemetry event arrived, and the server rejected no request.
  expect(stdout.slice(descriptor.length)).toBe('1 {}\n');
});

it('the README example is 10 to 20 lines', () => {
  const lines = readmeCodeBlocks(path.join(dir, 'README.md'))[0]!.trimEnd().split('\n').length;
  expect(lines).toBeGreaterThanOrEqual(10);
  expect(lines).toBeLessThanOrEqual(20);
});
