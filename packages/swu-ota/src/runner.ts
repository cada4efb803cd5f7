import { OtaError } from './errors.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Kill the program after this long (default 10 s). */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv | undefined;
}

/**
 * Runs a program (argv, never a shell) and resolves with its exit status and output. A non-zero
 * exit resolves; a program that cannot start or outlives its timeout rejects with
 * `OTA_COMMAND_FAILED`. Inject your own to script openssl or swupdate in tests.
 */
export type CommandRunner = (
  file: string,
  args: readonly string[],
  options?: RunOptions,
) => Promise<RunResult>;

const MAX_OUTPUT = 1024 * 1024;

/** The default runner, on `child_process.spawn`. */
export const runCommand: CommandRunner = async (file, args, options = {}) => {
  // Loaded on first use, like the TLS stack: verify-only users keep a smaller process.
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const child = spawn(file, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += d;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new OtaError('OTA_COMMAND_FAILED', `cannot run ${file}: ${error.message}`, { cause: error }));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new OtaError('OTA_COMMAND_FAILED', `${file} did not finish within ${timeoutMs} ms`));
        return;
      }
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
};
