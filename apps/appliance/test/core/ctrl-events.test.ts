// The control-socket event monitor against a real wpa_supplicant (`-D wired` on a veth, lab.md §1):
// ATTACH over the unix datagram socket of @waved/native, then the daemon's own events arrive.
import fs from 'node:fs';
import {
  createNetns,
  createVethPair,
  killPid,
  type Netns,
  needs,
  readPidFile,
  tempDir,
  waitFor,
} from '@waved/test-lab';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCtrlEventMonitor } from '../../src/adapters/system/ctrl-events.js';
import type { StationEvent } from '../../src/core/ports/radio.js';

needs({ root: true, peers: ['wpa_supplicant', 'wpa_cli', 'ip'] }).describe(
  'wpa_supplicant control socket events',
  () => {
    const dir = tempDir('waved-ctrl-');
    let sta: Netns;
    let peer: Netns;
    let pid = 0;
    const ctrl = dir.join('ctrl');
    const wpaCli = (...args: string[]) => sta.exec('wpa_cli', ['-i', 'wl0', '-p', ctrl, '--', ...args]);

    beforeAll(async () => {
      sta = await createNetns('wvctl');
      peer = await createNetns('wvctp');
      await createVethPair({ ns: sta, name: 'wl0' }, { ns: peer, name: 'wl0p' });
      fs.writeFileSync(dir.join('wpa.conf'), `ctrl_interface=DIR=${ctrl} GROUP=root\nap_scan=0\n`, {
        mode: 0o600,
      });
      await sta.exec('wpa_supplicant', [
        ...['-B', '-D', 'wired', '-i', 'wl0', '-c', dir.join('wpa.conf')],
        ...['-P', dir.join('wpa.pid'), '-f', dir.join('wpa.log')],
      ]);
      pid = await readPidFile(dir.join('wpa.pid'));
      await waitFor(() => fs.existsSync(`${ctrl}/wl0`), { what: 'the control socket' });
    }, 30_000);

    afterAll(async () => {
      if (pid) await killPid(pid);
      await sta?.remove();
      await peer?.remove();
      dir.remove();
    });

    it('ATTACHes and turns CTRL-EVENT-CONNECTED and -DISCONNECTED into station events', async () => {
      const monitor = createCtrlEventMonitor({ socketPath: `${ctrl}/wl0`, reattachMs: 500 });
      const events: StationEvent[] = [];
      monitor.onEvent((e) => events.push(e));
      monitor.start();
      try {
        await waitFor(async () => (await wpaCli('ping')).stdout.includes('PONG'));
        const id = (await wpaCli('add_network')).stdout.trim();
        await wpaCli('set_network', id, 'ssid', '"waved-ctrl"');
        await wpaCli('set_network', id, 'key_mgmt', 'NONE');
        await new Promise((r) => setTimeout(r, 600)); // one re-ATTACH period: attached for sure
        await wpaCli('enable_network', id);
        await waitFor(() => events.some((e) => e.type === 'connected'), {
          timeoutMs: 10_000,
          what: 'connected',
        });
        await wpaCli('disable_network', id);
        await waitFor(() => events.some((e) => e.type === 'disconnected'), {
          timeoutMs: 10_000,
          what: 'disconnected',
        });
        expect(events.slice(0, 2)).toEqual([{ type: 'connected', ssid: null }, { type: 'disconnected' }]);
      } finally {
        monitor.stop();
      }
    });
  },
);
