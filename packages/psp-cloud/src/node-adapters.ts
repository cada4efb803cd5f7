// Adapters that touch the file system. Core logic takes these as injected functions.
import { nodeCrypto, nodeFs } from './builtins.js';
import { CloudError } from './errors.js';
import type { MacReader } from './log-key.js';
import type { UploadSource } from './upload-source.js';

/** Reads `/sys/class/net/<iface>/address` (or under another root, for tests). */
export function createSysfsMacReader(root = '/sys/class/net'): MacReader {
  return async (iface) => {
    if (!/^[A-Za-z0-9_.-]{1,15}$/.test(iface)) return undefined;
    try {
      return (await nodeFs().promises.readFile(`${root}/${iface}/address`, 'utf8')).trim();
    } catch {
      return undefined;
    }
  };
}

/**
 * An upload source for a file on disk: hashes it once (streaming), then reads the chunks it is asked
 * for. A file that changes size afterwards fails the read rather than sending other bytes.
 */
export async function fileUploadSource(path: string): Promise<UploadSource> {
  const hash = nodeCrypto().createHash('sha256');
  let size = 0;
  for await (const chunk of nodeFs().createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  const sha256 = hash.digest('hex');
  return {
    size,
    sha256,
    async read(offset, length) {
      const want = Math.max(0, Math.min(length, size - offset));
      const out = Buffer.alloc(want);
      const handle = await nodeFs().promises.open(path, 'r');
      try {
        let got = 0;
        while (got < want) {
          const { bytesRead } = await handle.read(out, got, want - got, offset + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        if (got !== want) {
          throw new CloudError('CLOUD_UPLOAD_SOURCE', `${path} is shorter than when it was hashed`);
        }
        return out;
      } finally {
        await handle.close();
      }
    },
  };
}
