import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { OtaError } from './errors.js';
import { type CommandRunner, runCommand } from './runner.js';

export interface CmsOptions {
  run?: CommandRunner | undefined;
  /** openssl binary (default `openssl` on PATH). */
  openssl?: string | undefined;
  /** Directory for the short-lived private work directory (default the OS temp dir). */
  tmpDir?: string | undefined;
}

async function withWorkDir<T>(tmpDir: string | undefined, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(tmpDir ?? os.tmpdir(), 'swu-cms-'));
  try {
    await fs.chmod(dir, 0o700);
    return await fn(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines.find((l) => /error|fail|unable/i.test(l)) ?? lines.at(-1) ?? '').slice(0, 300);
}

/**
 * Checks a detached DER CMS signature of `content` against a trusted certificate (chain) PEM file,
 * with the S/MIME signing purpose SWUpdate uses by default (`--cert-purpose emailProtection`).
 * Resolves when valid; rejects with `OTA_SWU_SIGNATURE`.
 */
export async function verifyCmsSignature(
  content: Uint8Array,
  signature: Uint8Array,
  certificate: string,
  options: CmsOptions = {},
): Promise<void> {
  const run = options.run ?? runCommand;
  await withWorkDir(options.tmpDir, async (dir) => {
    const data = path.join(dir, 'content');
    const sig = path.join(dir, 'content.sig');
    await fs.writeFile(data, content, { mode: 0o600 });
    await fs.writeFile(sig, signature, { mode: 0o600 });
    const r = await run(options.openssl ?? 'openssl', [
      'cms',
      '-verify',
      '-binary',
      '-inform',
      'DER',
      '-in',
      sig,
      '-content',
      data,
      '-CAfile',
      certificate,
      '-purpose',
      'smimesign',
      '-out',
      path.join(dir, 'out'),
    ]);
    if (r.code !== 0) {
      throw new OtaError(
        'OTA_SWU_SIGNATURE',
        `CMS signature of sw-description rejected: ${lastLine(r.stderr)}`,
      );
    }
  });
}

export interface CmsSigner {
  /** PEM certificate of the signer. */
  certificate: string;
  /** PEM private key file of the signer (read by openssl only; never logged). */
  key: string;
}

/** Signs `content` as SWUpdate expects: detached DER CMS, binary, no S/MIME capabilities. */
export async function signCms(
  content: Uint8Array,
  signer: CmsSigner,
  options: CmsOptions = {},
): Promise<Buffer> {
  const run = options.run ?? runCommand;
  return withWorkDir(options.tmpDir, async (dir) => {
    const data = path.join(dir, 'content');
    const sig = path.join(dir, 'content.sig');
    await fs.writeFile(data, content, { mode: 0o600 });
    const r = await run(options.openssl ?? 'openssl', [
      'cms',
      '-sign',
      '-binary',
      '-nosmimecap',
      '-outform',
      'DER',
      '-in',
      data,
      '-out',
      sig,
      '-signer',
      signer.certificate,
      '-inkey',
      signer.key,
    ]);
    if (r.code !== 0)
      throw new OtaError('OTA_COMMAND_FAILED', `openssl cms -sign failed: ${lastLine(r.stderr)}`);
    return fs.readFile(sig);
  });
}
