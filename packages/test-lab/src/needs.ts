import { execFileSync } from 'node:child_process';
import { describe, inject, it } from 'vitest';
import { LabError } from './errors.js';

declare module 'vitest' {
  interface ProvidedContext {
    /**
     * Which vitest project runs the file: `unit` (cached by turbo, `npm run test:unit`) or `lab`
     * (real peers or root, never cached, `npm run test:lab`). Set by `provide` in vitest.config.ts.
     */
    testKind?: 'unit' | 'lab';
  }
}

export interface Requirement {
  /** The test needs uid 0 (network namespaces, port 53/67, chmod checks). */
  root?: boolean;
  /** Programs that must be on PATH (`wpa_supplicant`, `dig`, ...). */
  peers?: readonly string[];
}

export interface Gate {
  readonly ok: boolean;
  /** Why the requirement is not met ('' when it is). */
  readonly reason: string;
  /**
   * `describe` that runs when the requirement is met. When it is not: in CI (CI=true) the suite
   * fails with the reason; elsewhere it is skipped and its name carries `[SKIPPED: reason]`, which
   * the test-lab reporter counts and prints loudly at the end of the run.
   */
  describe(name: string, fn: () => void): void;
}

export const SKIP_MARK = '[SKIPPED:';

export function isCi(): boolean {
  const v = process.env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

export function hasProgram(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v "$1"`, 'sh', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function needs(req: Requirement): Gate {
  const missing: string[] = [];
  if (req.root && process.getuid?.() !== 0) missing.push('root');
  for (const p of req.peers ?? []) if (!hasProgram(p)) missing.push(p);
  const ok = missing.length === 0;
  const reason = ok ? '' : `needs ${missing.join(', ')}`;
  return {
    ok,
    reason,
    describe(name, fn) {
      // A unit run is cached by turbo, keyed on the sources only: a suite that depends on the
      // machine's peers or on root must never be replayed from that cache.
      if (inject('testKind') === 'unit') {
        throw new LabError(
          'LAB_UNIT_PROJECT',
          `${name}: needs() in a unit test file; list the file under \`lab\` in vitest.config.ts (lab tests are never cached)`,
        );
      }
      if (ok) {
        describe(name, fn);
      } else if (isCi()) {
        describe(name, () => {
          it('has its real peers', () => {
            throw new Error(
              `${name}: ${reason} (CI=true: a missing peer is a failure; .ci/run installs them)`,
            );
          });
        });
      } else {
        describe.skip(`${name} ${SKIP_MARK} ${reason}]`, fn);
      }
    },
  };
}
