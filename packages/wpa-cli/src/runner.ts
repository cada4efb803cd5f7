import { spawn } from 'node:child_process';

/** What a finished (or killed) program left behind. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  /** Exit status; `null` when the program was ended by a signal. */
  code: number | null;
  /** The signal that ended the program, if any. */
  signal?: NodeJS.Signals | null;
  /** `true` when the runner killed the program because `timeoutMs` passed. */
  timedOut?: boolean;
}

export interface CommandRunOptions {
  /** Kill the program (and every process in its group) after this many milliseconds. */
  timeoutMs: number;
  /** Aborting kills the program the same way a timeout does. */
  signal?: AbortSignal;
}

/**
 * Runs one program from an argv array (never through a shell) and resolves with its output.
 * A runner rejects only when the program could not be started; a non-zero exit, a signal and a
 * timeout all resolve, so the caller decides what they mean.
 */
export type CommandRunner = (
  file: string,
  args: readonly string[],
  options: CommandRunOptions,
) => Promise<CommandResult>;

/** Output beyond this is dropped and the program is killed (a wpa_cli reply is at most 4 KiB). */
const RUN_OUTPUT_LIMIT = 1024 * 1024;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    // The child leads its own process group (detached), so this also ends anything it started,
    // e.g. the program behind `ip netns exec` or a shell wrapper.
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/**
 * The real runner: `child_process.spawn` with `shell: false`, stdin closed, stdout/stderr
 * collected as UTF-8, SIGKILL to the whole process group at the timeout or on abort.
 */
export const runCommand: CommandRunner = (file, args, options) =>
  new Promise<CommandResult>((resolve, reject) => {
    if (options.signal?.aborted) {
      resolve({ stdout: '', stderr: '', code: null, signal: 'SIGKILL', timedOut: true });
      return;
    }
    const child = spawn(file, [...args], {
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let done = false;

    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        code: exit?.code ?? null,
        signal: exit?.signal ?? (timedOut ? 'SIGKILL' : null),
        timedOut,
      });
    };
    const expire = () => {
      if (exit) {
        // The program ended but a descendant still holds its stdout open: stop waiting for it.
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
        return;
      }
      timedOut = true;
      killGroup(child.pid);
    };
    const onAbort = () => expire();
    const timer = setTimeout(expire, Math.max(0, options.timeoutMs));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > RUN_OUTPUT_LIMIT) {
        killGroup(child.pid);
        return;
      }
      into.push(chunk);
    };
    child.stdout?.on('data', collect(out));
    child.stderr?.on('data', collect(err));
    child.on('error', (error) => {
      if (child.pid === undefined && !done) {
        done = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        reject(error);
      }
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      finish();
    });
  });
