import fs from 'node:fs/promises';
import net from 'node:net';
import { LabError } from './errors.js';

/** Polls `check` until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  {
    timeoutMs = 10_000,
    intervalMs = 25,
    what = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new LabError('LAB_TIMEOUT', `timed out after ${timeoutMs} ms waiting for ${what}`, {
        cause: last,
      });
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Waits until a path exists (a unix socket, a pid file). */
export async function waitForPath(path: string, timeoutMs = 10_000): Promise<true> {
  await waitFor(
    () =>
      fs.stat(path).then(
        () => true,
        () => false,
      ),
    { timeoutMs, what: path },
  );
  return true;
}

/** Waits until a TCP port accepts connections. */
export async function waitForTcp(port: number, host = '127.0.0.1', timeoutMs = 10_000): Promise<true> {
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const s = net.connect({ port, host });
        s.once('connect', () => {
          s.destroy();
          resolve(true);
        });
        s.once('error', () => resolve(false));
      }),
    { timeoutMs, what: `tcp ${host}:${port}` },
  );
  return true;
}

/** Reads a pid file once it is written and non-empty. */
export async function readPidFile(path: string, timeoutMs = 10_000): Promise<number> {
  const text = await waitFor(
    async () => {
      const t = (await fs.readFile(path, 'utf8')).trim();
      return t.length > 0 ? t : '';
    },
    { timeoutMs, what: `pid file ${path}` },
  );
  return Number.parseInt(text, 10);
}
