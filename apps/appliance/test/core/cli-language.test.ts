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
    const screenPort = await freePort();
    const config = dir.join('config.toml');
    fs.writeFileSync(config, '[device]\nlanguage = "ja"\n', { mode: 0o600 });
    const child = spawn(
      process.execPath,
      [
        bin,
        'sim',
        '--port',
        String(port),
        '--screen-port',
        String(screenPort),
        '--no-cloud',
        '--config',
        config,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    child.stdout.resume();
    child.stderr.resume();
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Without a terminal the screen (it shows the setup password) is drawn only on the screen page.
    const screenUrl = `http://127.0.0.1:${screenPort}/`;
    const view = async () => {
      const res = await fetch(new URL('/view.json', screenUrl)).catch(() => null);
      return res?.ok ? ((await res.json()) as { screen: string; lang: string; title: string }) : null;
    };
    // The automatic Set up Wi-Fi of a new device, in Japanese.
    await waitFor(
      async () => {
        const v = await view();
        return v?.screen === 'setup' && v.lang === 'ja' && v.title === 'Wi-Fiを設定';
      },
      { timeoutMs: 20_000, what: 'the setup screen in Japanese' },
    );
    const form = await waitFor(
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/`).catch(() => null);
        return res?.status === 200 ? res.text() : null;
      },
      { what: 'the form' },
    );
    const csrf = /name="csrf"[^>]*value="([^"]+)"/.exec(form)?.[1] ?? '';
    const res = await fetch(`http://127.0.0.1:${port}/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ csrf, 'device.language': 'de' }).toString(),
    });
    expect(res.status).toBe(200);
    // The screen speaks German at once after the save.
    await waitFor(
      async () => {
        const v = await view();
        return v?.lang === 'de' && v.title === 'WLAN einrichten';
      },
      { timeoutMs: 5_000, what: 'the setup screen in German' },
    );
    expect(fs.readFileSync(config, 'utf8')).toMatch(/language = "de"/);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
