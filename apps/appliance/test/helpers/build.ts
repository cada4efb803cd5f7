import { execFileSync } from 'node:child_process';
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
