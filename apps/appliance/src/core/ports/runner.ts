import type { CommandResult, CommandRunner } from '@waved/wpa-cli';
import { ApplianceError } from '../errors.js';

/**
 * The `CommandRunner` port is the one of @waved/wpa-cli (argv, no shell, SIGKILL to the process group
 * at the timeout); the appliance adds the spec's 10 s default and a checked variant.
 */
export type { CommandResult, CommandRunner };

/** The time limit of every external command. */
export const COMMAND_TIMEOUT_MS = 10_000;

/** Runs a program with the 10 s limit and throws unless it exited 0 (output tail in the message). */
export async function runChecked(
  run: CommandRunner,
  file: string,
  args: readonly string[],
  timeoutMs = COMMAND_TIMEOUT_MS,
): Promise<CommandResult> {
  const result = await run(file, args, { timeoutMs }).catch((error: unknown) => {
    throw new ApplianceError(
      'APPLIANCE_COMMAND_SPAWN',
      `could not start ${file}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  });
  if (result.timedOut) {
    throw new ApplianceError(
      'APPLIANCE_COMMAND_TIMEOUT',
      `${file} ${args[0] ?? ''} did not finish within ${timeoutMs} ms and was killed`,
    );
  }
  if (result.code !== 0) {
    const lines = `${result.stdout}\n${result.stderr}`
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    // hostapd prints the reason first (`Line 7: …`), then a summary: keep the telling lines.
    const telling = lines.filter((l) => /^Line \d+:|error|fail|invalid|unknown/i.test(l));
    const tail = (telling.length > 0 ? telling.slice(0, 3) : lines.slice(-3)).join(' | ');
    throw new ApplianceError(
      'APPLIANCE_COMMAND_FAILED',
      `${file} ${args[0] ?? ''} exited with ${result.code ?? result.signal}${tail ? `: ${tail}` : ''}`,
    );
  }
  return result;
}
