import { spawn } from 'node:child_process';
import { ApplianceError } from './errors.js';
import type { Logger } from './log/logger.js';

/** What a finished command left behind. A non-zero `code` is not an error at this level. */
export interface RunResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface RunOptions {
  /** Default: the runner's timeout (10 s, spec Limits). */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  input?: string;
}

/**
 * The `CommandRunner` port: runs one program as an argv array (never through a shell), kills it with
 * SIGKILL when it runs past the timeout, and rejects only on timeout or spawn failure.
 */
export type CommandRunner = (
  file: string,
  args: readonly string[],
  options?: RunOptions,
) => Promise<RunResult>;

export const COMMAND_TIMEOUT_MS = 10_000;

export interface CommandRunnerOptions {
  timeoutMs?: number;
  logger?: Pick<Logger, 'debug'>;
  /** Upper bound on captured output per stream; the rest is dropped. */
  maxOutputBytes?: number;
}

/** The real adapter of the `CommandRunner` port (child_process). */
export function createCommandRunner(options: CommandRunnerOptions = {}): CommandRunner {
  const defaultTimeout = options.timeoutMs ?? COMMAND_TIMEOUT_MS;
  const max = options.maxOutputBytes ?? 1024 * 1024;
  return (file, args, runOptions = {}) =>
    new Promise<RunResult>((resolve, reject) => {
      const timeoutMs = runOptions.timeoutMs ?? defaultTimeout;
      options.logger?.debug(`run ${file} ${args.join(' ')}`);
      const child = spawn(file, args, {
        env: runOptions.env ?? process.env,
        stdio: [runOptions.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let settled = false;
      let exitCode: number | null = null;
      child.stdout?.on('data', (d: Buffer) => {
        if (stdout.length < max) stdout += d.toString('utf8');
      });
      child.stderr?.on('data', (d: Buffer) => {
        if (stderr.length < max) stderr += d.toString('utf8');
      });
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(grace);
        fn();
      };
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        finish(() =>
          reject(
            new ApplianceError(
              'APPLIANCE_COMMAND_TIMEOUT',
              `${file} did not finish within ${timeoutMs} ms and was killed; check that the program is not wedged`,
            ),
          ),
        );
      }, timeoutMs);
      let grace: NodeJS.Timeout | undefined;
      child.on('error', (error) =>
        finish(() =>
          reject(
            new ApplianceError('APPLIANCE_COMMAND_SPAWN', `could not start ${file}: ${error.message}`, {
              cause: error,
            }),
          ),
        ),
      );
      // A daemonising program (`hostapd -B`) can leave a grandchild holding the pipes: resolve shortly
      // after the exit even when the streams stay open.
      child.on('exit', (code, signal) => {
        exitCode = code ?? (signal ? 128 : 1);
        grace = setTimeout(() => finish(() => resolve({ stdout, stderr, code: exitCode ?? 1 })), 200);
      });
      child.on('close', (code, signal) => {
        const c = exitCode ?? code ?? (signal ? 128 : 1);
        finish(() => resolve({ stdout, stderr, code: c }));
      });
      if (runOptions.input !== undefined) child.stdin?.end(runOptions.input);
    });
}

/** Runs and throws `APPLIANCE_COMMAND_FAILED` on a non-zero exit (output tail in the message). */
export async function runChecked(
  run: CommandRunner,
  file: string,
  args: readonly string[],
  options?: RunOptions,
): Promise<RunResult> {
  const result = await run(file, args, options);
  if (result.code !== 0) {
    const tail = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-3).join(' | ');
    throw new ApplianceError(
      'APPLIANCE_COMMAND_FAILED',
      `${file} ${args[0] ?? ''} exited with ${result.code}${tail ? `: ${tail}` : ''}`,
    );
  }
  return result;
}
