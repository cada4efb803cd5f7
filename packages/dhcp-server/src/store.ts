import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DhcpError } from './errors.js';
import type { DhcpLease } from './pool.js';

/** Where the server keeps its lease table across restarts. */
export interface LeaseStore {
  /** Returns the saved leases (an empty list when nothing was saved yet). */
  load(): Promise<readonly DhcpLease[]> | readonly DhcpLease[];
  /** Replaces the saved leases; must be durable when the returned promise resolves. */
  save(leases: readonly DhcpLease[]): Promise<void> | void;
}

const FORMAT = 'waved-dhcp-leases/1';

/**
 * A JSON lease file written atomically: a temp file in the same directory (mode 0600), fsync,
 * rename over the old file, fsync of the directory. A power cut leaves the old or the new table.
 */
export function createFileLeaseStore(file: string): LeaseStore {
  return {
    async load() {
      let text: string;
      try {
        text = await fs.readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw new DhcpError('DHCP_STORE', `cannot read lease file ${file}`, { cause: error });
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new DhcpError(
          'DHCP_STORE',
          `lease file ${file} is not valid JSON; move it away to start empty`,
          {
            cause: error,
          },
        );
      }
      const doc = parsed as { format?: unknown; leases?: unknown };
      if (doc?.format !== FORMAT || !Array.isArray(doc.leases)) {
        throw new DhcpError('DHCP_STORE', `lease file ${file} is not a ${FORMAT} document`);
      }
      return doc.leases.filter((l): l is DhcpLease => typeof l === 'object' && l !== null);
    },
    async save(leases) {
      const dir = path.dirname(file);
      const tmp = path.join(dir, `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
      const body = JSON.stringify({ format: FORMAT, leases });
      try {
        const handle = await fs.open(tmp, 'wx', 0o600);
        try {
          await handle.writeFile(body, 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fs.rename(tmp, file);
        const dirHandle = await fs.open(dir, 'r');
        try {
          await dirHandle.sync();
        } finally {
          await dirHandle.close();
        }
      } catch (error) {
        await fs.rm(tmp, { force: true }).catch(() => {});
        throw new DhcpError('DHCP_STORE', `cannot write lease file ${file}`, { cause: error });
      }
    },
  };
}

/** A store that keeps the table in memory (for tests, or to hand leases from one server to the next). */
export function createMemoryLeaseStore(
  initial: readonly DhcpLease[] = [],
): LeaseStore & { saved: readonly DhcpLease[] } {
  const store = {
    saved: initial,
    load: () => store.saved,
    save(leases: readonly DhcpLease[]) {
      store.saved = leases.map((l) => ({ ...l }));
    },
  };
  return store;
}
