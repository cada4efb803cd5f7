// The real `dig` against our server on a loopback port, and the same queries against dnsmasq
// (`--address=/#/192.168.2.1 --local=/#/`) where the two are meant to agree.
import { freePort, killPid, needs, readPidFile, startPeer, tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CaptiveDns, createCaptiveDns } from '../src/index.js';
import { type DigReply, dig } from './dig.js';
import { TRANSPORTS, transportDescribe } from './helpers.js';

const ANSWER = '192.168.2.1';
// The longest legal name: 255 octets on the wire (RFC 1035 §2.3.4), in mixed case.
const LONG = ['A'.repeat(63), 'b'.repeat(63), 'C'.repeat(63), 'd'.repeat(61)].join('.');

const lab = needs({ root: true, peers: ['dig', 'dnsmasq'] });

for (const transport of TRANSPORTS) {
  transportDescribe(
    transport,
    'captive-dns with dig (and dnsmasq as the reference)',
    () => {
      let server: CaptiveDns;
      let ours = 0;
      let peer = 0;
      let peerPid = 0;
      const tmp = tempDir('captive-dns-dig-');

      beforeAll(async () => {
        server = createCaptiveDns({ answer: ANSWER, port: 0, rateLimit: false, transport });
        ours = (await server.listen()).port;
        peer = await freePort();
        const pidFile = tmp.join('dnsmasq.pid');
        const dm = startPeer('dnsmasq', [
          '--conf-file=/dev/null',
          '--no-resolv',
          '--no-hosts',
          '--listen-address=127.0.0.1',
          '--bind-interfaces',
          `--port=${peer}`,
          `--address=/#/${ANSWER}`,
          '--local=/#/',
          '--cache-size=0',
          `--pid-file=${pidFile}`,
          '--user=root',
        ]);
        await dm.exited; // dnsmasq daemonises; the daemon's PID is in the pid file
        peerPid = await readPidFile(pidFile);
      });

      afterAll(async () => {
        await server?.close();
        if (peerPid) await killPid(peerPid);
        tmp.remove();
      });

      const both = async (args: string[]): Promise<[DigReply, DigReply]> =>
        Promise.all([dig(ours, args), dig(peer, args)]);

      /** What a client acts on: status, flags, question and answer records, EDNS presence. */
      const visible = (r: DigReply) => ({
        status: r.status,
        flags: r.flags,
        question: r.question,
        answer: r.answer,
        edns: r.edns !== null,
      });

      it.each([
        ['A', ['connectivitycheck.gstatic.com', 'A']],
        ['ANY (only the A record, RFC 8482)', ['foo.example', 'ANY']],
        ['mixed-case name (0x20 kept)', ['CoNnEcTiViTyChEcK.GsTaTiC.CoM', 'A']],
        ['A over TCP', ['captive.apple.com', 'A', '+tcp']],
        ['A with EDNS version 0', ['www.msftconnecttest.com', 'A', '+edns=0']],
        ['A without EDNS', ['nmcheck.gnome.org', 'A', '+noedns']],
        ['the longest legal name', [LONG, 'A']],
      ])('%s: agrees with dnsmasq', async (_, args) => {
        const [a, b] = await both(args);
        expect(visible(a)).toEqual(visible(b));
        expect(a.status).toBe('NOERROR');
        expect(a.flags).toEqual(['aa', 'qr', 'ra', 'rd']);
        expect(a.answer).toHaveLength(1);
        expect(a.answer[0]!.slice(1)).toEqual(['0', 'IN', 'A', ANSWER]);
        // The owner name is the question name, byte for byte (dig prints it as it came).
        expect(a.answer[0]![0]).toBe(`${args[0]}.`);
        expect(a.question[0]).toBe(`${args[0]}. IN ${args[1] === 'ANY' ? 'ANY' : 'A'}`);
      });

      it.each([['AAAA'], ['HTTPS'], ['SVCB'], ['TXT'], ['MX']])(
        '%s: NOERROR with no answer like dnsmasq, plus the SOA of RFC 2308',
        async (type) => {
          const [a, b] = await both(['Foo.Example', type]);
          expect([a.status, a.counts.answer]).toEqual(['NOERROR', 0]);
          expect([b.status, b.counts.answer]).toEqual(['NOERROR', 0]);
          expect(a.question).toEqual(b.question);
          expect(a.flags).toEqual(['aa', 'qr', 'ra', 'rd']);
          expect(a.authority).toHaveLength(1);
          expect(a.authority[0]!.slice(0, 4)).toEqual(['.', '0', 'IN', 'SOA']);
        },
      );

      it('AAAA over TCP is NODATA too', async () => {
        const r = await dig(ours, ['foo.example', 'AAAA', '+tcp']);
        expect([r.status, r.counts.answer, r.counts.authority]).toEqual(['NOERROR', 0, 1]);
      });

      it('EDNS version 1 gets BADVERS with our OPT at version 0 (dnsmasq ignores the version)', async () => {
        const r = await dig(ours, ['foo.example', 'A', '+edns=1', '+noednsnegotiation']);
        expect(r.status).toBe('BADVERS');
        expect(r.edns).toEqual({ version: 0, flags: '', udp: 1232 });
        expect(r.counts.answer).toBe(0);
      });

      it('echoes the OPT record with our UDP size and the DO bit', async () => {
        const r = await dig(ours, ['foo.example', 'A', '+dnssec']);
        expect(r.edns).toEqual({ version: 0, flags: 'do', udp: 1232 });
        expect(r.counts.answer).toBe(1);
      });

      it('use-application-dns.net is NXDOMAIN in any case, with an SOA (turns off Firefox DoH)', async () => {
        for (const name of ['use-application-dns.net', 'USE-Application-DNS.net']) {
          const r = await dig(ours, [name, 'A']);
          expect(r.status).toBe('NXDOMAIN');
          expect(r.flags).toContain('aa');
          expect(r.authority[0]!.slice(3, 4)).toEqual(['SOA']);
        }
        // A longer name under it is an ordinary name.
        expect((await dig(ours, ['x.use-application-dns.net', 'A'])).status).toBe('NOERROR');
      });

      it('opcode STATUS gets NOTIMP', async () => {
        const r = await dig(ours, ['foo.example', 'A', '+opcode=status']);
        expect(r.status).toBe('NOTIMP');
        expect(r.opcode).toBe('STATUS');
      });

      it('class CH is REFUSED (we only serve IN)', async () => {
        const r = await dig(ours, ['version.bind', 'CH', 'TXT']);
        expect(r.status).toBe('REFUSED');
      });

      it('without EDNS the largest reply (longest name, NODATA + SOA) fits 512 bytes', async () => {
        const r = await dig(ours, [LONG, 'AAAA', '+noedns', '+ignore']);
        expect(r.flags).not.toContain('tc');
        expect(r.counts.authority).toBe(1);
        const size = Number(/MSG SIZE\s+rcvd: (\d+)/.exec(r.raw)?.[1]);
        expect(size).toBeGreaterThan(255);
        expect(size).toBeLessThanOrEqual(512);
      });

      it('counted every query it answered', () => {
        const s = server.stats();
        expect(server.transport).toBe(transport);
        expect(s.handlerErrors).toBe(0);
        expect(s.socketErrors).toBe(0);
        expect(s.tcpQueries).toBeGreaterThanOrEqual(2);
        expect(s.udpQueries).toBeGreaterThan(15);
        expect(s.badvers).toBeGreaterThanOrEqual(1);
        expect(s.nxdomain).toBeGreaterThanOrEqual(2);
      });
    },
    lab,
  );
}
