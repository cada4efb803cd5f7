// The host side of the power-cut run (started by e2e/powercut/run): boots the guest on the persistent
// disk, waits until every writer is busy, kills QEMU with SIGKILL at a random moment (a power cut
// for the guest: virtio-blk with cache=none keeps nothing the guest did not flush), and boots again.
// Each boot's checks are held against what the boot before it acknowledged. Ends with one line:
//   power cuts: N, files checked: M, torn: T, lost acknowledged records: L, failed boots: B
// and exits 1 unless T, L and B are 0 and no other check failed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eachLine } from '../hwsim/scenarios/lib.mjs';

const { values: opt } = parseArgs({
  options: {
    cycles: { type: 'string', default: '10' },
    kernel: { type: 'string' },
    initrd: { type: 'string' },
    disk: { type: 'string' },
    console: { type: 'string', default: 'ttyS0' },
    logs: { type: 'string' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    smp: { type: 'string', default: '2' },
    'boot-timeout': { type: 'string', default: '600' },
  },
});
const cycles = Number(opt.cycles);
const bootTimeoutMs = Number(opt['boot-timeout']) * 1000;
fs.mkdirSync(opt.logs, { recursive: true });

// A small seeded generator (mulberry32), so a run can be repeated with its seed.
let s = Number(opt.seed) >>> 0;
const random = () => {
  s = (s + 0x6d2b79f5) | 0;
  let t = Math.imul(s ^ (s >>> 15), 1 | s);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
};
// The VM never outlives this driver: killed or interrupted, it takes the current QEMU with it.
let current = null;
const stopVm = () => current?.kill('SIGKILL');
process.on('exit', stopVm);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopVm();
    process.exit(1);
  });
}
const log = (text) => process.stderr.write(`[powercut] ${text}\n`);

/**
 * One boot. `cut`: when to kill, as { after: 'workload' | 'start', ms }; null for the final boot,
 * which ends by itself. Resolves the boot's console lines and timings.
 */
function boot(index, cut) {
  const mode = cut ? 'cycle' : 'final';
  const args = [
    '-accel',
    'tcg,thread=multi',
    '-cpu',
    'max',
    '-smp',
    opt.smp,
    '-m',
    '1536',
    '-nic',
    'none',
    '-kernel',
    opt.kernel,
    '-initrd',
    opt.initrd,
    '-append',
    `console=${opt.console} panic=-1 quiet loglevel=3 waved.pc=${index}:${mode}`,
    '-drive',
    `file=${opt.disk},if=virtio,format=raw,cache=none`,
    '-display',
    'none',
    '-serial',
    'stdio',
    '-no-reboot',
    '-monitor',
    'none',
  ];
  const started = performance.now();
  const qemu = spawn('qemu-system-x86_64', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  current = qemu;
  const lines = [];
  const out = fs.createWriteStream(path.join(opt.logs, `boot-${String(index).padStart(3, '0')}.log`));
  let killTimer = null;
  let killedAt = null;
  const marks = {};
  const kill = (why) => {
    if (killedAt !== null) return;
    killedAt = performance.now();
    marks.cut = (killedAt - started) / 1000;
    marks.cutWhy = why;
    qemu.kill('SIGKILL');
  };
  const onLine = (raw) => {
    const l = raw.replace(/\r$/, '');
    const t = ((performance.now() - started) / 1000).toFixed(1);
    out.write(`w+${t} ${l}\n`);
    if (killedAt !== null) return; // after the cut nothing counts
    lines.push({ at: Date.now(), l });
    if (/^PC: .*WORKLOAD-RUNNING/.test(l)) {
      marks.workload = Number(t);
      if (cut?.after === 'workload') killTimer = setTimeout(() => kill('workload'), cut.ms);
    }
    if (/^PC: .* READY /.test(l)) marks.ready = Number(t);
    if (/^PC: .* CONNECTED /.test(l)) marks.connected = Number(t);
    if (/^PC: .*boot of cycle/.test(l)) {
      marks.booted = Number(t);
      if (cut?.after === 'start') killTimer = setTimeout(() => kill('start'), cut.ms);
    }
  };
  eachLine(qemu.stdout, onLine);
  qemu.stderr.on('data', (d) => out.write(`qemu: ${d}`));
  const timeout = setTimeout(() => kill('timeout'), bootTimeoutMs);
  return new Promise((resolve) => {
    qemu.on('exit', () => {
      current = null;
      clearTimeout(timeout);
      clearTimeout(killTimer);
      out.end();
      resolve({ index, lines, marks, wallS: (performance.now() - started) / 1000 });
    });
  });
}

const json = (l) => JSON.parse(l.slice(l.indexOf('{')));
/** The facts of one boot's console, each with the host time its line arrived. */
function factsOf(lines) {
  const acks = {}; // writer -> acknowledged facts
  const starts = {}; // writer -> started facts
  const checks = {}; // writer -> check facts
  const runningWriters = new Set();
  const errors = [];
  for (const { at, l } of lines) {
    if (/^PCR /.test(l)) runningWriters.add(l.split(' ')[1]);
    const m = /^(PCK|PCA|PCS|PCE) (\S+)/.exec(l);
    if (!m) {
      if (/^PC: .*BOOT-FAIL/.test(l)) errors.push(l);
      continue;
    }
    const [, kind, w] = m;
    let v;
    try {
      v = { ...json(l), at };
    } catch {
      errors.push(`unreadable line: ${l}`);
      continue;
    }
    const into = kind === 'PCA' ? acks : kind === 'PCS' ? starts : kind === 'PCK' ? checks : null;
    if (!into) errors.push(`${w}: ${v.error}`);
    else {
      into[w] ??= [];
      into[w].push(v);
    }
  }
  return { acks, starts, checks, errors, runningWriters };
}

const total = { cuts: 0, files: 0, torn: 0, lost: 0, failedBoots: 0, other: 0 };
const problems = [];
const problem = (kind, index, text) => {
  total[kind]++;
  problems.push(`boot ${index}: ${kind}: ${text}`);
  log(`boot ${index}: ${kind}: ${text}`);
};

// What every boot so far acknowledged. Sequence numbers grow across boots, so the newest
// acknowledged version of a file is the highest one ever acknowledged.
const ledger = {
  lastAck: {}, // writer -> highest acknowledged seq
  lastStart: {}, // writer -> highest seq whose write started
  telemetry: [], // acknowledged event seqs
  removedUpto: -1, // the highest seq a started or acknowledged removal may have taken
  recordings: [], // [{ file, synced }] of the last two boots that recorded
  ota: null, // { kept, complete } of the download the last boot worked on
  leases: new Map(), // mac -> { ip, until }: what a client was told it holds
};
const max = (xs) => Math.max(-1, ...xs.filter(Number.isFinite));

/** Holds boot `b`'s checks against the ledger, then adds what `b` acknowledged to it. */
function judge(b, cut) {
  const B = factsOf(b.lines);
  const i = b.index;
  const one = (w) => B.checks[w]?.[0];
  // A boot cut while it was starting may not have reached its checks: nothing to hold it to.
  const early = cut?.after === 'start' && b.marks.workload === undefined;
  for (const e of B.errors) problem('other', i, e);

  // The device's own files: SQLite integrity, temps left after the start, modes, READY and network.
  const db = one('device-db');
  for (const [file, result] of Object.entries(db?.integrity ?? {})) {
    total.files++;
    if (result !== 'ok') problem('torn', i, `${file}: integrity_check ${result}`);
  }
  const files = one('device-files');
  if (!files) {
    if (!early) problem('failedBoots', i, 'no device-files report');
  } else {
    for (const t of files.tempsLeft) problem('other', i, `temporary file left after the start: ${t}`);
    for (const [f, m] of files.wide) problem('other', i, `${f} has mode ${m}, not 600`);
    if (files.ready === null || files.connected === null)
      problem('failedBoots', i, `READY ${files.ready} s, saved network ${files.connected} s`);
  }
  const missingCheck = (w) => {
    if (!early) problem('other', i, `${w}: no check report`);
  };

  // Versioned files: the version found is the last acknowledged one or a newer one that started.
  for (const w of ['settings', 'phonebook', 'wpa']) {
    const c = one(w);
    const acked = ledger.lastAck[w] ?? -1;
    const begun = Math.max(acked, ledger.lastStart[w] ?? -1);
    if (!c) {
      missingCheck(w);
      continue;
    }
    if (c.missing) {
      if (acked >= 0) problem('lost', i, `${w}: file missing, ${acked} was acknowledged`);
      continue;
    }
    total.files++;
    if (c.mode !== '600') problem('other', i, `${w}: mode ${c.mode}`);
    if (c.torn) problem('torn', i, `${w}: ${c.file} is neither an old nor a new version`);
    else if (c.seq !== null && c.seq < acked)
      problem('lost', i, `${w}: found ${c.seq}, ${acked} was acknowledged`);
    else if (c.seq !== null && c.seq > begun) problem('torn', i, `${w}: found ${c.seq}, never written`);
    else if (c.seq === null && !c.empty && acked >= 0)
      problem('lost', i, `${w}: no version, ${acked} was acknowledged`);
  }

  // Telemetry: every acknowledged event is there, except those a removal may have taken.
  const tel = one('telemetry');
  if (!tel) missingCheck('telemetry');
  else if (tel.missing) {
    if (ledger.telemetry.length > 0) problem('lost', i, 'telemetry: queue missing');
  } else {
    total.files++;
    if (tel.integrity !== 'ok') problem('torn', i, `telemetry: integrity_check ${tel.integrity}`);
    if (tel.error) problem('torn', i, `telemetry: ${tel.error}`);
    const has = (n) => tel.present.some(([x, y]) => n >= x && n <= y);
    const missing = ledger.telemetry.filter((n) => n > ledger.removedUpto && !has(n));
    // each loss is counted once
    ledger.telemetry = ledger.telemetry.filter((n) => !missing.includes(n));
    if (missing.length > 0)
      problem(
        'lost',
        i,
        `telemetry: ${missing.length} acknowledged events missing (${missing.slice(0, 5).join(', ')})`,
      );
    if (tel.mode !== '600') problem('other', i, `telemetry: mode ${tel.mode}`);
  }

  // The recording: recovered at least as long as the last acknowledged sync, every byte the right one.
  const rec = one('recording');
  if (!rec) missingCheck('recording');
  else {
    total.files++;
    if (rec.integrity !== 'ok' && rec.integrity !== 'missing')
      problem('torn', i, `recordings.db: integrity_check ${rec.integrity}`);
    for (const r of rec.recovered) {
      total.files++;
      if (r.firstBad !== null)
        problem('torn', i, `recording ${r.file}: byte ${r.firstBad} of the audio is wrong`);
      if (r.mode !== '600' && r.mode !== null) problem('other', i, `recording ${r.file}: mode ${r.mode}`);
    }
    for (const { file, synced } of ledger.recordings) {
      const now = rec.recovered.find((r) => r.file === file);
      const row = rec.rows.find((r) => r[0] === file);
      const bytes = now ? now.bytes : row?.[1] === 'recovered' ? row[2] : null;
      if (!row) problem('lost', i, `recording ${file}: its row is gone (${synced} bytes were synced)`);
      else if (bytes === null || bytes < synced)
        problem('lost', i, `recording ${file}: ${bytes} bytes recovered, ${synced} were synced`);
    }
  }

  // The OTA download resumes to the right MD5, from no earlier than the last acknowledged checkpoint.
  const ota = one('ota');
  if (!ota) missingCheck('ota');
  else if (!ota.missing) {
    total.files++;
    if (!ota.md5ok)
      problem('torn', i, `ota: the resumed download does not match its MD5 (${ota.error ?? ''})`);
    const kept = ledger.ota?.complete ? 0 : (ledger.ota?.kept ?? 0);
    if (!ota.cached && ota.resumedBytes < kept)
      problem('lost', i, `ota: resumed from ${ota.resumedBytes}, checkpoint ${kept} was acknowledged`);
  }

  // DHCP: the table loads, every lease a client holds is in it, and no new client gets a held address.
  const dhcp = one('dhcp');
  if (!dhcp) missingCheck('dhcp');
  else {
    total.files++;
    if (dhcp.error) problem('torn', i, `dhcp: the lease store does not load: ${dhcp.error}`);
    // a minute's margin for the guest's clock
    const valid = [...ledger.leases].filter(([, l]) => l.until > dhcp.at + 60_000);
    const saved = new Map(dhcp.leases.map(([mac, ip]) => [mac, ip]));
    const heldBy = new Map(valid.map(([mac, l]) => [l.ip, mac]));
    for (const [mac, l] of valid)
      if (saved.get(mac) !== l.ip) {
        problem(
          'lost',
          i,
          `dhcp: lease ${l.ip} of ${mac} acknowledged, the store has ${saved.get(mac) ?? 'none'}`,
        );
        // each loss is counted once
        ledger.leases.delete(mac);
      }
    for (const f of dhcp.fresh) {
      if (!f)
        problem(
          'other',
          i,
          `dhcp: a new client got no lease after the restart (server ${JSON.stringify(dhcp.stats)})`,
        );
      else if (heldBy.has(f[1]) && heldBy.get(f[1]) !== f[0])
        problem('lost', i, `dhcp: ${f[1]} handed to ${f[0]}, held by ${heldBy.get(f[1])}`);
    }
    if (dhcp.mode !== '600' && dhcp.mode !== null) problem('other', i, `dhcp: mode ${dhcp.mode}`);
    for (const f of dhcp.fresh) if (f) ledger.leases.set(f[0], { ip: f[1], until: dhcp.at + 600_000 });
  }

  // What this boot acknowledged, for the next one.
  for (const w of ['settings', 'phonebook', 'wpa']) {
    ledger.lastAck[w] = Math.max(ledger.lastAck[w] ?? -1, max((B.acks[w] ?? []).map((x) => x.seq)));
    ledger.lastStart[w] = Math.max(ledger.lastStart[w] ?? -1, max((B.starts[w] ?? []).map((x) => x.seq)));
  }
  ledger.telemetry.push(...(B.acks.telemetry ?? []).map((x) => x.seq).filter(Number.isFinite));
  ledger.removedUpto = Math.max(
    ledger.removedUpto,
    max((B.acks.telemetry ?? []).map((x) => x.removeUpto)),
    max((B.starts.telemetry ?? []).map((x) => x.removeUpto)),
  );
  ledger.telemetry = ledger.telemetry.filter((n) => n > ledger.removedUpto);
  const deleted = new Set((B.starts.recording ?? []).map((x) => x.deleting).filter(Boolean));
  ledger.recordings = ledger.recordings.filter((r) => !deleted.has(r.file));
  if (B.runningWriters.has('recording')) {
    const synced = {};
    for (const x of B.acks.recording ?? []) synced[x.file] = Math.max(synced[x.file] ?? 0, x.synced);
    ledger.recordings = [
      ...ledger.recordings.slice(-1),
      ...Object.entries(synced).map(([file, n]) => ({ file, synced: n })),
    ];
  }
  if (B.runningWriters.has('ota')) {
    const acks = B.acks.ota ?? [];
    const since = acks.findLastIndex((x) => x.fresh);
    const after = acks.slice(since + 1);
    ledger.ota = {
      kept: Math.max(0, ...after.map((x) => x.bytes ?? 0)),
      complete: after.some((x) => x.complete),
    };
  }
  for (const x of B.acks.dhcp ?? []) ledger.leases.set(x.mac, { ip: x.ip, until: x.at + x.lease * 1000 });
  for (const x of B.starts.dhcp ?? []) if (x.release) ledger.leases.delete(x.release);
}

const line = () =>
  `power cuts: ${total.cuts}, files checked: ${total.files}, torn: ${total.torn}, lost acknowledged records: ${total.lost}, failed boots: ${total.failedBoots}`;
/** Written after every boot, so a long run that is stopped still has its figures on file. */
function writeSummary(done) {
  const wall = (performance.now() - started) / 1000;
  const summary = {
    seed: opt.seed,
    cycles,
    done,
    boots: boots.length,
    wallSeconds: Math.round(wall),
    secondsPerBoot: Number((wall / Math.max(1, boots.length)).toFixed(1)),
    summary: line(),
    ...total,
    problems,
    perBoot: boots.map((b) => ({ index: b.index, wallS: Number(b.wallS.toFixed(1)), ...b.marks })),
  };
  fs.writeFileSync(path.join(opt.logs, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
const boots = [];
const started = performance.now();
for (let index = 0; index <= cycles; index++) {
  const last = index === cycles;
  // Most cuts fall while every writer is busy; one in five while the device is still starting.
  const cut = last
    ? null
    : random() < 0.8
      ? { after: 'workload', ms: Math.round(random() * 4000) }
      : { after: 'start', ms: Math.round(2000 + random() * 20_000) };
  const b = await boot(index, cut);
  boots.push(b);
  if (cut) total.cuts++;
  if (!cut && !b.lines.some(({ l }) => /FINAL-DONE/.test(l)))
    problem('failedBoots', index, 'the final boot did not finish its checks');
  if (cut && b.marks.cutWhy === 'timeout')
    problem('failedBoots', index, 'no workload before the boot timeout');
  judge(b, cut);
  const m = b.marks;
  log(
    `boot ${index}: ${b.wallS.toFixed(1)} s (READY at ${m.ready ?? '-'} s, network ${m.connected ?? '-'} s, workload ${m.workload ?? '-'} s, cut ${m.cut?.toFixed(1) ?? '-'} s after ${m.cutWhy ?? '-'})`,
  );
  writeSummary(false);
}
const summary = writeSummary(true);
log(
  `${boots.length} boots in ${summary.wallSeconds} s: ${summary.secondsPerBoot} s per boot; seed ${opt.seed}; logs in ${opt.logs}`,
);
if (total.other > 0) log(`other failed checks: ${total.other}`);
console.log(line());
process.exit(total.torn + total.lost + total.failedBoots + total.other === 0 ? 0 : 1);
