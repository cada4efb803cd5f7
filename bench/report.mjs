// Figures in the documentation come from bench/results/*.json only: this fills every block marked
// <!-- bench:NAME --> … <!-- /bench:NAME --> in the files below with the figures of
// bench/results/NAME.json, their date, machine and load, and the command line of each side.
import fs from 'node:fs';
import path from 'node:path';
import { goals, met } from './goals.mjs';
import { benchDir, resultsDir } from './lib/results.mjs';

const root = path.resolve(benchDir, '..');
const documents = [
  'bench/README.md',
  'packages/psk/README.md',
  'packages/dhcp-server/README.md',
  'packages/captive-dns/README.md',
  'packages/bt-frame/README.md',
  'packages/swu-ota/README.md',
  'packages/psp-cloud/README.md',
];

export function readResult(name) {
  const file = path.join(resultsDir, `${name}.json`);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

const num = (x) => {
  if (typeof x !== 'number' || !Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return x.toLocaleString('en-US', { maximumFractionDigits: digits }).replaceAll(',', ' ');
};

/** The markdown block for one result. */
function block(result) {
  if (!result) return 'No run on file yet: `npm run bench` writes it.';
  const m = result.machine;
  const day = result.date.slice(0, 10);
  const lines = [
    `From \`bench/results/${result.name}.json\`, ${day}: ${m.cpus} × ${m.model}, Node ${m.node}, commit ${m.commit}; ` +
      `load average ${result.load.start[0]} at the start, ${result.load.end[0]} at the end` +
      (result.load.busy ? ' — **taken on a busy machine, not a final figure**.' : '.'),
    '',
    '| figure | ours | peer | ours / peer | goal |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const [id, f] of Object.entries(result.figures)) {
    if (typeof f !== 'object' || f === null || !('ratio' in f)) continue;
    const goal = goals.find((g) => g.bench === result.name && g.figure === id);
    const op = goal?.op === '<=' ? '≤' : '≥';
    const goalText = goal ? `${op} ${goal.value}× (${met(goal, f.ratio) ? 'met' : '**missed**'})` : '';
    // a spread of the ratio, or one per side (each in the figure's unit)
    const range = (s) => (s && Number.isFinite(s.min) ? ` (${num(s.min)}–${num(s.max)}, n=${s.n})` : '');
    const perSide = f.spread && ('ours' in f.spread || 'peer' in f.spread);
    const spreadText = f.spread && !perSide ? range(f.spread) : '';
    const oursText = perSide ? range(f.spread.ours) : '';
    const peerText = perSide ? range(f.spread.peer) : '';
    lines.push(
      `| ${f.label ?? id} | ${num(f.ours)} ${f.unit ?? ''}${oursText} | ${num(f.peer)} ${f.unit ?? ''}${peerText} | ${num(f.ratio)}×${spreadText} | ${goalText} |`,
    );
  }
  lines.push('', 'Each side, exactly:', '');
  for (const [label, side] of Object.entries(result.sides)) {
    const { command, what } = typeof side === 'string' ? { command: side } : side;
    lines.push(`- ${label}: \`${command}\`${what ? ` (${what})` : ''}`);
  }
  for (const note of result.notes ?? []) lines.push(`- ${note}`);
  return lines.join('\n');
}

/** Rewrites the marked blocks; returns the files it changed. */
export function writeReport() {
  const changed = [];
  for (const doc of documents) {
    const file = path.join(root, doc);
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, 'utf8');
    const next = text.replace(
      /(<!-- bench:([\w-]+) -->\n)[\s\S]*?(\n<!-- \/bench:\2 -->)/g,
      (_all, open, name, close) => `${open}${block(readResult(name))}${close}`,
    );
    if (next !== text) {
      fs.writeFileSync(file, next);
      changed.push(doc);
    }
  }
  return changed;
}
