// What every benchmark records: bench/results/<name>.json with the machine, its load, the exact
// command line of each side, the figures, and the date. Documentation quotes figures from these
// files only (bench/report.mjs writes the marked blocks), and `npm run bench -- --check` compares
// them with bench/goals.mjs.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const resultsDir = path.join(benchDir, 'results');

function commit() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: benchDir,
      encoding: 'utf8',
    });
    // Results of earlier runs (bench/results) are not code: a run taken before they were committed
    // still ran the committed code.
    const dirty = execFileSync(
      'git',
      ['status', '--porcelain', '--untracked-files=no', '--', ':/', ':(exclude,top)bench/results'],
      { cwd: benchDir, encoding: 'utf8' },
    ).trim();
    return `${head.trim()}${dirty ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** The machine a figure was taken on; `busy` compares the load average with the core count. */
export function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    model: cpus[0]?.model ?? 'unknown',
    kernel: `${os.type()} ${os.release()}`,
    memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    node: process.version,
    commit: commit(),
  };
}

export const loadAverage = () => os.loadavg().map((l) => Number(l.toFixed(2)));

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** Fields of /proc/<pid>/stat after the command name (field 3 is [0]). */
function statFields(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** statFields, or undefined for a process that is gone. */
function statFieldsIfAlive(pid) {
  try {
    return statFields(pid);
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds used by this process and everything it started: its own time, its reaped children's
 * (cutime, cstime) and the live descendants' (with their reaped children's).
 */
function ownTreeCpuSeconds() {
  const stats = new Map(); // pid -> stat fields, each /proc/<pid>/stat read once
  const children = new Map(); // ppid -> pids
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFieldsIfAlive(entry);
    if (!f) continue;
    const pid = Number(entry);
    const ppid = Number(f[1]);
    stats.set(pid, f);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  let ticks = 0;
  const queue = [process.pid];
  while (queue.length) {
    const pid = queue.pop();
    const f = stats.get(pid);
    if (f) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]); // utime stime cutime cstime
    queue.push(...(children.get(pid) ?? []));
  }
  return ticks / CLOCK_TICKS;
}

/** CPU seconds the whole machine has spent busy (user, nice, system, irq, softirq), from /proc/stat. */
function machineCpuSeconds() {
  const [, user, nice, system, , , irq, softirq] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .map(Number);
  return (user + nice + system + irq + softirq) / CLOCK_TICKS;
}

/**
 * Starts the record of one benchmark run. `finish(figures)` writes bench/results/<name>.json and
 * returns the path. The run counts as taken on a busy machine when the 1-minute load average at its
 * start exceeds half the core count, or when other processes (everything but the benchmark and the
 * processes it started) used more than half a core on average during the run. The load average at
 * the end is recorded too, but a benchmark that keeps both cores busy raises it itself. Figures from
 * a busy machine are kept, labelled, never final.
 */
export function startRecord(name, { method }) {
  const started = new Date();
  const loadStart = loadAverage();
  const machineStart = machineCpuSeconds();
  const ownStart = ownTreeCpuSeconds();
  const sides = {};
  const notes = [];
  return {
    /** Records the exact command line (or in-process call) of one side, and what it is. */
    side(label, command, what) {
      sides[label] = what ? { command, what } : { command };
    },
    note(text) {
      notes.push(text);
    },
    finish(figures) {
      const loadEnd = loadAverage();
      const cores = os.cpus().length;
      const seconds = Math.max(1e-3, (Date.now() - started.getTime()) / 1000);
      const others = Math.max(
        0,
        (machineCpuSeconds() - machineStart - (ownTreeCpuSeconds() - ownStart)) / seconds,
      );
      const busy = loadStart[0] > cores / 2 || others > 0.5;
      const record = {
        name,
        date: started.toISOString(),
        durationSeconds: Math.round((Date.now() - started.getTime()) / 1000),
        machine: machine(),
        load: {
          start: loadStart,
          end: loadEnd,
          otherProcessesCores: Number(others.toFixed(2)),
          busy,
          note: busy
            ? `taken while the machine was busy (1-minute load average above ${cores / 2} on ${cores} cores at the start, or other processes using more than half a core during the run): not a final figure`
            : 'taken on a quiet machine (other processes used less than half a core during the run)',
        },
        method,
        sides,
        notes,
        figures,
      };
      fs.mkdirSync(resultsDir, { recursive: true });
      const file = path.join(resultsDir, `${name}.json`);
      fs.writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
      console.log(
        `\nresults: ${path.relative(process.cwd(), file)} (load ${loadStart.join(' ')} -> ${loadEnd.join(' ')}, other processes ${others.toFixed(2)} cores${busy ? ', BUSY machine' : ''})`,
      );
      return file;
    },
  };
}

// ---- measuring helpers shared by the benchmarks

/** CPU seconds (user, system) a process has used, from /proc/<pid>/stat (fields 14 and 15). */
export function cpuOf(pid) {
  const fields = statFields(pid);
  return { user: Number(fields[11]) / CLOCK_TICKS, sys: Number(fields[12]) / CLOCK_TICKS };
}

export const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Median, min and max of a list (the spread a figure is quoted with). */
export const spread = (values) => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
  n: values.length,
});

export const round = (x, digits = 3) => (Number.isFinite(x) ? Number(x.toPrecision(digits)) : x);

/** A ratio ours/peer with both sides and which way is better, as the results record it. */
export function ratio(ours, peer, { unit, better }) {
  return { ours: round(ours, 4), peer: round(peer, 4), unit, ratio: round(ours / peer, 3), better };
}

/** Whether the benchmarks pin the server and the load generator to cores of their own (2 or more). */
export const pinned = os.cpus().length >= 2;

/** argv run on one core with taskset when `pinned`, else as it is. */
export const pin = (core, argv) => (pinned ? ['taskset', '-c', String(core), ...argv] : argv);

export function have(program) {
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', program], { stdio: 'ignore' }).status === 0;
}

/** Quotes an argv for display as one shell command line. */
export function shellLine(argv) {
  return argv
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${String(a).replaceAll("'", "'\\''")}'`))
    .join(' ');
}
