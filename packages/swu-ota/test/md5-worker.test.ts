import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { tempDir } from '@waved/test-lab';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// Which MD5 verifySwu uses by default: a worker thread only when a second core can run it.
const calls = vi.hoisted(() => ({ worker: 0, inline: 0 }));
vi.mock('../src/md5.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/md5.js')>();
  return {
    ...real,
    createMd5Worker: (...args: Parameters<typeof real.createMd5Worker>) => {
      calls.worker++;
      return real.createMd5Worker(...args);
    },
    createMd5: (...args: Parameters<typeof real.createMd5>) => {
      calls.inline++;
      return real.createMd5(...args);
    },
  };
});
const { buildSwu, verifySwu } = await import('../src/index.js');

describe('verifySwu MD5 placement', () => {
  const tmp = tempDir('swu-md5-');
  let file: string;
  let sum: string;
  beforeAll(async () => {
    fs.writeFileSync(tmp.join('a.img'), crypto.randomBytes(100_000));
    file = tmp.join('p.swu');
    await buildSwu({
      description: { software: { version: '1', images: [{ filename: 'a.img', type: 'raw' }] } },
      files: [{ name: 'a.img', path: tmp.join('a.img') }],
      output: file,
    });
    sum = crypto.createHash('md5').update(fs.readFileSync(file)).digest('hex');
  });
  afterAll(() => tmp.remove());
  afterEach(() => {
    vi.restoreAllMocks();
    calls.worker = 0;
    calls.inline = 0;
  });

  it('hashes inline when the process may use one core only (taskset, cgroup, single-core device)', async () => {
    vi.spyOn(os, 'availableParallelism').mockReturnValue(1);
    expect((await verifySwu(file, { md5: sum })).md5).toBe(sum);
    expect(calls).toEqual({ worker: 0, inline: 1 });
  });

  it('hashes in a worker when a second core is available', async () => {
    vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
    expect((await verifySwu(file, { md5: sum })).md5).toBe(sum);
    expect(calls).toEqual({ worker: 1, inline: 0 });
  });

  it('follows md5Worker when it is given', async () => {
    vi.spyOn(os, 'availableParallelism').mockReturnValue(1);
    await verifySwu(file, { md5: sum, md5Worker: true });
    vi.spyOn(os, 'availableParallelism').mockReturnValue(4);
    await verifySwu(file, { md5: sum, md5Worker: false });
    expect(calls).toEqual({ worker: 1, inline: 1 });
  });
});
