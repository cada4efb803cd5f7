// The whole provisioning flow on mac80211_hwsim radios (issue: virtual-radio end-to-end test).
// Runs inside the guest's `device` namespace: the appliance runs in this process on the device
// radio; the phone and the home router are driven in their namespaces through `ip netns exec`.
import fs from 'node:fs';
import { createFileStore } from '../../../apps/appliance/src/adapters/system/files.ts';
import { serveHttp } from '../../../apps/appliance/src/adapters/system/http.ts';
import { createSystemRadio } from '../../../apps/appliance/src/adapters/system/radio.ts';
import { createWpaStation } from '../../../apps/appliance/src/adapters/system/wpa-station.ts';
import { startAppliance } from '../../../apps/appliance/src/app.ts';
import { StateBus } from '../../../apps/appliance/src/core/bus.ts';
import { createLogger } from '../../../apps/appliance/src/core/log/logger.ts';
import { createScreens } from '../../../apps/appliance/src/domain/screens/index.ts';
import { killPidFile, run, say, startHomeAp, startUdhcpd, waitFor, writeFile } from './lib.mjs';

const HOME_A = { ssid: 'HomeNet', passphrase: 'correct-horse-42', address: '10.20.0.1/24', net: '10.20.0' };
const HOME_B = { ssid: 'HomeNet-B', passphrase: 'battery-staple-7', address: '10.30.0.1/24', net: '10.30.0' };
const WRONG = 'wrong-passphrase-9';
const LONG_TIMEOUT_MS = 300_000; // the spec's PROV_TIMEOUT for steps 1-4 and 6
const TIMEOUT_MS = 30_000; // shortened through configuration for step 5
let sessionTimeoutMs = LONG_TIMEOUT_MS;
const steps = [];
const secretsSeen = new Set([HOME_A.passphrase, HOME_B.passphrase, WRONG]);

function step(name) {
  const t = performance.now();
  say(`STEP ${name}`);
  return (extra = '') => {
    const s = ((performance.now() - t) / 1000).toFixed(1);
    steps.push(`${name}: ${s}s${extra ? ` (${extra})` : ''}`);
    say(`  done ${name} in ${s}s ${extra}`);
  };
}
function check(cond, message) {
  if (!cond) throw new Error(`check failed: ${message}`);
}
const json = (r) => JSON.parse(r.stdout || '{}');
const phone = (...args) =>
  run('node', ['/app/phone-tool.mjs', ...args], { ns: 'phone', timeoutMs: 30_000 }).then(json);

// --- the device ------------------------------------------------------------------------------
fs.mkdirSync('/tmp/device', { recursive: true, mode: 0o700 });
fs.mkdirSync('/run/waved', { recursive: true });
const wpaConfig = '/tmp/device/wpa_supplicant.conf';
writeFile(wpaConfig, 'ctrl_interface=DIR=/run/wpa-device GROUP=root\nupdate_config=1\n');
const hostapdConfigPath = '/tmp/waved-hostapd.conf';
const logLines = [];
const log = createLogger({
  level: 4,
  write: (line) => {
    logLines.push(line);
    console.log(`  | ${line}`);
  },
});
const { logger } = log;
const radio = createSystemRadio({
  iface: 'wlan0',
  ctrlDir: '/run/wpa-device',
  wpaConfig,
  runDir: '/run/waved',
  udhcpcScript: '/app/udhcpc.sh',
  logger,
});
const station = createWpaStation({
  iface: 'wlan0',
  ctrlDir: '/run/wpa-device',
  configPath: wpaConfig,
  logger,
  scanWaitMs: 4000,
});
const bus = new StateBus();
const events = [];
for (const name of ['WifiConnected', 'WifiDisconnected', 'ProvisioningState', 'ConnectionDetails']) {
  bus.on(name, (payload) => {
    events.push({ name, payload, at: performance.now() });
    if (name === 'ProvisioningState')
      say(`  bus ProvisioningState ${payload.state}${payload.reason ? ` ${payload.reason}` : ''}`);
    if (name === 'WifiConnected' || name === 'WifiDisconnected') say(`  bus ${name} ${payload.ssid ?? ''}`);
  });
}
const screens = createScreens({ bus });
const lastState = () => bus.last('ProvisioningState')?.state;
const waitState = (state, timeoutMs = 90_000) =>
  waitFor(`ProvisioningState ${state}`, async () => lastState() === state && bus.last('ProvisioningState'), {
    timeoutMs,
  });

// The appliance and its controlled restart after a valid save (one consistent settings snapshot).
let app = null;
let stopped = false;
async function runAppliance(initialState) {
  let restarting = false;
  app = await startAppliance({
    bus,
    radio,
    station,
    files: createFileStore(),
    serve: serveHttp,
    logger,
    secrets: log.secrets,
    settingsPath: '/tmp/device/config.toml',
    portal: { host: '192.168.2.1', port: 80 },
    setupUrl: 'http://192.168.2.1/',
    gateway: '192.168.2.1',
    hostapdConfigPath,
    ...(initialState ? { initialState } : {}),
    timing: { timeoutMs: sessionTimeoutMs, associationTimeoutMs: 45_000 },
    wifiPollMs: 2000,
    onRestart: () => {
      if (restarting || stopped) return;
      restarting = true;
      const state = app.controller.state();
      void app.stop().then(() => runAppliance(state));
    },
  });
}

let failed = null;
try {
  // Home network A (B comes up later).
  await startHomeAp({
    ns: 'home',
    iface: 'wlan0',
    ssid: HOME_A.ssid,
    passphrase: HOME_A.passphrase,
    address: HOME_A.address,
    ctrl: '/run/hostapd-homeA',
  });
  await startUdhcpd({
    ns: 'home',
    iface: 'wlan0',
    start: `${HOME_A.net}.50`,
    end: `${HOME_A.net}.99`,
    router: `${HOME_A.net}.1`,
  });

  await radio.startStation();
  await runAppliance();

  // 1. No saved network; provisioning opens; the AP comes up with WPA2 and a fresh passphrase.
  let done = step('1 provisioning opens, AP up');
  bus.send({ type: 'OpenWifiProvisioning' });
  const ap = await waitState('ApActive');
  const ap1 = ap.value;
  secretsSeen.add(ap1.passphrase);
  const mac = fs.readFileSync('/sys/class/net/wlan0/address', 'utf8').trim();
  check(
    ap1.ssid === `Device-${mac.replace(/:/g, '').slice(-4).toUpperCase()}`,
    `AP SSID ${ap1.ssid} from MAC ${mac}`,
  );
  check(/^[0-9a-f]{8}$/i.test(ap1.passphrase), 'AP passphrase is 8 hex');
  const hostapdConf = fs.readFileSync(hostapdConfigPath, 'utf8');
  check((fs.statSync(hostapdConfigPath).mode & 0o777) === 0o600, 'hostapd config mode 0600');
  check(/wpa=2/.test(hostapdConf) && /rsn_pairwise=CCMP/.test(hostapdConf), 'hostapd config is WPA2');
  done(ap1.ssid);

  // 2. The phone reads the QR payload the screen shows and joins.
  done = step('2 phone joins from the QR payload, lease, DNS, redirect, form');
  const qr = screens.view().qr;
  check(typeof qr === 'string' && qr.startsWith('WIFI:'), `screen shows a QR payload (${qr ? 'yes' : 'no'})`);
  const fields = Object.fromEntries(
    [...qr.slice(5).matchAll(/([A-Z]):((?:\\.|[^;])*);/g)].map((m) => [m[1], m[2].replace(/\\(.)/g, '$1')]),
  );
  check(
    fields.T === 'WPA' && fields.S === ap1.ssid && fields.P === ap1.passphrase,
    'QR payload carries the AP credentials',
  );
  writeFile(
    '/tmp/phone-wpa.conf',
    `ctrl_interface=/run/wpa-phone\nnetwork={\n\tssid="${fields.S}"\n\tpsk="${fields.P}"\n\tkey_mgmt=WPA-PSK\n}\n`,
  );
  await run(
    'wpa_supplicant',
    [
      '-B',
      '-D',
      'nl80211',
      '-i',
      'wlan0',
      '-c',
      '/tmp/phone-wpa.conf',
      '-P',
      '/tmp/phone-wpa.pid',
      '-f',
      '/tmp/phone-wpa.log',
    ],
    { ns: 'phone' },
  );
  const PW = (...a) => run('wpa_cli', ['-i', 'wlan0', '-p', '/run/wpa-phone', ...a], { ns: 'phone' });
  const joined = await waitFor(
    'phone COMPLETED',
    async () => /wpa_state=COMPLETED/.test((await PW('status')).stdout),
    { timeoutMs: 60_000 },
  );
  await run(
    'udhcpc',
    ['-i', 'wlan0', '-n', '-q', '-t', '10', '-T', '2', '-O', '114', '-s', '/app/udhcpc-env.sh'],
    { ns: 'phone', timeoutMs: 40_000 },
  );
  const env = Object.fromEntries(
    fs
      .readFileSync('/tmp/udhcpc-env.txt', 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const octet = Number(env.ip?.split('.')[3]);
  check(env.ip?.startsWith('192.168.2.') && octet >= 50 && octet <= 200, `lease in the pool (${env.ip})`);
  check(
    env.router === '192.168.2.1' && env.dns === '192.168.2.1' && env.lease === '43200',
    `router/dns/lease ${env.router} ${env.dns} ${env.lease}`,
  );
  check(
    Buffer.from(env.opt114 ?? '', 'hex').toString() === 'http://192.168.2.1/',
    `option 114 ${env.opt114}`,
  );
  // The phone uses the DNS server the lease named (ip netns exec bind-mounts this resolv.conf).
  fs.mkdirSync('/etc/netns/phone', { recursive: true });
  fs.writeFileSync('/etc/netns/phone/resolv.conf', `nameserver ${env.dns}\n`);
  const dnsAnswer = await phone('dns', 'connectivitycheck.gstatic.com', '192.168.2.1');
  check(JSON.stringify(dnsAnswer.a) === '["192.168.2.1"]', `DNS answer ${JSON.stringify(dnsAnswer)}`);
  const probe = await phone('get', 'http://connectivitycheck.gstatic.com/generate_204');
  check(
    probe.status === 302 && probe.headers.location === 'http://192.168.2.1/',
    `probe redirected (${probe.status} ${probe.headers?.location})`,
  );
  let form = await phone('get', 'http://192.168.2.1/');
  check(
    form.status === 200 && form.body.includes(HOME_A.ssid),
    'form lists the home network from the STA scan',
  );
  done(`join after ${joined.tries} polls, lease ${env.ip}`);

  // 4 (first): a wrong passphrase -> Failed (wrong key) -> AP and form back.
  done = step('4 wrong passphrase fails with a wrong-key reason, AP comes back');
  const csrfOf = (html) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  let csrf = csrfOf(form.body);
  check(csrf, 'form carries a CSRF token');
  const post = (passphrase, token) =>
    phone(
      'post',
      'http://192.168.2.1/save-connect',
      new URLSearchParams({
        csrf: token,
        'wifi.ssid': HOME_A.ssid,
        'wifi.passphrase': passphrase,
      }).toString(),
    );
  const noCsrf = await phone(
    'post',
    'http://192.168.2.1/save-connect',
    new URLSearchParams({ 'wifi.ssid': HOME_A.ssid, 'wifi.passphrase': WRONG }).toString(),
  );
  check(noCsrf.status === 400, `POST without CSRF is 400 (${noCsrf.status})`);
  let res = await post(WRONG, csrf);
  check(res.status === 200, `save-connect accepted (${res.status})`);
  await waitState('Connecting', 30_000);
  const failedState = await waitState('Failed', 120_000);
  check(failedState.value.reason === 'wrong-password', `Failed reason ${failedState.value.reason}`);
  check(fs.existsSync(hostapdConfigPath), 'AP is back (hostapd config present)');
  done(failedState.value.reason);

  // 4 (then): Try again in the same session succeeds.  3. AP torn down, STA, WPA2, DHCP, Connected.
  done = step('3 try again: AP down, real WPA2 handshake with the home AP, Connected');
  await waitFor('phone back on the AP', async () => /wpa_state=COMPLETED/.test((await PW('status')).stdout), {
    timeoutMs: 90_000,
  });
  form = await waitFor(
    'form again, naming the failure',
    async () => {
      const f = await phone('get', 'http://192.168.2.1/');
      return f.status === 200 && /password was not accepted/i.test(f.body) && f;
    },
    { timeoutMs: 60_000 },
  );
  csrf = csrfOf(form.value.body);
  const submitAt = performance.now();
  res = await post(HOME_A.passphrase, csrf);
  check(res.status === 200, `second save-connect accepted (${res.status})`);
  await waitFor(
    'Connected HomeNet',
    async () =>
      bus.last('ProvisioningState')?.state === 'Connected' ||
      events.some((e) => e.name === 'WifiConnected' && e.payload.ssid === HOME_A.ssid && e.at > submitAt),
    { timeoutMs: 150_000 },
  );
  check(!fs.existsSync(hostapdConfigPath), 'hostapd config removed after teardown');
  const details = await waitFor(
    'connection details with an address',
    async () => {
      const d = bus.last('ConnectionDetails');
      return d?.ssid === HOME_A.ssid && d.ipv4?.startsWith(`${HOME_A.net}.`) && d.signal ? d : null;
    },
    { timeoutMs: 90_000 },
  );
  check((fs.statSync(wpaConfig).mode & 0o777) === 0o600, 'wpa_supplicant.conf is 0600');
  const saved = fs.readFileSync(wpaConfig, 'utf8');
  check(
    !saved.includes(HOME_A.passphrase) && /psk=[0-9a-f]{64}/.test(saved),
    'saved profile holds the PSK, not the passphrase',
  );
  done(
    `${details.value.ssid} ${details.value.ipv4} signal=${details.value.signal} rssi=${details.value.rssi}; submit→Connected ${((performance.now() - submitAt) / 1000).toFixed(1)}s`,
  );
  await run('kill', [String(Number(fs.readFileSync('/tmp/phone-wpa.pid', 'utf8')))], {
    ns: 'phone',
    allowFail: true,
  });

  // 6. Two home APs: B saved (higher priority) while down; no switch while A is healthy; A goes away -> B.
  done = step('6 second saved network: no switch while healthy, moves when the AP goes away');
  bus.send({ type: 'WifiConnect', ssid: HOME_B.ssid, password: HOME_B.passphrase });
  await waitFor('B saved', async () => fs.readFileSync(wpaConfig, 'utf8').includes(`ssid="${HOME_B.ssid}"`), {
    timeoutMs: 60_000,
  });
  // The explicit connect reassociates: wpa_supplicant scans (about 10 s under TCG), finds only A
  // and stays there. Let that finish before B appears, so what follows tests a healthy connection.
  const W = (...a) => run('wpa_cli', ['-i', 'wlan0', '-p', '/run/wpa-device', ...a]);
  await new Promise((r) => setTimeout(r, 25_000));
  await waitFor(
    'settled on A after saving B',
    async () =>
      /wpa_state=COMPLETED/.test((await W('status')).stdout) &&
      bus.last('ConnectionDetails')?.ssid === HOME_A.ssid &&
      bus.last('ConnectionDetails')?.ipv4,
    { timeoutMs: 90_000 },
  );
  await startHomeAp({
    ns: 'home',
    iface: 'wlan1',
    ssid: HOME_B.ssid,
    passphrase: HOME_B.passphrase,
    address: HOME_B.address,
    channel: 11,
    ctrl: '/run/hostapd-homeB',
  });
  await startUdhcpd({
    ns: 'home',
    iface: 'wlan1',
    start: `${HOME_B.net}.50`,
    end: `${HOME_B.net}.99`,
    router: `${HOME_B.net}.1`,
  });
  const watchFrom = performance.now();
  await new Promise((r) => setTimeout(r, 20_000));
  const switched = events.some(
    (e) => e.at > watchFrom && e.name === 'WifiConnected' && e.payload.ssid === HOME_B.ssid,
  );
  check(
    !switched && bus.last('ConnectionDetails')?.ssid === HOME_A.ssid,
    'kept the healthy connection to A while B was up',
  );
  const goneAt = performance.now();
  killPidFile('/tmp/hostapd-home-wlan0.pid');
  await waitFor(
    'moved to B',
    async () =>
      events.some((e) => e.at > goneAt && e.name === 'WifiConnected' && e.payload.ssid === HOME_B.ssid),
    { timeoutMs: 150_000 },
  );
  const after = events.filter(
    (e) => e.at > goneAt && (e.name === 'WifiConnected' || e.name === 'WifiDisconnected'),
  );
  check(
    after[0]?.name === 'WifiDisconnected',
    `bus shows Disconnected first (${after.map((e) => e.name).join(',')})`,
  );
  done(`moved in ${((performance.now() - goneAt) / 1000).toFixed(1)}s`);

  // 5. Timeout: a session that nobody completes returns to STA and the device rejoins.
  done = step('5 provisioning timeout restores the station');
  sessionTimeoutMs = TIMEOUT_MS;
  await app.stop();
  await runAppliance({ state: 'Connected', ssid: HOME_B.ssid });
  const openAt = performance.now();
  bus.send({ type: 'OpenWifiProvisioning' });
  const ap2 = await waitState('ApActive');
  secretsSeen.add(ap2.value.passphrase);
  check(ap2.value.passphrase !== ap1.passphrase, 'a fresh AP passphrase per session');
  await waitFor(
    'back to Idle after the timeout',
    async () =>
      events.some((e) => e.at > openAt && e.name === 'ProvisioningState' && e.payload.state === 'Idle'),
    { timeoutMs: TIMEOUT_MS + 90_000 },
  );
  check(!fs.existsSync(hostapdConfigPath), 'hostapd config removed after the timeout');
  await waitFor(
    'rejoined B',
    async () => bus.last('ConnectionDetails')?.ssid === HOME_B.ssid && bus.last('ConnectionDetails')?.ipv4,
    { timeoutMs: 120_000 },
  );
  done(`session ${((performance.now() - openAt) / 1000).toFixed(1)}s`);

  // 7. No passphrase in any log line.
  done = step('7 logs hold no passphrase');
  const everything = [
    ...logLines,
    ...events.map((e) =>
      JSON.stringify(e.name === 'ProvisioningState' ? { ...e.payload, passphrase: undefined } : e.payload),
    ),
  ].join('\n');
  for (const s of secretsSeen) check(!everything.includes(s), 'a passphrase reached a log line');
  done(`${logLines.length} log lines checked`);
} catch (error) {
  failed = error;
  say('FAILED:', error.message);
  for (const f of ['/tmp/phone-wpa.log', '/tmp/hostapd-home-wlan0.log']) {
    try {
      say(`--- tail ${f}`);
      console.log(fs.readFileSync(f, 'utf8').split('\n').slice(-15).join('\n'));
    } catch {}
  }
} finally {
  stopped = true;
  await app?.stop().catch(() => {});
  screens.close();
  station.close?.();
  say('SUMMARY');
  for (const s of steps) console.log(`  ${s}`);
}
process.exit(failed ? 1 : 0);
