import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import { exec, isCi, needs, SKIP_MARK } from '../src/index.js';
import LabReporter from '../src/reporter.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/needs');
const vitestBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

/** Runs the fixtures in a vitest of their own, as a developer or CI would, and returns its output. */
async function runFixtures(env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(VITEST|CI$|FORCE_COLOR|NODE_OPTIONS)/.test(k)),
  );
  const r = await exec(process.execPath, [vitestBin, 'run', '--root', fixtures], {
    allowFail: true,
    timeoutMs: 90_000,
    env: { ...clean, NO_COLOR: '1', ...env },
  });
  return { code: r.code, out: (r.stdout + r.stderr).replace(/\x1b\[[0-9;]*m/g, '') };
}

describe('isCi', () => {
  const saved = process.env.CI;
  afterEach(() => {
    if (saved === undefined) delete process.env.CI;
    else process.env.CI = saved;
  });

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['TRUE', true],
    ['', false],
    ['0', false],
    ['false', false],
    ['False', false],
  ])('CI=%j is %s', (value, expected) => {
    process.env.CI = value;
    expect(isCi()).toBe(expected);
  });

  it('is false when CI is not set', () => {
    delete process.env.CI;
    expect(isCi()).toBe(false);
  });
});

describe('needs', () => {
  afterEach(() => vi.restoreAllMocks());

  it('names every missing peer in its reason', () => {
    const gate = needs({ peers: ['sh', 'waved-no-such-peer', 'waved-nor-this'] });
    expect(gate.ok).toBe(false);
    expect(gate.reason).toBe('needs waved-no-such-peer, waved-nor-this');
  });

  it('is met when every peer is on PATH', () => {
    const gate = needs({ peers: ['sh', 'ls'] });
    expect(gate.ok).toBe(true);
    expect(gate.reason).toBe('');
  });

  it('asks for root when the process is not uid 0', () => {
    vi.spyOn(process, 'getuid').mockReturnValue(1000);
    expect(needs({ root: true }).reason).toBe('needs root');
    vi.spyOn(process, 'getuid').mockReturnValue(0);
    expect(needs({ root: true }).ok).toBe(true);
  });

  it('skips a suite whose peer is missing outside CI, and the reporter counts it loudly', async () => {
    const { code, out } = await runFixtures({ CI: '' });
    expect(out).toMatch(/Tests\s+1 passed \| 2 skipped \(3\)/);
    expect(out).toContain('!!! 2 test(s) NOT RUN because a real peer or root is missing');
    expect(out).toContain('  2 test(s): needs waved-no-such-peer');
    expect(code).toBe(0);
  });

  it('fails a suite whose peer is missing under CI=true, naming the peer', async () => {
    const { code, out } = await runFixtures({ CI: 'true' });
    expect(out).toContain(
      'against a peer that is not installed: needs waved-no-such-peer (CI=true: a missing peer is a failure',
    );
    expect(out).toMatch(/Tests\s+1 failed \| 1 passed \(2\)/);
    expect(out).not.toContain('NOT RUN');
    expect(code).toBe(1);
  });

  it('refuses to gate a suite in the unit project, whose results turbo caches', async () => {
    const { code, out } = await runFixtures({ CI: '', FIXTURE_TEST_KIND: 'unit' });
    expect(out).toContain('needs() in a unit test file; list the file under `lab` in vitest.config.ts');
    expect(code).toBe(1);
  });
});

describe('the skip reporter', () => {
  afterEach(() => vi.restoreAllMocks());

  const test = (fullName: string, state: string) => ({ fullName, result: () => ({ state }) });
  const modules = (...tests: ReturnType<typeof test>[]) =>
    [{ children: { allTests: () => tests } }] as unknown as TestModule[];

  function report(mods: TestModule[]): string {
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    new LabReporter().onTestRunEnd(mods);
    vi.restoreAllMocks();
    return out;
  }

  it('counts tests skipped for a missing peer, grouped by reason', () => {
    const out = report(
      modules(
        test(`dig ${SKIP_MARK} needs root, dig] > answers A`, 'skipped'),
        test(`dig ${SKIP_MARK} needs root, dig] > answers AAAA`, 'skipped'),
        test(`pty ${SKIP_MARK} needs socat] > echoes`, 'skipped'),
        test('codec > round-trips', 'passed'),
      ),
    );
    expect(out).toContain('!!! 3 test(s) NOT RUN because a real peer or root is missing');
    expect(out).toContain('  2 test(s): needs root, dig\n');
    expect(out).toContain('  1 test(s): needs socat\n');
  });

  it('leaves out tests skipped for other reasons and tests that ran', () => {
    const out = report(modules(test('codec > later', 'skipped'), test('codec > now', 'passed')));
    expect(out).toBe('');
  });

  it('does not count a marked suite whose tests ran', () => {
    expect(report(modules(test(`x ${SKIP_MARK} needs dig] > y`, 'passed')))).toBe('');
  });
});
