import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, tempDir, waitFor } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/waved.js');

beforeAll(() => {
  // The CLI runs from dist: build it once (tsup, about a second).
  execFileSync(process.execPath, [path.join(root, '../../node_modules/tsup/dist/cli-default.js')], {
    cwd: root,
    stdio: 'ignore',
  });
}, 60_000);

describe('waved sim: the screens speak the device language', () => {
  const dir = tempDir('waved-cli-lang-');
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    dir.remove();
  });

  it('from the saved setting at boot, and a language saved through the portal shows at once', async () => {
    const port = await freePort();
    const config = dir.join('config.toml');
    fs.writeFileSync(config, '[device]\nlanguage = "ja"\n', { mode: 0o600 });
    const child = spawn(
      process.execPath,
      [bin, 'sim', '--port', String(port), '--screen-port', '0', '--no-cloud', '--config', config],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.resume();
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // The automatic Set up Wi-Fi of a new device, drawn in Japanese.
    await waitFor(() => out.includes('Wi-Fiを設定') && /パスワード：\s+[0-9a-f]{8}/.test(out), {
      timeoutMs: 20_000,
      what: 'the setup screen in Japanese',
    });
    const form = await waitFor(
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/`).catch(() => null);
        return res?.status === 200 ? res.text() : null;
      },
      { what: 'the form' },
    );
    const csrf = /name="csrf"[^>]*value="([^"]+)"/.exec(form)?.[1] ?? '';
    const drawnBefore = out.length;
    const res = await fetch(`http://127.0.0.1:${port}/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ csrf, 'device.language': 'de' }).toString(),
    });
    expect(res.status).toBe(200);
    // The next screen drawn after the save is German.
    await waitFor(() => out.slice(drawnBefore).includes('WLAN einrichten'), {
      timeoutMs: 5_000,
      what: 'the setup screen in German',
    });
    expect(fs.readFileSync(config, 'utf8')).toMatch(/language = "de"/);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
