// Adapters that touch the file system. Core logic takes these as injected functions.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { MacReader } from './log-key.js';
import type { UploadSource } from './upload-source.js';

/** Reads `/sys/class/net/<iface>/address` (or under another root, for tests). */
export function createSysfsMacReader(root = '/sys/class/net'): MacReader {
  return async (iface) => {
    if (!/^[A-Za-z0-9_.-]{1,15}$/.test(iface)) return undefined;
    try {
      return (await fs.promises.readFile(`${root}/${iface}/address`, 'utf8')).trim();
    } catch {
      return undefined;
    }
  };
}

/** An upload source for a file on disk: hashes it once (streaming), then streams it per attempt. */
export async function fileUploadSource(path: string): Promise<UploadSource> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  const sha256 = hash.digest('hex');
  return {
    size,
    sha256,
    open: () => Readable.toWeb(fs.createReadStream(path)) as ReadableStream<Uint8Array>,
  };
}
