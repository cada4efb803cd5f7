import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { tempDir } from '@waved/test-lab';
import type { Clock } from '../src/index.js';

/** A clock that only moves when told to; each timer records its delay, moves time on and fires at once. */
export function fakeClock(startMs = Date.now()): Clock & { sleeps: number[]; advance(ms: number): void } {
  let now = startMs;
  const sleeps: number[] = [];
  const cancelled = new Set<unknown>();
  return {
    sleeps,
    now: () => now,
    advance(ms) {
      now += ms;
    },
    setTimeout(fn, ms) {
      const handle = {};
      sleeps.push(ms);
      setImmediate(() => {
        if (cancelled.delete(handle)) return;
        now += ms;
        fn();
      });
      return handle;
    },
    clearTimeout(handle) {
      cancelled.add(handle);
    },
  };
}

/** A throw-away CA and a server certificate for 127.0.0.1 / localhost, made by openssl. */
export function makeTlsFixture(): { ca: string; key: string; cert: string; remove(): void } {
  const dir = tempDir('psp-cloud-tls-');
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir.path, stdio: 'pipe' });
  run([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=waved test CA',
  ]);
  run([
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'srv.key',
    '-out',
    'srv.csr',
    '-subj',
    '/CN=127.0.0.1',
  ]);
  fs.writeFileSync(
    dir.join('ext.cnf'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n',
  );
  run([
    'x509',
    '-req',
    '-in',
    'srv.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'srv.pem',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  ]);
  const read = (f: string) => fs.readFileSync(dir.join(f), 'utf8');
  return { ca: read('ca.pem'), key: read('srv.key'), cert: read('srv.pem'), remove: dir.remove };
}

/** A logger that keeps every line (message + JSON fields) so tests can look for leaked secrets. */
export function recordingLogger(): { lines: string[]; logger: Required<import('../src/index.js').Logger> } {
  const lines: string[] = [];
  const rec = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${fields ? JSON.stringify(fields) : ''}`);
  };
  return {
    lines,
    logger: { debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') },
  };
}

/** The shared manual clock: timers wait until `advance` moves time past them. */
export { manualClock } from '@waved/test-lab';
