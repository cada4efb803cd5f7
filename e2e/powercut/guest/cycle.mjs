// One boot of the power-cut run, in the guest's `device` namespace (bundled by e2e/powercut/run).
// 1. Before anything starts: every SQLite file of the device passes `PRAGMA integrity_check`, and the
//    temporary files on the disk are listed.
// 2. The home network (hostapd, udhcpd) and the device, `waved start` from the installed bundle,
//    which must come back to READY=1 and to its saved network (its cloud is out of reach: its
//    telemetry queue only grows).
// 3. Once READY: the writers (writers.mjs): each checks what the cut left, then writes under load.
//    Once all run: `PC: WORKLOAD-RUNNING`; the host kills the VM at a random moment after it.
// With the kernel argument waved.pc=<cycle>:final the writers only check, and the boot ends with
// `PC: FINAL-DONE`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { eachLine, run, startHomeAp, startUdhcpd, waitFor } from '../../hwsim/scenarios/lib.mjs';

const arg = /waved\.pc=(\d+):(\w+)/.exec(fs.readFileSync('/proc/cmdline', 'utf8'));
const cycle = Number(arg?.[1] ?? 0);
const final = arg?.[2] === 'final';
const t0 = performance.now();
const secs = () => ((performance.now() - t0) / 1000).toFixed(1);
const say = (text) => console.log(`PC: +${secs()}s ${text}`);
const report = (what, obj) => console.log(`PCK ${what} ${JSON.stringify(obj)}`);

const HOME = { ssid: 'HomeNet', passphrase: 'correct-horse-42', address: '10.20.0.1/24', net: '10.20.0' };
const NOTIFY_SOCKET = '/run/waved-pc-notify.sock';
// The directories the device writes, all on the persistent disk.
const DEVICE_DIRS = [
  '/disk/etc/waved',
  '/disk/etc/wpa_supplicant',
  '/disk/var/lib/waved',
  '/disk/var/lib/waved-data',
  '/disk/var/lib/waved-ota',
];
const ALL_DIRS = [...DEVICE_DIRS, '/disk/pc'];

function walk(dir, out = []) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}
/** A temp file of an atomic write: ours (.name.<12 hex>.tmp) or wpa_supplicant's (name.tmp). */
const isTemp = (file) => /^\..+\.[0-9a-f]{12}\.tmp$/.test(path.basename(file)) || /\.tmp$/.test(file);

// --- 1. before anything starts ------------------------------------------------------------------
say(`boot of cycle ${cycle}${final ? ' (final check)' : ''}`);
const bootTemps = ALL_DIRS.flatMap((d) => walk(d)).filter(isTemp);
const integrity = {};
for (const file of DEVICE_DIRS.flatMap((d) => walk(d)).filter((f) => f.endsWith('.db'))) {
  try {
    const db = new DatabaseSync(file);
    integrity[file] = db
      .prepare('PRAGMA integrity_check')
      .all()
      .map((r) => Object.values(r)[0])
      .join('; ');
    db.close();
  } catch (error) {
    integrity[file] = `cannot open: ${error.message}`;
  }
}
report('device-db', { integrity, temps: bootTemps.map((f) => f.slice(6)) });

// --- 2. the home side and the device ------------------------------------------------------------
await startHomeAp({
  ns: 'home',
  iface: 'wlan0',
  ssid: HOME.ssid,
  passphrase: HOME.passphrase,
  address: HOME.address,
  ctrl: '/run/hostapd-home',
});
await startUdhcpd({
  ns: 'home',
  iface: 'wlan0',
  start: `${HOME.net}.50`,
  end: `${HOME.net}.150`,
  router: `${HOME.net}.1`,
});

const notifications = [];
const native = await import('@waved/native');
const notify = native.createUnixDatagramSocket();
notify.bind(NOTIFY_SOCKET);
notify.on('message', (data) => notifications.push({ text: data.toString(), at: performance.now() }));

const startedAt = performance.now();
const device = spawn(
  '/usr/local/bin/waved',
  ['start', '--profile', '/etc/waved/device.toml', '--scan-wait', '8000'],
  {
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_COMPILE_CACHE')),
      NOTIFY_SOCKET,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let deviceExit = null;
device.on('exit', (code, signal) => {
  deviceExit = code ?? signal;
  say(`waved start exited (${deviceExit})`);
});
for (const s of [device.stdout, device.stderr]) eachLine(s, (l) => console.log(`  | ${l}`));

// --- 3. the writers -----------------------------------------------------------------------------
// The device's own writers share one process, as in the device; the station profiles and the DHCP
// server run where their radio and link are.
const GROUPS = { 'settings,phonebook,telemetry,recording,ota': 'device', wpa: 'pcwpa', dhcp: 'pcap' };
const state = {};
function startWriters() {
  for (const [names, ns] of Object.entries(GROUPS)) {
    for (const w of names.split(',')) state[w] = { running: false, exit: null };
    const child = spawn(
      'ip',
      ['netns', 'exec', ns, 'node', '/app/pc.mjs', names, String(cycle), final ? 'check' : 'run'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    eachLine(child.stdout, (l) => {
      console.log(l);
      const m = /^PCR (\S+)/.exec(l);
      if (m && state[m[1]]) state[m[1]].running = true;
    });
    eachLine(child.stderr, (l) => console.log(`PCW ${names} ${l}`));
    child.on('exit', (code) => {
      for (const w of names.split(',')) state[w].exit = code;
      if (code !== 0 || !final) say(`writers ${names} exited ${code}`);
    });
  }
}

// READY=1 and the saved network, seen from outside: wpa_supplicant associated, an address by DHCP.
let ready = null;
let connected = null;
try {
  await waitFor(
    'READY=1',
    async () => {
      if (deviceExit !== null) throw new Error(`waved start exited (${deviceExit})`);
      return notifications.find((n) => /READY=1/.test(n.text));
    },
    { timeoutMs: 240_000, intervalMs: 100, fatal: true },
  );
  ready = (performance.now() - startedAt) / 1000;
  say(`READY ${ready.toFixed(1)}s after start`);
  // The writers start once the device is up, so its start is timed as on a quiet device.
  startWriters();
  await waitFor(
    'the saved network',
    async () => {
      if (deviceExit !== null) throw new Error(`waved start exited (${deviceExit})`);
      const st = await run('wpa_cli', ['-i', 'wlan0', '-p', '/run/wpa_supplicant', 'status'], {
        allowFail: true,
      });
      const addr = await run('ip', ['-4', 'addr', 'show', 'dev', 'wlan0'], { allowFail: true });
      return (
        /wpa_state=COMPLETED/.test(st.stdout) &&
        /\nssid=HomeNet\n/.test(st.stdout) &&
        new RegExp(`inet ${HOME.net.replace(/\./g, '\\.')}\\.`).test(addr.stdout)
      );
    },
    { timeoutMs: 240_000, intervalMs: 250, fatal: true },
  );
  connected = (performance.now() - startedAt) / 1000;
  say(`CONNECTED to ${HOME.ssid} ${connected.toFixed(1)}s after start`);
} catch (error) {
  say(`BOOT-FAIL ${error.message}`);
  if (Object.keys(state).length === 0) startWriters();
}

// Every writer has started (or, in the final boot, finished its check): temp files the cut left
// must be gone by now, and every file the device keeps must be 0600.
await waitFor(
  'the writers',
  async () => Object.values(state).every((s) => (final ? s.exit !== null : s.running || s.exit !== null)),
  {
    timeoutMs: 300_000,
    intervalMs: 100,
  },
);
const wide = ALL_DIRS.flatMap((d) => walk(d))
  .filter((f) => !isTemp(f))
  .map((f) => {
    try {
      return [f.slice(6), (fs.statSync(f).mode & 0o777).toString(8)];
    } catch {
      return null;
    }
  })
  .filter((m) => m && m[1] !== '600');
report('device-files', {
  tempsLeft: bootTemps.filter((f) => fs.existsSync(f)).map((f) => f.slice(6)),
  wide,
  ready,
  connected,
});
if (final) {
  device.kill('SIGTERM');
  await new Promise((r) => (deviceExit !== null ? r() : device.on('exit', r)));
  say('FINAL-DONE');
  process.exit(0);
}
const broken = Object.entries(state).filter(([, s]) => !s.running);
if (broken.length > 0) say(`writers not running: ${broken.map(([w]) => w).join(', ')}`);
say('WORKLOAD-RUNNING');
// The host cuts the power; this boot never ends on its own.
setInterval(() => {}, 60_000);
