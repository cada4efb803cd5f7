// `waved password recover` on the built CLI, against a cloud written here on plain node:http from
// the paths and fields docs/decisions.md gives (no code of @waved/psp-cloud on the cloud side).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPinRecord } from '@waved/psk';
import { tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, runCli as run } from '../helpers/build.js';

const CODE = '482913';
const FACTORY_SECRET = 'factory-secret-of-PSP0042';

interface Seen {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

/** The summary service of the cloud: registration, token refresh, send code, verify code. */
async function startFakeSummary() {
  const seen: Seen[] = [];
  const tokens = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const url = req.url ?? '';
      seen.push({ path: url, authorization: req.headers.authorization, body });
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method !== 'POST') return send(405, { error: { code: 'METHOD', message: 'POST only' } });
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      switch (url) {
        case '/summary-service/device/secret/register':
          if (body.secret !== FACTORY_SECRET) return send(403, { error: { code: 'SECRET', message: 'no' } });
          return send(200, {
            device_secret: crypto.randomBytes(32).toString('hex'),
            salt: crypto.randomBytes(16).toString('hex'),
          });
        case '/summary-service/device/token/refresh': {
          const token = crypto.randomBytes(24).toString('base64url');
          tokens.add(token);
          return send(200, { token, expires_in: 3600 });
        }
        case '/summary/service/device/password/recover/sendcode':
          if (!bearer || !tokens.has(bearer))
            return send(401, { error: { code: 'TOKEN', message: 'token' } });
          return send(200, { sent: body.serial === 'PSP0042' });
        case '/summary/service/device/password/recover/verifycode':
          if (!bearer || !tokens.has(bearer))
            return send(401, { error: { code: 'TOKEN', message: 'token' } });
          return send(200, { verified: body.serial === 'PSP0042' && body.code === CODE });
        default:
          return send(404, { error: { code: 'NOT_FOUND', message: url } });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('waved password recover', () => {
  const dir = tempDir('waved-password-');
  let cloud: Awaited<ReturnType<typeof startFakeSummary>>;
  let profile: string;
  const config = () => dir.join('config.toml');
  beforeAll(async () => {
    buildCli();
    cloud = await startFakeSummary();
    fs.writeFileSync(dir.join('factory-secret'), `${FACTORY_SECRET}\n`, { mode: 0o600 });
    fs.writeFileSync(config(), `[security]\ndevice_password = "${createPinRecord('1234')}"\n`, {
      mode: 0o600,
    });
    profile = dir.join('profile.toml');
    fs.writeFileSync(
      profile,
      [
        '[identity]',
        'serial = "PSP0042"',
        `factory_secret_file = "${dir.join('factory-secret')}"`,
        '[cloud]',
        `base_url = "${cloud.url}"`,
        '[paths]',
        `settings = "${config()}"`,
        `data_dir = "${dir.join('data')}"`,
        '',
      ].join('\n'),
    );
  }, 60_000);
  afterAll(async () => {
    await cloud?.close();
    dir.remove();
  });

  it('usage errors are one line on stderr and exit 2, and nothing is sent', async () => {
    for (const args of [
      ['password'],
      ['password', 'reset'],
      ['password', 'recover'],
      ['password', 'recover', '--send-code', '--verify-code', CODE],
      ['password', 'recover', '--verify-code', '12 34'],
      ['password', 'recover', '--verify-code', ''],
    ]) {
      const r = await run([...args, '--profile', profile]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.err).toMatch(/^waved: .*\(see waved --help\)\n$/);
    }
    expect(cloud.seen).toEqual([]);
  });

  it('--send-code registers the device when it must, takes a token and asks the cloud for a code', async () => {
    const r = await run(['password', 'recover', '--send-code', '--profile', profile, '--log-level', '5']);
    expect(r.code).toBe(0);
    expect(r.out).toBe('a recovery code was sent to the device owner\n');
    expect(cloud.seen.map((s) => s.path)).toEqual([
      '/summary-service/device/secret/register',
      '/summary-service/device/token/refresh',
      '/summary/service/device/password/recover/sendcode',
    ]);
    expect(cloud.seen[2]).toMatchObject({
      body: { serial: 'PSP0042' },
      authorization: expect.stringMatching(/^Bearer /),
    });
    // the credentials are kept (0600) for the next call and the device application
    const file = dir.join('data', 'credentials.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // what the cloud gave (device_secret, salt, token) is in that file, never in the log
    const held = JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: Record<string, string> };
    const secrets = Object.values(held.entries).filter((v) => v.length >= 16);
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    for (const secret of secrets) expect(r.err + r.out).not.toContain(secret);
    expect(r.err).toContain('password recovery: a code was sent to the owner');
  });

  it('a wrong code is refused (exit 1) and the device password stays', async () => {
    const before = fs.readFileSync(config(), 'utf8');
    const r = await run([
      'password',
      'recover',
      '--verify-code',
      '000000',
      '--profile',
      profile,
      '--log-level',
      '5',
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('the recovery code was not accepted\n');
    expect(fs.readFileSync(config(), 'utf8')).toBe(before);
    // registered already: no second registration
    expect(cloud.seen.filter((s) => s.path.endsWith('/register'))).toHaveLength(1);
    expect(r.err).not.toContain('000000');
  });

  it('the right code removes the device password; the code is never in the output or the log', async () => {
    const r = await run([
      'password',
      'recover',
      '--verify-code',
      CODE,
      '--profile',
      profile,
      '--log-level',
      '5',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^the recovery code was accepted: the device password is removed/);
    expect(cloud.seen.at(-1)).toMatchObject({
      path: '/summary/service/device/password/recover/verifycode',
      body: { serial: 'PSP0042', code: CODE },
    });
    expect(r.out + r.err).not.toContain(CODE);
    expect(r.err).not.toContain(FACTORY_SECRET);
    expect(fs.readFileSync(config(), 'utf8')).not.toMatch(/pin1\$/);
    expect(fs.statSync(config()).mode & 0o777).toBe(0o600);
  });
});
