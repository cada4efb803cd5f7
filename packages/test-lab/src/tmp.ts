import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh private temp dir (mode 0700) that `remove()` deletes; prefix names the test. */
export function tempDir(prefix = 'waved-'): {
  path: string;
  join: (...p: string[]) => string;
  remove: () => void;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o700);
  return {
    path: dir,
    join: (...p) => path.join(dir, ...p),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A free TCP/UDP port number on loopback (best effort: bind 0 and release). */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
