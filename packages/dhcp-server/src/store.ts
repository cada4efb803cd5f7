import fs from 'node:fs/promises';
import { removeStaleTemps, writeFileAtomic } from '@waved/internal';
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
 * A JSON lease file written atomically (the one writer of the waved packages): a temp file in the
 * same directory (mode 0600), fsync, rename over the old file, fsync of the directory. A power cut
 * leaves the old or the new table; `load()` removes the temp file such a cut left.
 */
export function createFileLeaseStore(file: string): LeaseStore {
  return {
    async load() {
      let text: string;
      try {
        // a temp file a power cut left during a save (the file itself is the old or the new table)
        await removeStaleTemps(file);
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
      try {
        await writeFileAtomic(file, JSON.stringify({ format: FORMAT, leases }), { mode: 0o600 });
      } catch (error) {
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
