import { runCommand } from '@waved/wpa-cli';

export {
  COMMAND_TIMEOUT_MS,
  type CommandResult,
  type CommandRunner,
  runChecked,
} from '../../core/ports/runner.js';
/** The real `CommandRunner` (child_process, argv, no shell, SIGKILL to the process group at the timeout). */
export { runCommand };
