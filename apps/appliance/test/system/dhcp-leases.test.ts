import dgram from 'node:dgram';
import fs from 'node:fs';
import { encodeMessage, MessageType, Option, parseIpv4 } from '@waved/dhcp-server';
import { freePort, tempDir, waitFor } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';
import { createSystemRadio } from '../../src/adapters/system/radio.js';

const dir = tempDir('waved-dhcp-leases-');
afterAll(() => dir.remove());

/** A REQUEST for `address` from `mac` (INIT-REBOOT: the phone asks again for what it held). */
function requestFor(address: string, mac: number) {
  const chaddr = new Uint8Array(16);
  chaddr.set([2, 0, 0, 0, 0, mac]);
  return encodeMessage({
    op: 1,
    htype: 1,
    hlen: 6,
    hops: 0,
    xid: 0x5151 + mac,
    secs: 0,
    flags: 0,
    ciaddr: parseIpv4(address),
    yiaddr: 0,
    siaddr: 0,
    giaddr: 0,
    chaddr,
    sname: new Uint8Array(0),
    file: new Uint8Array(0),
    options: new Map([[Option.MESSAGE_TYPE, Uint8Array.of(MessageType.REQUEST)]]),
  });
}

describe("the setup network's DHCP leases are kept on disk", () => {
  it('writes each hand-over to the lease file (0600) and restores it at the next start', async () => {
    const leaseFile = dir.join('data', 'dhcp-leases.json');
    const port = await freePort();
    const radio = () =>
      createSystemRadio({
        gateway: '127.0.0.1',
        bindDhcpToInterface: false,
        dhcpPort: port,
        dhcpLeaseFile: leaseFile,
      });
    const client = dgram.createSocket('udp4');
    await new Promise<void>((r) => client.bind(0, '127.0.0.1', r));
    try {
      const first = radio();
      await first.startDhcpServer();
      client.send(requestFor('127.0.0.77', 1), port, '127.0.0.1');
      await waitFor(
        () => fs.existsSync(leaseFile) && fs.readFileSync(leaseFile, 'utf8').includes('127.0.0.77'),
        {
          timeoutMs: 5000,
        },
      );
      expect(fs.statSync(leaseFile).mode & 0o777).toBe(0o600);
      await first.stopDhcpServer();

      // after the restart the table is back: the holder keeps its address and it is written again
      const before = fs.readFileSync(leaseFile, 'utf8');
      const second = radio();
      await second.startDhcpServer();
      client.send(requestFor('127.0.0.78', 2), port, '127.0.0.1');
      await waitFor(() => fs.readFileSync(leaseFile, 'utf8').includes('127.0.0.78'), { timeoutMs: 5000 });
      const after = fs.readFileSync(leaseFile, 'utf8');
      expect(before).toContain('127.0.0.77');
      expect(after).toContain('127.0.0.77');
      await second.stopDhcpServer();

      // a table that cannot be read does not keep the setup network down
      fs.writeFileSync(leaseFile, '{"format":"garbage"', { mode: 0o600 });
      const warnings: string[] = [];
      const third = createSystemRadio({
        gateway: '127.0.0.1',
        bindDhcpToInterface: false,
        dhcpPort: port,
        dhcpLeaseFile: leaseFile,
        logger: { warn: (m: string) => warnings.push(m) },
      });
      await third.startDhcpServer();
      await third.stopDhcpServer();
      expect(warnings.join('\n')).toMatch(/DHCP leases not restored/);
    } finally {
      client.close();
    }
  });
});
