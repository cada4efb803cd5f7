// Real clients against the server in a namespace pair (lab.md §3): udhcpc, dhclient and dhcpcd in
// `phone`, the server bound to ap0 in `ap`, neither namespace with a default route.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createNetns,
  createVethPair,
  ifindex,
  killPid,
  type Netns,
  needs,
  type Peer,
  readPidFile,
  startPeer,
  tempDir,
  waitFor,
} from '@waved/test-lab';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DhcpLease, DhcpStats } from '../src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const lab = needs({ root: true, peers: ['ip', 'udhcpc', 'dhclient', 'dhcpcd', 'tcpdump'] });

interface State {
  listen: { address: string; port: number; ifindex?: number };
  stats: DhcpStats;
  leases: DhcpLease[];
}
interface ClientResult {
  acked: { mac: string; address: string }[];
  refused: { mac: string; discovers: number }[];
  naks: number;
  declined: { address: string; next: string | null } | null;
}

lab.describe('DHCP server in a namespace pair with udhcpc, dhclient and dhcpcd', () => {
  const dir = tempDir('dhcp-lab-');
  let ap: Netns;
  let phone: Netns;
  // A unique name on the phone side: dhcpcd keeps /var/lib/dhcpcd/<ifname>.lease outside the namespace.
  const PH = `ph${crypto.randomBytes(3).toString('hex')}`;
  const servers: Peer[] = [];
  const daemonPids: number[] = [];

  async function startServer(name: string, config: Record<string, unknown>) {
    const ctl = dir.join(`${name}.sock`);
    const peer = startPeer(
      'ip',
      ['netns', 'exec', ap.name, process.execPath, dir.join('server.mjs'), JSON.stringify(config), ctl],
      { env: { ...process.env, NODE_NO_WARNINGS: '1' } },
    );
    servers.push(peer);
    await waitFor(() => peer.output().includes('"ready"') || peer.output().includes('"error"'), {
      what: `server ${name}`,
    });
    const state = () =>
      new Promise<State>((resolve, reject) => {
        const c = net.connect(ctl);
        let text = '';
        c.setEncoding('utf8');
        c.on('data', (d) => {
          text += d;
        });
        c.on('end', () => resolve(JSON.parse(text) as State));
        c.on('error', reject);
        c.write('state\n');
      });
    return { peer, state, ctl };
  }

  async function rawClients(args: Record<string, unknown>): Promise<ClientResult> {
    const { stdout } = await phone.exec(
      process.execPath,
      [dir.join('client.mjs'), JSON.stringify({ iface: PH, ...args })],
      {
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
        timeoutMs: 20_000,
      },
    );
    return JSON.parse(stdout.trim().split('\n').pop()!) as ClientResult;
  }

  const CONFIG = {
    serverAddress: '192.168.2.1',
    netmask: '255.255.255.0',
    range: ['192.168.2.50', '192.168.2.200'],
    leaseSeconds: 43200,
    router: '192.168.2.1',
    dns: '192.168.2.1',
    captivePortalUri: 'http://192.168.2.1/portal',
    interface: 'ap0',
  };
  const PORTAL_HEX = Buffer.from('http://192.168.2.1/portal').toString('hex');
  let main: Awaited<ReturnType<typeof startServer>>;

  const flush = () => phone.exec('ip', ['-4', 'addr', 'flush', 'dev', PH]);
  const log = (name: string) =>
    fs.existsSync(dir.join(name)) ? fs.readFileSync(dir.join(name), 'utf8') : '';
  /** udhcpc on the phone in the foreground (5 tries, 2 s apart) with the logging script; `extra` goes before `-s`. */
  const udhcpc = (...extra: string[]) =>
    startPeer('ip', [
      'netns',
      'exec',
      phone.name,
      'udhcpc',
      '-i',
      PH,
      '-f',
      '-t',
      '5',
      '-T',
      '2',
      ...extra,
      '-s',
      dir.join('udhcpc.sh'),
    ]);

  beforeAll(async () => {
    // The fixtures run in the namespaces as separate Node processes: bundle them from source.
    // @waved/native stays external, loaded from its built package, which finds its prebuilds there.
    const native = fileURLToPath(import.meta.resolve('@waved/native'));
    await build({
      entryPoints: {
        server: path.join(here, 'fixtures/server-main.ts'),
        client: path.join(here, 'fixtures/client-main.ts'),
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      outdir: dir.path,
      outExtension: { '.js': '.mjs' },
      logLevel: 'error',
      plugins: [
        {
          name: 'native-by-path',
          setup(b) {
            b.onResolve({ filter: /^@waved\/native$/ }, () => ({ path: native, external: true }));
          },
        },
      ],
    });
    ap = await createNetns('dhap');
    phone = await createNetns('dhph');
    await createVethPair({ ns: ap, name: 'ap0', address: '192.168.2.1/24' }, { ns: phone, name: PH });
    const hooks: Record<string, string> = {
      'udhcpc.sh': `#!/bin/sh
echo "$1 ip=$ip mask=$mask router=$router dns=$dns lease=$lease serverid=$serverid opt114=$opt114" >> ${dir.join('udhcpc.log')}
case "$1" in
  deconfig) ip -4 addr flush dev "$interface"; ip link set "$interface" up ;;
  bound|renew) ip -4 addr flush dev "$interface"; ip addr add "$ip/\${mask:-24}" dev "$interface" ;;
esac
exit 0
`,
      'dhclient.sh': `#!/bin/sh
echo "reason=$reason ip=$new_ip_address mask=$new_subnet_mask routers=$new_routers dns=$new_domain_name_servers lease=$new_dhcp_lease_time portal=$new_captive_portal" >> ${dir.join('dhclient.log')}
case "$reason" in
  BOUND|RENEW|REBIND|REBOOT) ip -4 addr flush dev "$interface"; ip addr add "$new_ip_address/$new_subnet_mask" dev "$interface" ;;
  EXPIRE|FAIL|RELEASE|STOP) ip -4 addr flush dev "$interface" ;;
esac
exit 0
`,
      'dhcpcd.sh': `#!/bin/sh
echo "reason=$reason ip=$new_ip_address mask=$new_subnet_mask routers=$new_routers dns=$new_domain_name_servers lease=$new_dhcp_lease_time portal=$new_captive_portal" >> ${dir.join('dhcpcd.log')}
exit 0
`,
    };
    for (const [name, body] of Object.entries(hooks)) fs.writeFileSync(dir.join(name), body, { mode: 0o700 });
    fs.writeFileSync(
      dir.join('dhclient.conf'),
      'option captive-portal code 114 = text;\nrequest subnet-mask, routers, domain-name-servers, dhcp-lease-time, captive-portal;\n',
    );
    fs.writeFileSync(dir.join('dhcpcd.conf'), 'define 114 string captive_portal\noption captive_portal\n');
    main = await startServer('main', CONFIG);
  });

  afterAll(async () => {
    for (const pid of daemonPids) await killPid(pid);
    await Promise.all(servers.map((s) => s.stop()));
    await phone?.remove();
    await ap?.remove();
    fs.rmSync(`/var/lib/dhcpcd/${PH}.lease`, { force: true });
    dir.remove();
  });

  it('binds its socket to ap0 (SO_BINDTOIFINDEX) in a namespace without a default route', async () => {
    const routes = await ap.exec('ip', ['-4', 'route', 'show', 'default']);
    expect(routes.stdout.trim()).toBe('');
    const s = await main.state();
    expect(s.listen.ifindex).toBe(await ifindex(ap, 'ap0'));
  });

  it('without the interface binding the same broadcast reply fails (ENETUNREACH): the control', async () => {
    const loose = await startServer('loose', {
      ...CONFIG,
      interface: undefined,
      port: 3067,
      clientPort: 3068,
    });
    const r = await rawClients({ count: 1, port: 3068, serverPort: 3067, tries: 1, salt: 0x33 });
    expect(r.acked).toEqual([]);
    const s = await loose.state();
    expect(s.stats.offer).toBe(1);
    expect(s.stats.sendErrors).toBe(1);
    expect(loose.peer.output()).toContain('ENETUNREACH');
    await loose.peer.stop();
  });

  it('udhcpc gets a pool lease with router, DNS, lease time and option 114; renews it; releases it', async () => {
    const u = udhcpc('-O', '114');
    try {
      const bound = await waitFor(() => /^bound .*$/m.exec(log('udhcpc.log'))?.[0], { what: 'udhcpc bound' });
      const ip = /ip=(\S+)/.exec(bound)![1]!;
      expect(bound).toBe(
        `bound ip=${ip} mask=24 router=192.168.2.1 dns=192.168.2.1 lease=43200 serverid=192.168.2.1 opt114=${PORTAL_HEX}`,
      );
      const n = Number(ip.split('.')[3]);
      expect(n).toBeGreaterThanOrEqual(50);
      expect(n).toBeLessThanOrEqual(200);
      const mac = (await phone.exec('cat', [`/sys/class/net/${PH}/address`])).stdout.trim();

      // SIGUSR1: udhcpc renews now (unicast REQUEST with ciaddr, RFC 2131 §4.3.2 RENEWING)
      process.kill(u.pid, 'SIGUSR1');
      const renew = await waitFor(() => /^renew .*$/m.exec(log('udhcpc.log'))?.[0], { what: 'udhcpc renew' });
      expect(renew).toContain(`ip=${ip} `);
      let s = await main.state();
      expect(s.leases).toContainEqual(
        expect.objectContaining({ address: ip, hardwareAddress: mac, state: 'bound' }),
      );

      // SIGUSR2: udhcpc releases (RFC 2131 §4.3.4)
      const releasesBefore = s.stats.release;
      process.kill(u.pid, 'SIGUSR2');
      s = await waitFor(
        async () => {
          const st = await main.state();
          return st.stats.release > releasesBefore ? st : undefined;
        },
        { what: 'RELEASE at the server' },
      );
      expect(s.leases).toContainEqual(expect.objectContaining({ address: ip, state: 'released' }));
      expect(s.stats.pool.bound).toBe(0);
    } finally {
      await u.stop();
      await flush();
    }
  });

  it('dhclient gets the same lease back (same chaddr), with option 114, and releases it with -r', async () => {
    const before = (await main.state()).leases.find((l) => l.state === 'released')!;
    const args = [
      '-cf',
      dir.join('dhclient.conf'),
      '-sf',
      dir.join('dhclient.sh'),
      '-lf',
      dir.join('dhclient.leases'),
      '-pf',
      dir.join('dhclient.pid'),
    ];
    await phone.exec('dhclient', ['-1', '-v', ...args, PH], { timeoutMs: 20_000 });
    daemonPids.push(await readPidFile(dir.join('dhclient.pid')));
    expect(log('dhclient.log')).toContain(
      `reason=BOUND ip=${before.address} mask=255.255.255.0 routers=192.168.2.1 dns=192.168.2.1 lease=43200 portal=http://192.168.2.1/portal`,
    );
    const releases = (await main.state()).stats.release;
    await phone.exec('dhclient', ['-r', '-v', ...args, PH], { timeoutMs: 20_000 });
    const s = await waitFor(
      async () => {
        const st = await main.state();
        return st.stats.release > releases ? st : undefined;
      },
      { what: 'dhclient RELEASE' },
    );
    expect(s.leases).toContainEqual(expect.objectContaining({ address: before.address, state: 'released' }));
    await flush();
  });

  it('dhclient rebooting with a foreign address (INIT-REBOOT) gets a NAK, then a pool lease', async () => {
    const leases = dir.join('foreign.leases');
    fs.writeFileSync(
      leases,
      `lease {\n  interface "${PH}";\n  fixed-address 10.9.9.9;\n  option subnet-mask 255.255.255.0;\n  option dhcp-server-identifier 10.9.9.1;\n  renew 4 2037/01/01 00:00:00;\n  rebind 4 2037/01/01 00:00:00;\n  expire 4 2037/01/01 00:00:00;\n}\n`,
    );
    const naks = (await main.state()).stats.nak;
    const pidFile = dir.join('dhclient2.pid');
    const out = await phone.exec(
      'dhclient',
      [
        '-1',
        '-v',
        '-cf',
        dir.join('dhclient.conf'),
        '-sf',
        dir.join('dhclient.sh'),
        '-lf',
        leases,
        '-pf',
        pidFile,
        PH,
      ],
      { timeoutMs: 20_000 },
    );
    const pid = await readPidFile(pidFile);
    daemonPids.push(pid);
    expect(out.stderr).toContain('DHCPREQUEST for 10.9.9.9');
    expect(out.stderr).toContain('DHCPNAK from 192.168.2.1');
    expect(out.stderr).toMatch(/DHCPACK of 192\.168\.2\.\d+ from 192\.168\.2\.1/);
    expect((await main.state()).stats.nak).toBe(naks + 1);
    await killPid(pid);
    await flush();
  });

  it('dhcpcd gets a pool lease with router, DNS, lease time and option 114', async () => {
    await phone.exec(
      'timeout',
      [
        '20',
        'dhcpcd',
        '-f',
        dir.join('dhcpcd.conf'),
        '-4',
        '-1',
        '-B',
        '-A',
        '-L',
        '-c',
        dir.join('dhcpcd.sh'),
        '-t',
        '10',
        PH,
      ],
      { timeoutMs: 25_000 },
    );
    const bound = /^reason=BOUND .*$/m.exec(log('dhcpcd.log'))?.[0];
    expect(bound).toMatch(
      /^reason=BOUND ip=192\.168\.2\.(\d+) mask=255\.255\.255\.0 routers=192\.168\.2\.1 dns=192\.168\.2\.1 lease=43200 portal=http:\/\/192\.168\.2\.1\/portal$/,
    );
    const s = await main.state();
    const ip = /ip=(\S+)/.exec(bound!)![1];
    expect(s.leases).toContainEqual(expect.objectContaining({ address: ip, state: 'bound' }));
    fs.rmSync(`/var/lib/dhcpcd/${PH}.lease`, { force: true });
    await flush();
  });

  it('dhclient (no broadcast flag) gets OFFER and ACK unicast to its new address and MAC, the ARP entry written first, on both transports; with unicast: false they are broadcast', async () => {
    const mac = (await phone.exec('cat', [`/sys/class/net/${PH}/address`])).stdout.trim();
    /** dhclient from a fresh lease file on `clientPort`; the replies it gets, as tcpdump saw them arrive. */
    async function replies(tag: string, serverPort: number, clientPort: number): Promise<string[]> {
      const dump = startPeer('ip', [
        'netns',
        'exec',
        phone.name,
        'tcpdump',
        '-i',
        PH,
        '-n',
        '-e',
        '-l',
        '-Q',
        'in',
        '-c',
        '2',
        `udp src port ${serverPort} and udp dst port ${clientPort}`,
      ]);
      try {
        await waitFor(() => dump.output().includes('listening on'), { what: 'tcpdump listening' });
        const args = [
          '-p',
          String(clientPort),
          '-cf',
          dir.join('dhclient.conf'),
          '-sf',
          dir.join('dhclient.sh'),
          '-lf',
          dir.join(`${tag}.leases`),
          '-pf',
          dir.join(`${tag}.pid`),
        ];
        await phone.exec('dhclient', ['-1', '-v', ...args, PH], { timeoutMs: 20_000 });
        daemonPids.push(await readPidFile(dir.join(`${tag}.pid`)));
        const lines = await waitFor(
          () => {
            // (tcpdump names BOOTP only on ports 67 and 68)
            const got = dump
              .output()
              .split('\n')
              .filter((l) => l.includes(', ethertype IPv4 '));
            return got.length >= 2 ? got : undefined;
          },
          { what: `two replies captured (${tag})` },
        );
        await phone.exec('dhclient', ['-r', '-v', ...args, PH], { timeoutMs: 20_000 });
        return lines;
      } finally {
        await dump.stop();
        await flush();
      }
    }

    const direct = await replies('direct', 67, 68);
    const address = /BOUND ip=(\S+)/.exec(
      log('dhclient.log')
        .split('\n')
        .findLast((l) => l.includes('BOUND'))!,
    )![1]!;
    for (const line of direct) {
      // Ethernet destination = the client's MAC, IP destination = the address it is being given
      expect(line).toContain(`> ${mac}, ethertype IPv4`);
      expect(line).toContain(`192.168.2.1.67 > ${address}.68: BOOTP/DHCP, Reply`);
    }
    const neigh = await ap.exec('ip', ['-4', 'neigh', 'show', address, 'dev', 'ap0']);
    expect(neigh.stdout).toContain(`lladdr ${mac}`);

    // the node:dgram transport (what a server with a lease store uses) does the same
    const viaDgram = await startServer('dgram', {
      ...CONFIG,
      transport: 'dgram',
      port: 4067,
      clientPort: 4068,
    });
    try {
      for (const line of await replies('dgram', 4067, 4068)) {
        expect(line).toContain(`> ${mac}, ethertype IPv4`);
        expect(line).toMatch(/ 192\.168\.2\.1\.4067 > 192\.168\.2\.\d+\.4068: UDP/);
      }
    } finally {
      await viaDgram.peer.stop();
    }

    const plain = await startServer('plain', { ...CONFIG, unicast: false, port: 3067, clientPort: 3068 });
    try {
      const broadcast = await replies('plain', 3067, 3068);
      for (const line of broadcast) {
        expect(line).toContain('> ff:ff:ff:ff:ff:ff, ethertype IPv4');
        expect(line).toContain('192.168.2.1.3067 > 255.255.255.255.3068: UDP');
      }
    } finally {
      await plain.peer.stop();
    }
  });

  it('udhcpc -a finds its address in use (ARP reply), DECLINEs it, and gets another; the server quarantines it', async () => {
    // The udhcpc client's remembered address is what the server offers it again; put that address on
    // ap0 as well, so udhcpc's ARP check after the ACK gets an answer.
    const mac = (await phone.exec('cat', [`/sys/class/net/${PH}/address`])).stdout.trim();
    const taken = (await main.state()).leases.find((l) => l.hardwareAddress === mac)!.address;
    await ap.exec('ip', ['addr', 'add', `${taken}/32`, 'dev', 'ap0']);
    // The server reads its host's addresses at most once a second: from then on it broadcasts to that
    // address (sent straight to it, the reply would stay on this host).
    await new Promise((r) => setTimeout(r, 1100));
    const declines = (await main.state()).stats.decline;
    fs.rmSync(dir.join('udhcpc.log'), { force: true });
    const u = udhcpc('-a500', '-A', '1');
    try {
      const bound = await waitFor(() => /^bound .*$/m.exec(log('udhcpc.log'))?.[0], {
        what: 'udhcpc bound',
        timeoutMs: 15_000,
      });
      expect(u.output()).toContain('declining');
      const ip = /ip=(\S+)/.exec(bound)![1];
      expect(ip).not.toBe(taken);
      const s = await main.state();
      expect(s.stats.decline).toBe(declines + 1);
      expect(s.leases).toContainEqual(expect.objectContaining({ address: taken, state: 'declined' }));
      expect(s.leases).toContainEqual(
        expect.objectContaining({ address: ip, hardwareAddress: mac, state: 'bound' }),
      );
    } finally {
      await u.stop();
      await ap.exec('ip', ['addr', 'del', `${taken}/32`, 'dev', 'ap0']);
      await flush();
    }
  });

  it('a DECLINE quarantines the address: the client gets another one, nobody gets that one', async () => {
    const r = await rawClients({ count: 1, decline: true, salt: 0x44 });
    expect(r.declined).not.toBeNull();
    expect(r.declined!.next).not.toBeNull();
    expect(r.declined!.next).not.toBe(r.declined!.address);
    const s = await main.state();
    expect(s.leases).toContainEqual(
      expect.objectContaining({ address: r.declined!.address, state: 'declined' }),
    );
    expect(s.stats.decline).toBeGreaterThanOrEqual(1);
  });

  it('200 distinct clients against the 151-address pool: 151 leases, no duplicate, 49 refused and counted', async () => {
    const big = await startServer('pool', { ...CONFIG, port: 2067, clientPort: 2068 });
    const r = await rawClients({ count: 200, port: 2068, serverPort: 2067, tries: 5, salt: 0x55 });
    const addresses = r.acked.map((a) => a.address);
    expect(addresses).toHaveLength(151);
    expect(new Set(addresses).size).toBe(151);
    for (const a of addresses) {
      const n = Number(a.split('.')[3]);
      expect(a.startsWith('192.168.2.') && n >= 50 && n <= 200).toBe(true);
    }
    expect(r.refused).toHaveLength(49);
    expect(r.naks).toBe(0);
    const s = await big.state();
    expect(s.stats.pool).toMatchObject({ size: 151, bound: 151, free: 0 });
    // every DISCOVER of a refused client was counted, none was answered
    expect(s.stats.poolExhausted).toBe(r.refused.reduce((n, c) => n + c.discovers, 0));
    expect(s.stats.handlerErrors).toBe(0);
    expect(s.stats.sendErrors).toBe(0);
    await big.peer.stop();
  });
});
