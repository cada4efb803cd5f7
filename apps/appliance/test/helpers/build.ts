import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The appliance package directory. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built CLI, as `npm start` and the device run it. */
export const bin = path.join(root, 'bin/waved.js');

/** Builds dist/ from src/ (JavaScript only, about a second), so the tests run what ships. */
export function buildCli(): void {
  execFileSync(process.execPath, [path.join(root, '../../node_modules/tsup/dist/cli-default.js')], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, WAVED_FAST_BUILD: '1' },
  });
}

/** Runs the built CLI to its exit and collects what it printed. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}
