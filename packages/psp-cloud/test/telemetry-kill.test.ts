import { fileURLToPath } from 'node:url';
import { type Peer, startPeer, tempDir, waitFor } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { type CloudServer, createCloudServer, type ListeningServer } from '../src/server.js';

const hooks = fileURLToPath(new URL('./fixtures/ts-resolve.mjs', import.meta.url));
const sender = fileURLToPath(new URL('./fixtures/telemetry-sender.ts', import.meta.url));

// on each SQLite driver: better-sqlite3 and node:sqlite (`openNodeSqlite`)
describe.each(['better-sqlite3', 'node:sqlite'])(
  'telemetry survives kill -9 of the sender (%s)',
  (driver) => {
    const dir = tempDir('psp-cloud-kill-');
    const peers: Peer[] = [];
    let listening: ListeningServer | undefined;
    let release: () => void = () => {};
    afterAll(async () => {
      release();
      for (const p of peers) await p.stop(500);
      await listening?.close();
      dir.remove();
    });

    it('delivers every event exactly once after de-duplication', async () => {
      const N = 230;
      let batches = 0;
      let firstBatch: () => void = () => {};
      const firstBatchSeen = new Promise<void>((r) => {
        firstBatch = r;
      });
      const hold = new Promise<void>((r) => {
        release = r;
      });
      const server: CloudServer = createCloudServer({
        openRegistration: true,
        onTelemetryBatch: async () => {
          batches++;
          if (batches === 1) {
            // the batch is stored on the server; its answer never reaches the sender
            firstBatch();
            await hold;
          }
        },
      });
      listening = await server.listen();
      const run = (...args: string[]) => {
        const p = startPeer(
          process.execPath,
          ['--no-warnings', '--import', hooks, sender, dir.path, listening!.url, ...args],
          { env: { ...process.env, WAVED_SQLITE: driver } },
        );
        peers.push(p);
        return p;
      };

      const first = run('track', String(N));
      await firstBatchSeen;
      expect(first.output()).toContain(`tracked ${N}`);
      process.kill(first.pid, 'SIGKILL');
      expect(await first.exited).toBeNull();
      expect(server.telemetryStats()).toMatchObject({ batches: 1, received: 50 });

      const second = run('resume');
      const code = await Promise.race([
        second.exited,
        new Promise((r) => setTimeout(() => r('timeout'), 20_000)),
      ]);
      expect(code, second.output()).toBe(0);
      expect(second.output()).toContain('drained');

      const events = server.telemetry();
      const ids = events.map((e) => e.params.record_id);
      expect(events).toHaveLength(N);
      expect(new Set(events.map((e) => e.uuid)).size).toBe(N);
      expect([...ids].sort((a, b) => Number(a) - Number(b))).toEqual(
        Array.from({ length: N }, (_, i) => String(i)),
      );
      // the batch in flight at the kill was sent again and recognised
      const stats = server.telemetryStats();
      expect(stats.received).toBe(N);
      expect(stats.duplicates).toBe(50);
      await waitFor(() => true);
    });
  },
);
