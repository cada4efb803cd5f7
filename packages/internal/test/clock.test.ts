import { describe, expect, it, vi } from 'vitest';
import { type Clock, monotonicClock, sleep, systemClock } from '../src/index.js';

describe('systemClock', () => {
  it('tells the time and runs one-shot timers that can be cancelled', async () => {
    const before = Date.now();
    expect(systemClock.now()).toBeGreaterThanOrEqual(before);
    const fired: string[] = [];
    const a = systemClock.setTimeout(() => fired.push('a'), 5);
    systemClock.setTimeout(() => fired.push('b'), 5);
    systemClock.clearTimeout(a);
    await new Promise((r) => setTimeout(r, 30));
    expect(fired).toEqual(['b']);
  });
});

describe('monotonicClock', () => {
  it('tells epoch milliseconds that never go back, and runs timers', async () => {
    expect(Math.abs(monotonicClock.now() - Date.now())).toBeLessThan(60_000);
    let last = monotonicClock.now();
    for (let i = 0; i < 1000; i++) {
      const t = monotonicClock.now();
      expect(t).toBeGreaterThanOrEqual(last);
      last = t;
    }
    const fired = await new Promise<number>((resolve) =>
      monotonicClock.setTimeout(() => resolve(monotonicClock.now()), 10),
    );
    expect(fired - last).toBeGreaterThanOrEqual(9);
  });
});

describe('sleep', () => {
  it('waits on the given clock, so a manual clock drives it', async () => {
    const timers: Array<{ at: number; fn: () => void }> = [];
    let now = 0;
    const manual: Clock = {
      now: () => now,
      setTimeout: (fn, ms) => timers.push({ at: now + ms, fn }),
      clearTimeout: () => {},
    };
    const done = vi.fn();
    void sleep(manual, 300_000).then(done);
    now = 300_000;
    for (const t of timers.splice(0)) if (t.at <= now) t.fn();
    await Promise.resolve();
    expect(done).toHaveBeenCalled();
  });

  it('rejects with the abort reason and cancels its timer', async () => {
    const cleared: unknown[] = [];
    const clock: Clock = { ...systemClock, clearTimeout: (h) => cleared.push(h) };
    const controller = new AbortController();
    const p = sleep(clock, 60_000, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(p).rejects.toThrow('stopped');
    expect(cleared).toHaveLength(1);
    await expect(sleep(clock, 1, controller.signal)).rejects.toThrow('stopped');
  });
});

describe('systemClock keeps the process alive while a timer is pending', () => {
  it('a script whose only work is a backoff still finishes it', async () => {
    const { spawnSync } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const script = `import { sleep, systemClock } from ${JSON.stringify(dist)}; await sleep(systemClock, 50); console.log('retried');`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('retried');
    expect(r.status).toBe(0);
  });
});
