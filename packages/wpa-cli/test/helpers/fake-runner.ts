import type { CommandResult, CommandRunner } from '../../src/index.js';

export interface Call {
  file: string;
  args: string[];
  timeoutMs: number;
}

/**
 * A runner that answers from a script: each entry is the reply to the next call (a string is
 * stdout with exit 0; an object is a full result; a function sees the argv after `--`).
 */
export function scriptedRunner(
  script: Array<string | Partial<CommandResult> | ((cmd: string[]) => string | Partial<CommandResult>)>,
): CommandRunner & { calls: Call[] } {
  const calls: Call[] = [];
  const run = (async (file: string, args: readonly string[], options: { timeoutMs: number }) => {
    calls.push({ file, args: [...args], timeoutMs: options.timeoutMs });
    const step = script.shift();
    if (step === undefined) throw new Error(`unexpected call ${args.join(' ')}`);
    const cmd = args.slice(args.indexOf('--') + 1);
    const r = typeof step === 'function' ? step(cmd) : step;
    const full = typeof r === 'string' ? { stdout: r } : r;
    return { stdout: '', stderr: '', code: 0, ...full };
  }) as CommandRunner & { calls: Call[] };
  run.calls = calls;
  return run;
}
