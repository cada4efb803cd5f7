import type { SetClock } from '../../core/ports/clock.js';
import { type CommandRunner, runChecked } from '../../core/ports/runner.js';

/** Sets the system clock with `date -u -s @<seconds>` (busybox and GNU date both accept it). */
export function createRunnerClock(run: CommandRunner): SetClock {
  return async (date) => {
    await runChecked(run, 'date', ['-u', '-s', `@${Math.round(date.getTime() / 1000)}`]);
  };
}
