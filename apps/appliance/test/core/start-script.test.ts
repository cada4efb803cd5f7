import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir, waitFor } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/build.js';

const repo = path.resolve(root, '../..');

/** PIDs of `waved` processes whose command line names `marker` (the run's private data directory). */
function wavedProcesses(marker: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv.some((a) => a.endsWith('bin/waved.js')) && argv.includes(marker)) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

describe('npm start', () => {
  const dir = tempDir('waved-npm-start-');
  afterAll(() => {
    for (const pid of wavedProcesses(dir.path)) process.kill(pid, 'SIGKILL');
    dir.remove();
  });

  it.each([
    ['SIGTERM', 'to the npm process'],
    ['SIGINT', 'to its process group (Ctrl-C in a terminal)'],
  ] as const)(
    '%s %s stops waved: no waved process is left and npm exits',
    async (signal, target) => {
      const data = dir.join(signal);
      const npm = spawn(
        'npm',
        ['start', '--silent', '--', '--no-cloud', '--port', '0', '--screen-port', '0', '--data-dir', data],
        {
          cwd: repo,
          env: { ...process.env, PATH: `${path.join(repo, 'node_modules/.bin')}:${process.env.PATH}` },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        },
      );
      let out = '';
      npm.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      const exited = new Promise<number | null>((r) => npm.on('exit', (code) => r(code)));
      await waitFor(() => /portal: http:\/\/127\.0\.0\.1:\d+\//.test(out), {
        timeoutMs: 120_000,
        what: 'waved sim to run under npm start',
      });
      expect(wavedProcesses(data)).toHaveLength(1);
      if (target === 'to the npm process') npm.kill(signal);
      else process.kill(-npm.pid!, signal);
      await exited;
      await waitFor(() => wavedProcesses(data).length === 0, { timeoutMs: 15_000, what: 'waved to stop' });
      expect(wavedProcesses(data)).toEqual([]);
    },
    180_000,
  );
});
