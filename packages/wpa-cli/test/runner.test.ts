import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tempDir } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { createWpaCli, runCommand } from '../src/index.js';

const dir = tempDir('wpa-cli-runner-');
afterAll(() => dir.remove());

/** True while the process exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function script(name: string, body: string): string {
  const path = dir.join(name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o700);
  return path;
}

describe('runCommand (the real runner)', () => {
  it('passes argv without a shell, and returns stdout, stderr and the exit code', async () => {
    const marker = dir.join('injected');
    const r = await runCommand(
      'sh',
      ['-c', 'printf "%s|" "$@"; echo err >&2; exit 3', 'sh', `$(touch ${marker})`, 'a b'],
      {
        timeoutMs: 5000,
      },
    );
    expect(r).toMatchObject({ stdout: `$(touch ${marker})|a b|`, stderr: 'err\n', code: 3, timedOut: false });
    expect(existsSync(marker)).toBe(false);
  });

  it('rejects when the program does not exist', async () => {
    await expect(runCommand(dir.join('missing'), [], { timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('does not wait for a background child that keeps stdout open after the program exits', async () => {
    const started = Date.now();
    const r = await runCommand('sh', ['-c', 'sleep 30 & echo $!; exit 0'], { timeoutMs: 400 });
    const sleeper = Number(r.stdout.trim());
    process.kill(sleeper, 'SIGKILL');
    expect(r).toMatchObject({ code: 0, timedOut: false });
    expect(sleeper).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('kills a program that floods stdout past 1 MiB instead of buffering it all', async () => {
    const r = await runCommand('sh', ['-c', 'exec head -c 8000000 /dev/zero'], { timeoutMs: 5000 });
    expect(r.code).toBeNull();
    expect(r.signal).toBe('SIGKILL');
    expect(r.stdout.length).toBeLessThanOrEqual(1024 * 1024);
  });
});

describe('a wedged wpa_cli', () => {
  it('is killed at the timeout, with everything it started, and the call fails with WPA_CLI_TIMEOUT', async () => {
    const pids = dir.join('pids');
    const fake = script('wpa_cli-wedged', `echo $$ > ${pids}\nsleep 1000 &\necho $! >> ${pids}\nwait`);
    const cli = createWpaCli({ iface: 'wl0', bin: fake, timeoutMs: 300 });
    const started = Date.now();
    await expect(cli.status()).rejects.toMatchObject({ code: 'WPA_CLI_TIMEOUT', command: 'status' });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
    const [shell, sleeper] = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(shell).toBeGreaterThan(0);
    expect(sleeper).toBeGreaterThan(0);
    // SIGKILL went to the whole process group; give the kernel a moment to finish the sleeper.
    for (let i = 0; i < 40 && (alive(shell!) || alive(sleeper!)); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(alive(shell!)).toBe(false);
    expect(alive(sleeper!)).toBe(false);
  });

  it('a missing wpa_cli is WPA_CLI_SPAWN', async () => {
    const cli = createWpaCli({ iface: 'wl0', bin: dir.join('no-such-wpa_cli') });
    await expect(cli.ping()).rejects.toMatchObject({ code: 'WPA_CLI_SPAWN' });
  });

  it('a fake wpa_cli that prints FAIL and exits 0 is WPA_CLI_FAIL (stdout is parsed on every call)', async () => {
    const fake = script('wpa_cli-fail', 'echo FAIL');
    await expect(createWpaCli({ iface: 'wl0', bin: fake }).saveConfig()).rejects.toMatchObject({
      code: 'WPA_CLI_FAIL',
    });
  });
});
