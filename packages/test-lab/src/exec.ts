import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { LabError } from './errors.js';

export interface ExecResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs a program (argv, no shell) and resolves with its output; rejects on a non-zero exit unless `allowFail`. */
export function exec(
  file: string,
  args: readonly string[],
  options: { allowFail?: boolean; timeoutMs?: number; env?: NodeJS.ProcessEnv; input?: string | Buffer } = {},
): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      {
        timeout: options.timeoutMs ?? 30_000,
        env: options.env ?? process.env,
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        if (error && !options.allowFail) {
          reject(
            new LabError(
              'LAB_COMMAND_FAILED',
              `${file} ${args.join(' ')} failed (${code}): ${stderr || error.message}`,
              {
                cause: error,
              },
            ),
          );
          return;
        }
        resolve({ stdout, stderr, code });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

export interface Peer {
  readonly pid: number;
  readonly process: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves when the process has exited. */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it is gone. */
  stop(graceMs?: number): Promise<void>;
}

const livePeers = new Set<Peer>();

/** Starts a long-running peer process and tracks it by PID so `stopAllPeers` can clean up. */
export function startPeer(
  file: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Peer {
  const child = spawn(file, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.on('error', () => resolve(null));
  });
  const peer: Peer = {
    get pid() {
      return child.pid ?? -1;
    },
    process: child,
    output: () => out,
    exited,
    async stop(graceMs = 2000) {
      livePeers.delete(peer);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  livePeers.add(peer);
  return peer;
}

/** Kills a process by PID (for daemons that fork and write a pid file). */
export async function killPid(pid: number, graceMs = 2000): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

export async function stopAllPeers(): Promise<void> {
  await Promise.all([...livePeers].map((p) => p.stop()));
}
