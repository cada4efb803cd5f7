// Runs the real `dig` and reads back what a user sees in its output.
import { exec } from '@waved/test-lab';

export interface DigReply {
  opcode: string;
  status: string;
  id: number;
  flags: string[];
  counts: { query: number; answer: number; authority: number; additional: number };
  /** `null` without an OPT pseudo-section. */
  edns: { version: number; flags: string; udp: number } | null;
  question: string[];
  answer: string[][];
  authority: string[][];
  raw: string;
}

function section(lines: string[], title: string): string[] {
  const start = lines.indexOf(`;; ${title} SECTION:`);
  if (start < 0) return [];
  const out: string[] = [];
  for (let i = start + 1; i < lines.length && lines[i] !== ''; i++) out.push(lines[i]!);
  return out;
}

function parseDig(raw: string): DigReply {
  const header = /->>HEADER<<- opcode: (\w+), status: (\w+), id: (\d+)/.exec(raw);
  const flags = /;; flags:([^;]*); QUERY: (\d+), ANSWER: (\d+), AUTHORITY: (\d+), ADDITIONAL: (\d+)/.exec(
    raw,
  );
  if (!header || !flags) throw new Error(`dig gave no reply:\n${raw}`);
  const edns = /; EDNS: version: (\d+), flags:([^;]*); udp: (\d+)/.exec(raw);
  const lines = raw.split('\n');
  return {
    opcode: header[1]!,
    status: header[2]!,
    id: Number(header[3]),
    flags: flags[1]!.trim().split(/\s+/).filter(Boolean).sort(),
    counts: {
      query: Number(flags[2]),
      answer: Number(flags[3]),
      authority: Number(flags[4]),
      additional: Number(flags[5]),
    },
    edns: edns ? { version: Number(edns[1]), flags: edns[2]!.trim(), udp: Number(edns[3]) } : null,
    question: section(lines, 'QUESTION').map((l) => l.replace(/^;/, '').split(/\s+/).join(' ')),
    answer: section(lines, 'ANSWER').map((l) => l.split(/\s+/)),
    authority: section(lines, 'AUTHORITY').map((l) => l.split(/\s+/)),
    raw,
  };
}

/** `dig @127.0.0.1 -p port <args>` with one try and a short timeout. */
export async function dig(port: number, args: readonly string[]): Promise<DigReply> {
  const { stdout } = await exec('dig', ['@127.0.0.1', '-p', String(port), '+tries=1', '+time=3', ...args], {
    timeoutMs: 10_000,
  });
  return parseDig(stdout);
}
