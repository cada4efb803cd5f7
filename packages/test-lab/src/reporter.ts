import type { Reporter, TestModule } from 'vitest/node';
import { SKIP_MARK } from './needs.js';

/**
 * Prints a loud, counted notice for tests skipped because a peer or root was missing, so a run on a
 * developer machine never looks greener than it is.
 */
export default class LabReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const reasons = new Map<string, number>();
    let total = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        if (test.result().state !== 'skipped') continue;
        const full = test.fullName;
        const at = full.indexOf(SKIP_MARK);
        if (at < 0) continue;
        const reason = full.slice(at + SKIP_MARK.length, full.indexOf(']', at)).trim();
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        total++;
      }
    }
    if (total === 0) return;
    const lines = [...reasons].map(([r, n]) => `  ${n} test(s): ${r}`).join('\n');
    process.stdout.write(
      `\n!!! ${total} test(s) NOT RUN because a real peer or root is missing (they count as skipped, not passed):\n${lines}\n` +
        '!!! Run as root after .ci/run has installed the Debian peers to run them. In CI they fail instead.\n\n',
    );
  }
}
