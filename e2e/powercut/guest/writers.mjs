// The device's writers under load, one per process, for the power-cut run (bundled by e2e/powercut/run
// with esbuild from the built packages, the code the device ships). Each one first checks what the
// last cut left, as the next start finds it, then keeps writing versions that carry their sequence
// number and a checksum until the VM is killed.
//
//   node pc.mjs <writer>[,<writer>...] <cycle> run|check
//
// Writers named together run in one process, as the device runs them in one.
// It prints one line per fact, read by the host (e2e/powercut/cycles.mjs):
//   PCK <writer> {json}   what the check found
//   PCS <writer> {json}   a write is about to start (the newest version that may be on disk)
//   PCA <writer> {json}   a write the writer's contract says is durable now (acknowledged)
//   PCR <writer>          the writer is running
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import {
  createFileStore,
  createSettingsStore,
  openSqliteRecordingStore,
  silentLogger,
} from '@waved/appliance';
import { readPhoneBookFile, writePhoneBookFile } from '@waved/bt-frame';
import { createDhcpServer, createFileLeaseStore } from '@waved/dhcp-server';
import { removeStaleTemps, writeFileAtomic } from '@waved/internal';
import { createSqliteTelemetryStore, openNodeSqlite } from '@waved/psp-cloud/sqlite';
import { createDownloader } from '@waved/swu-ota';
import { createWpaCli, syncSavedConfig } from '@waved/wpa-cli';
import { parse as parseToml } from 'smol-toml';
import { eachLine } from '../../hwsim/scenarios/lib.mjs';

const [names = '', cycleArg, modeArg] = process.argv.slice(2);
const cycle = Number(cycleArg);
const checkOnly = modeArg === 'check';
const ROOT = '/disk/pc';

/** One writer's output lines; its sequence numbers grow across boots (the cycle is the high part). */
function io(writer) {
  const line = (kind, obj) =>
    process.stdout.write(`${kind} ${writer}${obj ? ` ${JSON.stringify(obj)}` : ''}\n`);
  let seq = cycle * 1_000_000;
  return {
    check: (obj) => line('PCK', obj),
    start: (obj) => line('PCS', obj),
    ack: (obj) => line('PCA', obj),
    running: () => line('PCR'),
    error: (obj) => line('PCE', obj),
    next: () => ++seq,
  };
}
const sum = (text) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 12);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const modeOf = (file) => {
  try {
    return (fs.statSync(file).mode & 0o777).toString(8);
  } catch {
    return null;
  }
};
const exists = (file) => fs.existsSync(file);
function mkdir(dir) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}
/** Temp files beside `file`: ours (.name.<hex>.tmp) and wpa_supplicant's (name.tmp). */
function tempsBeside(file) {
  const dir = file.slice(0, file.lastIndexOf('/'));
  const base = file.slice(file.lastIndexOf('/') + 1);
  try {
    return fs
      .readdirSync(dir)
      .filter((n) => (n.startsWith(`.${base}.`) && n.endsWith('.tmp')) || n === `${base}.tmp`);
  } catch {
    return [];
  }
}
function integrity(file) {
  if (!exists(file)) return 'missing';
  const db = new DatabaseSync(file);
  try {
    return db
      .prepare('PRAGMA integrity_check')
      .all()
      .map((r) => Object.values(r)[0])
      .join('; ');
  } finally {
    db.close();
  }
}
/** [[a, b], ...]: the sorted numbers as ranges. */
function ranges(numbers) {
  const out = [];
  for (const n of [...numbers].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

// --- config.toml, through the appliance's settings store ----------------------------------------
async function settings() {
  const { check, start, ack, running, next } = io('settings');
  const dir = `${ROOT}/settings`;
  const file = `${dir}/config.toml`;
  const secretOf = (n) => `s${n}-${sum(`settings${n}`)}`;
  if (exists(file)) {
    let found = null;
    let torn = false;
    try {
      const t = parseToml(fs.readFileSync(file, 'utf8'));
      const m = /^pc-(\d+)$/.exec(String(t.device?.name ?? ''));
      if (m && t.webhook?.secret === secretOf(m[1]) && t.audio?.volume === Number(m[1]) % 101)
        found = Number(m[1]);
      else torn = true;
    } catch {
      torn = true;
    }
    check({ file, seq: found, torn, mode: modeOf(file), temps: tempsBeside(file).length });
  } else check({ file, missing: true });
  mkdir(dir);
  // What the appliance's start does before it reads config.toml.
  await removeStaleTemps(file);
  const store = createSettingsStore({ path: file, files: createFileStore(), logger: silentLogger });
  await store.load();
  if (checkOnly) return;
  running();
  for (;;) {
    const seq = next();
    const s = structuredClone(store.current());
    s.device.name = `pc-${seq}`;
    s.webhook.secret = secretOf(seq);
    s.audio.volume = seq % 101;
    start({ seq });
    await store.save(s);
    ack({ seq });
    await sleep(20);
  }
}

// --- the phone book, as the Bluetooth service writes it ------------------------------------------
async function phonebook() {
  const { check, start, ack, running, next } = io('phonebook');
  const file = `${ROOT}/phonebook/PHONE_BOOK.bin`;
  const contactsOf = (n) => [
    ...Array.from({ length: 40 }, (_, i) => ({ name: `pc ${n} contact ${i}`, numbers: [`+49${n}${i}`] })),
    { name: `pc ${n} check`, numbers: [sum(`phonebook${n}`)] },
  ];
  if (exists(file)) {
    let found = null;
    try {
      const contacts = await readPhoneBookFile(file);
      const n = Number(/^pc (\d+) /.exec(contacts[0]?.name ?? '')?.[1]);
      if (Number.isSafeInteger(n) && JSON.stringify(contacts) === JSON.stringify(contactsOf(n))) found = n;
    } catch {}
    check({ file, seq: found, torn: found === null, mode: modeOf(file), temps: tempsBeside(file).length });
  } else check({ file, missing: true });
  if (checkOnly) return;
  mkdir(`${ROOT}/phonebook`);
  running();
  for (;;) {
    const seq = next();
    start({ seq });
    await writePhoneBookFile(contactsOf(seq), file);
    ack({ seq });
    await sleep(30);
  }
}

// --- the telemetry queue (SQLite, @waved/psp-cloud/sqlite on node:sqlite) -----------------------
async function telemetry() {
  const { check, start, ack, running, next } = io('telemetry');
  const file = `${ROOT}/telemetry/queue.db`;
  if (exists(file)) {
    const result = integrity(file);
    let present = [];
    let error = null;
    try {
      const store = createSqliteTelemetryStore({ path: file, open: openNodeSqlite });
      present = (await store.peek(10_000_000)).map((q) => Number(q.event.params.pc_seq));
      await store.close();
    } catch (e) {
      error = e.message;
    }
    check({
      file,
      integrity: result,
      error,
      present: ranges(present),
      mode: modeOf(file),
      wal: modeOf(`${file}-wal`),
    });
  } else check({ file, missing: true });
  if (checkOnly) return;
  mkdir(`${ROOT}/telemetry`);
  const store = createSqliteTelemetryStore({ path: file, open: openNodeSqlite });
  running();
  for (;;) {
    const seq = next();
    start({ seq });
    await store.append([
      {
        uuid: crypto.randomUUID(),
        event: 'device_power_on',
        params: {
          mic_serial_number: 'PC-0001',
          fw_ver: '1.0.0',
          evt_language: 'en',
          evt_timezone: 'UTC',
          evt_time: Date.now(),
          pc_seq: seq,
        },
      },
    ]);
    ack({ seq });
    // As the uploader does after a batch reached the cloud: the oldest events leave the queue.
    if (seq % 100 === 0) {
      const sent = await store.peek(50);
      const upto = Math.max(...sent.map((q) => Number(q.event.params.pc_seq)));
      start({ removeUpto: upto });
      await store.remove(sent.map((q) => q.seq));
      ack({ removeUpto: upto });
    }
    await sleep(10);
  }
}

// --- a meeting recording: WAV plus its rows, through the appliance's recording store ------------
const FORMAT = { sampleRate: 16000, channels: 1, bitsPerSample: 16 };
/** The PCM byte at data offset `i`: the check knows every byte a recording should hold. */
const pcm = (i) => ((i * 31) ^ (i >> 9)) & 0xff;
async function recording() {
  const { check, start, ack, running } = io('recording');
  const dir = `${ROOT}/rec`;
  const db = `${dir}/recordings.db`;
  mkdir(dir);
  const dbIntegrity = exists(db) ? integrity(db) : 'missing';
  const store = openSqliteRecordingStore(dir);
  const recovered = [];
  // What the appliance does at start for a file a killed writer left in state `writing`.
  for (const f of store.unfinishedFiles()) {
    // as the recorder's recovery: the bytes the database holds for the file are the floor
    const r = await store.recoverWav(f.fileName, FORMAT, f.bytes);
    let firstBad = null;
    if (r) {
      const data = fs.readFileSync(store.filePath(f.fileName)).subarray(44, 44 + r.bytes);
      for (let i = 0; i < data.length; i++) {
        if (data[i] !== pcm(i)) {
          firstBad = i;
          break;
        }
      }
      store.updateFile(f.recordingId, f.seq, { state: 'recovered', bytes: r.bytes });
    }
    recovered.push({
      file: f.fileName,
      bytes: r?.bytes ?? null,
      firstBad,
      mode: modeOf(store.filePath(f.fileName)),
    });
  }
  const rows = store
    .listRecordings()
    .flatMap((r) => store.files(r.id).map((f) => [f.fileName, f.state, f.bytes]));
  check({ file: db, integrity: dbIntegrity, recovered, rows, mode: modeOf(db) });
  if (checkOnly) return store.close();
  // Keep the newest three recordings.
  for (const r of store.listRecordings().slice(0, -3)) {
    const files = store.files(r.id);
    // from here on the recording may be gone
    for (const f of files) start({ deleting: f.fileName });
    for (const f of files) await store.removeFile(f.fileName);
    store.deleteRecording(r.id);
  }
  const id = `pc-${cycle}`;
  const fileName = `${id}.wav`;
  if (store.getRecording(id)) {
    for (const f of store.files(id)) await store.removeFile(f.fileName);
    store.deleteRecording(id);
  }
  store.insertRecording({
    id,
    state: 'recording',
    transcriptionMode: 0,
    language: 'en',
    createdAt: Date.now(),
  });
  store.insertFile({ recordingId: id, seq: 1, fileName, state: 'writing' });
  const w = await store.createWavWriter(fileName, FORMAT);
  running();
  let written = 0;
  let lastSync = Date.now();
  for (;;) {
    // 50 ms of 16 kHz mono 16-bit audio
    const chunk = Buffer.alloc(1600);
    for (let i = 0; i < chunk.length; i++) chunk[i] = pcm(written + i);
    await w.write(chunk);
    written += chunk.length;
    if (Date.now() - lastSync >= 250) {
      lastSync = Date.now();
      await w.sync();
      // as the recorder does after each sync
      store.updateFile(id, 1, { bytes: w.syncedBytes });
      ack({ file: fileName, synced: w.syncedBytes });
    }
    await sleep(50);
  }
}

// --- an OTA download with resume (@waved/swu-ota) from a throttled server on loopback -----------
const PACKAGE_BYTES = 3 * 1024 * 1024;
/** The package: a fixed AES-CTR key stream, the same bytes in every boot. */
function packageBytes() {
  const key = crypto.createHash('sha256').update('pc-package').digest().subarray(0, 16);
  const cipher = crypto.createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
  return Buffer.concat([cipher.update(Buffer.alloc(PACKAGE_BYTES)), cipher.final()]);
}
async function ota() {
  const { check, start, ack, running } = io('ota');
  const body = packageBytes();
  const md5 = crypto.createHash('md5').update(body).digest('hex');
  const server = http.createServer(async (req, res) => {
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const from = m ? Number(m[1]) : 0;
    res.writeHead(m ? 206 : 200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': PACKAGE_BYTES - from,
      ETag: '"pc-package-1"',
      'Accept-Ranges': 'bytes',
      ...(m ? { 'Content-Range': `bytes ${from}-${PACKAGE_BYTES - 1}/${PACKAGE_BYTES}` } : {}),
    });
    // at most 2.5 MB/s: a download spans seconds and several checkpoints
    for (let off = from; off < PACKAGE_BYTES && !res.destroyed; off += 64 * 1024) {
      res.write(body.subarray(off, Math.min(off + 64 * 1024, PACKAGE_BYTES)));
      await sleep(25);
    }
    res.end();
  });
  await new Promise((r) => server.listen(8090, '127.0.0.1', r));
  const url = 'http://127.0.0.1:8090/software.swu?sig=pc';
  const dir = `${ROOT}/ota`;
  mkdir(dir);
  const downloader = createDownloader({
    dest: `${dir}/software.swu`,
    progressFile: false,
    doneFile: false,
    checkpointBytes: 1024 * 1024,
    retryDelayMs: 200,
  });
  const stateBytes = () => {
    try {
      return JSON.parse(fs.readFileSync(downloader.statePath, 'utf8')).bytes;
    } catch {
      return null;
    }
  };
  if (exists(downloader.partPath) || exists(downloader.statePath) || exists(downloader.dest)) {
    const before = stateBytes();
    const modes = [downloader.partPath, downloader.statePath, downloader.dest].map(modeOf);
    try {
      const r = await downloader.download(url, { md5, size: PACKAGE_BYTES });
      check({
        stateBytes: before,
        resumedBytes: r.resumedBytes,
        cached: r.cached,
        md5ok: r.md5 === md5,
        modes,
      });
    } catch (e) {
      check({ stateBytes: before, error: `${e.code ?? ''} ${e.message}`, md5ok: false, modes });
    }
  } else check({ missing: true });
  if (checkOnly) {
    server.close();
    return;
  }
  await downloader.remove();
  running();
  for (;;) {
    ack({ bytes: 0, fresh: true });
    // A checkpoint is acknowledged once the next one shows: the writer finished the first (its
    // state file was renamed and its directory synced) before it began the second.
    let seen = null;
    const poll = setInterval(() => {
      const b = stateBytes();
      if (b !== null && b !== seen) {
        if (seen !== null && b > seen) ack({ bytes: seen });
        seen = b;
      }
    }, 50);
    const r = await downloader.download(url, { md5, size: PACKAGE_BYTES });
    clearInterval(poll);
    ack({ complete: r.md5 === md5 });
    start({ removing: true });
    await downloader.remove();
  }
}

// --- station profiles: a real wpa_supplicant's save_config, through @waved/wpa-cli ---------------
async function wpa() {
  const { check, start, ack, running, error: fail, next } = io('wpa');
  const dir = `${ROOT}/wpa`;
  const file = `${dir}/wpa_supplicant.conf`;
  const pskOf = (n) => `k${n}x${sum(`wpa${n}`)}`;
  if (exists(file)) {
    const text = fs.readFileSync(file, 'utf8');
    const ssid = /\n\s*ssid="pc(\d+)"/.exec(text);
    const psk = /\n\s*psk="([^"]*)"/.exec(text);
    let found = null;
    if (ssid && psk && psk[1] === pskOf(ssid[1]) && /^ctrl_interface=/m.test(text)) found = Number(ssid[1]);
    // A file with no network yet is the first version.
    const empty = !/network=\{/.test(text) && /^ctrl_interface=/m.test(text);
    check({
      file,
      seq: found,
      torn: found === null && !empty,
      empty,
      mode: modeOf(file),
      temps: tempsBeside(file).length,
    });
  } else check({ file, missing: true });
  if (checkOnly) return;
  mkdir(dir);
  if (!exists(file)) await writeFileAtomic(file, 'ctrl_interface=/run/wpa-pc\nupdate_config=1\n');
  // wpa_supplicant under umask 077, as the device starts it.
  const child = spawn(
    'sh',
    [
      '-c',
      `umask 077; exec wpa_supplicant -D nl80211 -i wlan0 -c ${file} -P /tmp/pcwpa.pid -f /tmp/pcwpa.log`,
    ],
    { stdio: 'ignore' },
  );
  child.on('exit', (code) => {
    fail({ error: `wpa_supplicant exited ${code}` });
    process.exit(1);
  });
  // a loaded TCG guest can take many seconds for one wpa_cli call (the device profile's step limit)
  const cli = createWpaCli({ iface: 'wlan0', ctrlDir: '/run/wpa-pc', timeoutMs: 60_000 });
  for (let i = 0; ; i++) {
    try {
      await cli.ping();
      break;
    } catch (e) {
      if (i > 200) throw e;
      await sleep(100);
    }
  }
  await cli.removeNetwork('all');
  const id = await cli.addNetwork();
  running();
  for (;;) {
    const seq = next();
    await cli.setNetwork(id, 'ssid', `"pc${seq}"`);
    await cli.setNetwork(id, 'psk', `"${pskOf(seq)}"`);
    start({ seq });
    await cli.saveConfig();
    // As the device does after save_config (provisionNetwork): the mode made exact, then the file and
    // its directory fsynced (wpa_supplicant renames its temp file without any fsync).
    fs.chmodSync(file, 0o600);
    await syncSavedConfig(file);
    ack({ seq });
    await sleep(300);
  }
}

// --- the DHCP lease store: our server, real udhcpc clients joining and renewing ------------------
async function dhcp() {
  const { check, start, ack, running } = io('dhcp');
  const file = `${ROOT}/dhcp/leases.json`;
  mkdir(`${ROOT}/dhcp`);
  const store = createFileLeaseStore(file);
  let loaded = [];
  let error = null;
  try {
    loaded = await store.load();
  } catch (e) {
    error = `${e.code ?? ''} ${e.message}`;
  }
  const server = createDhcpServer({
    serverAddress: '192.168.7.1',
    netmask: '255.255.255.0',
    range: ['192.168.7.10', '192.168.7.250'],
    leaseSeconds: 600,
    router: '192.168.7.1',
    dns: '192.168.7.1',
    interface: 'pc-s',
    store,
  });
  await server.listen();
  const hex = (n) => n.toString(16).padStart(2, '0');
  const macOf = (tag, k) =>
    `02:${tag}:${hex((cycle >> 8) & 255)}:${hex(cycle & 255)}:${hex((k >> 8) & 255)}:${hex(k & 255)}`;
  const clients = new Map(); // iface -> { mac, child }
  let nextClient = 0;
  const ns = (args) => ['netns', 'exec', 'pccli', ...args];
  const sh = (args) =>
    new Promise((resolve) => spawn('ip', args, { stdio: 'ignore' }).on('exit', (code) => resolve(code)));
  /** A client on its own macvlan; resolves its first lease (or null). `keep`: stays and renews. */
  async function join(tag, keep, onLease) {
    const k = nextClient++;
    const iface = `mv${k}`;
    const mac = macOf(tag, k);
    await sh(
      ns([
        'ip',
        'link',
        'add',
        'link',
        'pc-c',
        'name',
        iface,
        'address',
        mac,
        'type',
        'macvlan',
        'mode',
        'bridge',
      ]),
    );
    await sh(ns(['ip', 'link', 'set', iface, 'up']));
    // -R: a client that leaves releases its lease, so the pool does not run dry over a long run
    // udhcpc's own 3 s retransmission timeout (a save on a loaded TCG guest can take a second)
    const args = ['-i', iface, '-f', '-R', '-s', '/app/pc-udhcpc.sh', '-t', '10', '-T', '3', '-A', '2'];
    const child = spawn('ip', ns(['udhcpc', ...(keep ? args : [...args, '-q', '-n'])]), {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    clients.set(iface, { mac, child });
    let first = null;
    const got = new Promise((resolve) => {
      first = resolve;
      child.on('exit', () => resolve(null));
    });
    eachLine(child.stdout, (l) => {
      const m = /^PCLEASE (\S+) (\S+) (\S+)/.exec(l);
      if (m) {
        onLease?.({ mac, ip: m[2], how: m[1], lease: Number(m[3]) });
        first({ mac, ip: m[2] });
      }
    });
    return got;
  }
  // The check: the saved table, then new clients must not get an address a saved client holds.
  const fresh = await Promise.all([0, 1, 2].map(() => join('bb', false)));
  check({
    file,
    error,
    leases: loaded
      .filter((l) => l.state === 'bound' || l.state === 2)
      .map((l) => [l.hardwareAddress, l.address, l.expiresAt]),
    states: [...new Set(loaded.map((l) => l.state))],
    fresh: fresh.map((f) => (f ? [f.mac, f.ip] : null)),
    stats: fresh.every(Boolean) ? undefined : server.stats(),
    mode: modeOf(file),
    temps: tempsBeside(file).length,
  });
  if (checkOnly) {
    for (const { child } of clients.values()) child.kill('SIGKILL');
    await server.close();
    return;
  }
  running();
  const onLease = (l) => ack(l);
  for (;;) {
    // join, renew, and now and then one leaves (no release: its lease stays bound)
    if (clients.size < 14) join('aa', true, onLease);
    const live = [...clients.entries()].filter(([, c]) => c.child.exitCode === null);
    for (const [, c] of live.slice(0, 3)) c.child.kill('SIGUSR1');
    if (live.length > 10) {
      const [iface, c] = live[0];
      // from here on the client no longer counts on its lease
      start({ release: c.mac });
      c.child.kill('SIGTERM');
      clients.delete(iface);
      sh(ns(['ip', 'link', 'del', iface]));
    }
    await sleep(1000);
  }
}

const writers = { settings, phonebook, telemetry, recording, ota, wpa, dhcp };
const chosen = names.split(',');
if (chosen.some((w) => !writers[w])) {
  console.error(`usage: pc.mjs ${Object.keys(writers).join('|')}[,...] <cycle> run|check`);
  process.exit(2);
}
const results = await Promise.allSettled(
  chosen.map((w) =>
    writers[w]().catch((e) => {
      io(w).error({ error: `${e.code ?? ''} ${e.stack ?? e.message}`.slice(0, 2000) });
      throw e;
    }),
  ),
);
process.exit(results.every((r) => r.status === 'fulfilled') ? 0 : 1);
