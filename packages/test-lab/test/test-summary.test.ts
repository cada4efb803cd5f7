// scripts/test-summary.mjs on logs recorded from real turbo + vitest runs
// (fixtures/test-summary/record.mjs): every way a run can go wrong must show in the closing lines
// and, under CI=true, in the exit status.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exec, tempDir } from '../src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const script = path.resolve(here, '../../../scripts/test-summary.mjs');
const fixtures = path.join(here, 'fixtures/test-summary');

async function summary(log: string, ci: boolean, root = path.join(fixtures, 'repo')) {
  const env = { ...process.env, CI: ci ? 'true' : '' };
  const r = await exec(process.execPath, [script, '--root', root, log], { allowFail: true, env });
  const lines = r.stdout.trimEnd().split('\n');
  return { code: r.code, out: r.stdout, last: lines.at(-1) ?? '' };
}
const fixture = (name: string) => path.join(fixtures, `${name}.txt`);

describe('test summary', () => {
  it('passes a run where every workspace task reports and every test passed', async () => {
    for (const ci of [true, false]) {
      const r = await summary(fixture('all-pass'), ci);
      expect(r.out).toContain('test summary: 4 of 4 workspace test runs finished (test:unit, test:lab)');
      expect(r.last).toBe(
        '4 passed, 0 failed, 0 skipped, 0 todo; 0 failed file(s), 0 unhandled error(s), 0 missing run(s)',
      );
      expect(r.code).toBe(0);
    }
  });

  it('counts unit runs that turbo replayed from its cache', async () => {
    const log = fs.readFileSync(fixture('cached'), 'utf8');
    expect(log).toContain('@fx/case:test:unit: cache hit, replaying logs');
    const r = await summary(fixture('cached'), true);
    expect(r.out).toContain('4 of 4 workspace test runs finished');
    expect(r.code).toBe(0);
  });

  it.each([
    ['failed-file', '@fx/case#test:unit: 1 test file(s) failed', /^5 passed, 1 failed, 0 skipped/],
    // beforeAll threw: vitest counts the suite's tests as skipped, the file as failed.
    ['before-all', '@fx/case#test:lab: 1 test file(s) failed', /^4 passed, 0 failed, 2 skipped/],
    // the file never loaded: no test of it failed, only the file.
    ['import-failure', '@fx/case#test:unit: 1 test file(s) failed', /1 failed file\(s\)/],
    ['ci-missing-peer', '@fx/case#test:lab: 1 test(s) failed', /^4 passed, 1 failed/],
    ['errors', '@fx/case#test:unit: 1 unhandled error(s)', /1 unhandled error\(s\)/],
    ['missing-workspace', '@fx/case#test:unit: did not report', /2 missing run\(s\)/],
    ['no-continue', '@fx/good#test:unit: started but printed no "Test Files" line', /NOT OK$/],
  ])('fails %s with or without CI', async (name, problem, total) => {
    for (const ci of [true, false]) {
      const r = await summary(fixture(name), ci);
      expect(r.out).toContain(`  ! ${problem}`);
      expect(r.last).toMatch(total);
      expect(r.last).toMatch(/NOT OK$/);
      expect(r.code).toBe(1);
    }
  });

  it('names the failed build of a workspace whose tests then never ran', async () => {
    const r = await summary(fixture('missing-workspace'), true);
    expect(r.out).toContain('  ! @fx/case#build: turbo reports the task failed');
    expect(r.out).toContain('  ! @fx/case#test:lab: did not report');
    expect(r.out).toContain('test summary: 2 of 4 workspace test runs finished');
  });

  it.each([
    ['skipped', '@fx/case#test:lab: 1 test(s) skipped (CI=true: every test must run)', /1 skipped, 0 todo/],
    ['todo', '@fx/case#test:unit: 1 todo test(s) (CI=true: every test must run)', /0 skipped, 1 todo/],
  ])('fails %s tests under CI=true only', async (name, problem, total) => {
    const inCi = await summary(fixture(name), true);
    expect(inCi.out).toContain(`  ! ${problem}`);
    expect(inCi.last).toMatch(total);
    expect(inCi.code).toBe(1);
    const local = await summary(fixture(name), false);
    expect(local.out).not.toContain('  ! ');
    expect(local.last).toMatch(total);
    expect(local.code).toBe(0);
  });

  it('fails a plain vitest log whose closing lines show a failed file but no failed test', async () => {
    const dir = tempDir('summary-');
    try {
      const log = dir.join('vitest.log');
      fs.writeFileSync(log, ' Test Files  1 failed | 1 passed (2)\n      Tests  3 passed (3)\n');
      const r = await summary(log, true, path.join(fixtures, 'repo'));
      expect(r.out).toContain('  ! vitest: 1 test file(s) failed');
      expect(r.code).toBe(1);
    } finally {
      dir.remove();
    }
  });

  it('reports a workspace whose tests npm test never runs (a "test" script only)', async () => {
    const dir = tempDir('summary-root-');
    try {
      fs.writeFileSync(dir.join('package.json'), JSON.stringify({ workspaces: ['packages/*', 'tools'] }));
      for (const [where, scripts] of [
        ['packages/good', { 'test:unit': 'vitest run --project unit' }],
        ['packages/old', { test: 'vitest run' }],
        ['tools', {}],
      ] as const) {
        fs.mkdirSync(dir.join(where), { recursive: true });
        const name = `@fx/${path.basename(where)}`;
        fs.writeFileSync(dir.join(where, 'package.json'), JSON.stringify({ name, scripts }));
      }
      const log = dir.join('run.log');
      fs.writeFileSync(
        log,
        '@fx/good:test:unit:  Test Files  1 passed (1)\n@fx/good:test:unit:       Tests  2 passed (2)\n',
      );
      const r = await summary(log, false, dir.path);
      expect(r.out).toContain('test summary: 1 of 1 workspace test runs finished');
      expect(r.out).toContain(
        '  ! @fx/old: has a "test" script but no test:unit/test:lab script, so npm test never runs it',
      );
      expect(r.code).toBe(1);
    } finally {
      dir.remove();
    }
  });
});
