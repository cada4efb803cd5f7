import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import nodeFsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@waved/test-lab';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AtomicFs, isAtomicTemp, removeStaleTemps, syncDir, writeFileAtomic } from '../src/index.js';
import { ensurePrivateFileSync } from '../src/private-file.js';

const dir = tempDir('internal-atomic-');
afterAll(() => dir.remove());
const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('writeFileAtomic', () => {
  it('replaces the content, mode 0600 whatever the umask, and leaves no temp file', async () => {
    const file = path.join(dir.path, 'settings.toml');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    const umask = process.umask(0o000);
    try {
      await writeFileAtomic(file, 'new');
    } finally {
      process.umask(umask);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    expect(mode(file)).toBe(0o600);
    expect(fs.readdirSync(dir.path).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('gives the exact mode asked, even one the umask would narrow', async () => {
    const file = path.join(dir.path, 'public.txt');
    const umask = process.umask(0o077);
    try {
      await writeFileAtomic(file, new Uint8Array([1, 2, 3]), { mode: 0o640 });
    } finally {
      process.umask(umask);
    }
    expect(mode(file)).toBe(0o640);
  });

  it('a failed write (disk full) leaves the old file and no temp file', async () => {
    const file = path.join(dir.path, 'full.json');
    fs.writeFileSync(file, '{"v":1}');
    const fullDisk: AtomicFs = {
      ...nodeFsp,
      async open(p, flags, m) {
        const handle = await nodeFsp.open(p, flags, m);
        if (flags === 'r') return handle;
        handle.writeFile = async () => {
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        };
        return handle;
      },
    };
    await expect(writeFileAtomic(file, '{"v":2}', { fs: fullDisk })).rejects.toMatchObject({
      code: 'ENOSPC',
    });
    expect(fs.readFileSync(file, 'utf8')).toBe('{"v":1}');
    expect(fs.readdirSync(dir.path).filter((n) => isAtomicTemp(n, 'full.json'))).toEqual([]);
  });

  it('a failed rename leaves the old file and no temp file', async () => {
    const file = path.join(dir.path, 'rename.json');
    fs.writeFileSync(file, 'old');
    const failing: AtomicFs = {
      ...nodeFsp,
      rename: async () => {
        throw Object.assign(new Error('EXDEV'), { code: 'EXDEV' });
      },
    };
    await expect(writeFileAtomic(file, 'new', { fs: failing })).rejects.toMatchObject({ code: 'EXDEV' });
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
    expect(fs.readdirSync(dir.path).filter((n) => isAtomicTemp(n, 'rename.json'))).toEqual([]);
  });

  it('a directory fsync error is reported, except where the filesystem cannot fsync directories', async () => {
    const withSyncError = (code: string): AtomicFs => ({
      ...nodeFsp,
      async open(p, flags, m) {
        const handle = await nodeFsp.open(p, flags, m);
        if (flags === 'r')
          handle.sync = async () => {
            throw Object.assign(new Error(code), { code });
          };
        return handle;
      },
    });
    const file = path.join(dir.path, 'dirsync.txt');
    await expect(writeFileAtomic(file, 'a', { fs: withSyncError('EIO') })).rejects.toMatchObject({
      code: 'EIO',
    });
    await expect(writeFileAtomic(file, 'b', { fs: withSyncError('EINVAL') })).resolves.toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).toBe('b');
    await expect(syncDir(dir.path)).resolves.toBeUndefined();
  });

  it('removeStaleTemps removes only the temp files of that file', async () => {
    const sub = path.join(dir.path, 'stale');
    fs.mkdirSync(sub);
    const file = path.join(sub, 'leases.json');
    for (const name of ['.leases.json.0123456789ab.tmp', '.leases.json.fedcba987654.tmp'])
      fs.writeFileSync(path.join(sub, name), 'x');
    for (const name of [
      '.other.json.0123456789ab.tmp',
      '.leases.json.tmp',
      'leases.json',
      '.leases.json.zz23456789ab.tmp',
    ])
      fs.writeFileSync(path.join(sub, name), 'keep');
    expect(await removeStaleTemps(file)).toBe(2);
    expect(fs.readdirSync(sub).sort()).toEqual([
      '.leases.json.tmp',
      '.leases.json.zz23456789ab.tmp',
      '.other.json.0123456789ab.tmp',
      'leases.json',
    ]);
    expect(await removeStaleTemps(path.join(dir.path, 'missing-dir', 'x'))).toBe(0);
  });
});

// Each cycle runs a child that writes versions with the real writer and kills itself with SIGKILL at
// one of the writer's steps; the file must then hold the last complete version or the one being
// written, whole, mode 0600. 1000 kills in all, spread over every step.
describe('kill -9 at every step of a write', () => {
  const STEPS = [
    'before-open',
    'after-open',
    'after-chmod',
    'mid-write',
    'after-write',
    'after-fsync',
    'before-rename',
    'after-rename',
    'after-dirsync',
  ];
  const CYCLES = 1000;
  const PARALLEL = 4;
  // The child is bundled once into plain JavaScript: a thousand starts of Node cost less that way.
  const child = path.join(dir.path, 'atomic-child.mjs');
  beforeAll(async () => {
    await build({
      entryPoints: [fileURLToPath(new URL('./fixtures/atomic-child.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: child,
      logLevel: 'warning',
    });
  });

  const runChild = (args: string[]) =>
    new Promise<NodeJS.Signals | number | null>((resolve, reject) => {
      const p = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      p.stderr.on('data', (d: Buffer) => {
        err += d.toString();
      });
      p.on('exit', (code, signal) => {
        if (code) reject(new Error(`child failed (${code}): ${err}`));
        else resolve(signal ?? code);
      });
    });

  const parse = (data: Buffer) => {
    const nl = data.indexOf(10);
    const m = /^seq=(\d+);len=(\d+);sha256=([0-9a-f]{64})$/.exec(data.subarray(0, nl).toString());
    if (!m) return null;
    const payload = data.subarray(nl + 1);
    if (payload.length !== Number(m[2])) return null;
    if (createHash('sha256').update(payload).digest('hex') !== m[3]) return null;
    return Number(m[1]);
  };

  it(`${CYCLES} kills leave the old or the new version, never a mix, always 0600`, {
    timeout: 900_000,
  }, async () => {
    const results = { old: 0, new: 0 };
    const byStep = new Map<string, number>();
    const worker = async (w: number) => {
      const file = path.join(dir.path, `crash-${w}`, 'state.bin');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      let seq = 0;
      for (let cycle = w; cycle < CYCLES; cycle += PARALLEL) {
        const step = STEPS[cycle % STEPS.length] as string;
        const killAt = (cycle * 31) % 3; // kill in the 1st, 2nd or 3rd write of this child
        const signal = await runChild([file, String(seq + 1), '3', step, String(killAt)]);
        expect(signal).toBe('SIGKILL');
        const seen = fs.existsSync(file) ? parse(fs.readFileSync(file)) : 0;
        // Versions seq+1 .. seq+killAt are complete; the killed write is seq+killAt+1.
        const lastComplete = seq + killAt;
        expect(seen, `step ${step}, write ${killAt}`).not.toBeNull();
        expect([lastComplete, lastComplete + 1]).toContain(seen);
        if (fs.existsSync(file)) expect(mode(file)).toBe(0o600);
        results[seen === lastComplete ? 'old' : 'new']++;
        byStep.set(step, (byStep.get(step) ?? 0) + 1);
        // What the next start does: clean the temp files a crash left.
        await removeStaleTemps(file);
        expect(fs.readdirSync(path.dirname(file))).toEqual(fs.existsSync(file) ? ['state.bin'] : []);
        seq = seen ?? 0;
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, (_, w) => worker(w)));
    expect(results.old + results.new).toBe(CYCLES);
    // Kills before the rename keep the old version; kills after it show the new one: both happen.
    expect(results.old).toBeGreaterThan(0);
    expect(results.new).toBeGreaterThan(0);
    expect([...byStep.keys()].sort()).toEqual([...STEPS].sort());
  });
});

describe('ensurePrivateFileSync', () => {
  it('creates a missing file 0600 (and its parents 0700) whatever the umask, and keeps an existing one', () => {
    const file = path.join(dir.path, 'private', 'a', 'b', 'store.db');
    const umask = process.umask(0o000);
    try {
      ensurePrivateFileSync(file, { parents: true });
    } finally {
      process.umask(umask);
    }
    expect(mode(file)).toBe(0o600);
    expect(fs.statSync(file).size).toBe(0);
    for (const d of ['private', 'private/a', 'private/a/b']) expect(mode(path.join(dir.path, d))).toBe(0o700);
    fs.writeFileSync(file, 'kept');
    ensurePrivateFileSync(file, { parents: true });
    expect(fs.readFileSync(file, 'utf8')).toBe('kept');
  });

  it('takes group and other access away from an existing file and its companions, and only that', () => {
    const file = path.join(dir.path, 'wide.db');
    fs.writeFileSync(file, 'db', { mode: 0o644 });
    fs.writeFileSync(`${file}-wal`, 'wal', { mode: 0o666 });
    fs.writeFileSync(`${file}-shm`, 'shm', { mode: 0o400 });
    fs.chmodSync(file, 0o644);
    fs.chmodSync(`${file}-wal`, 0o666);
    ensurePrivateFileSync(file, { companions: ['-wal', '-shm', '-journal'] });
    expect([mode(file), mode(`${file}-wal`), mode(`${file}-shm`)]).toEqual([0o600, 0o600, 0o400]);
    expect(fs.existsSync(`${file}-journal`)).toBe(false);
    expect(fs.readFileSync(`${file}-wal`, 'utf8')).toBe('wal');
  });

  it('does not create missing parents unless asked', () => {
    expect(() => ensurePrivateFileSync(path.join(dir.path, 'nowhere', 'x.db'))).toThrow(/ENOENT/);
    expect(fs.existsSync(path.join(dir.path, 'nowhere'))).toBe(false);
  });
});
