import fs from 'node:fs/promises';
import path from 'node:path';

/** A DHCP client or wpa_supplicant on the interface that waved did not start. */
export interface StrayProcess {
  pid: number;
  program: string;
  argv: string[];
}

const PROGRAMS = new Set(['wpa_supplicant', 'udhcpc', 'dhclient', 'dhcpcd']);

/** Does this command line run one of the programs on `iface`? (`-i wlan0`, `-iwlan0`, or a bare `wlan0`). */
export function strayOn(argv: readonly string[], iface: string): string | null {
  if (argv.length === 0) return null;
  let program = path.basename(argv[0] ?? '');
  let args = argv.slice(1);
  // busybox udhcpc: `busybox udhcpc -i wlan0`
  if (program === 'busybox' && args[0] === 'udhcpc') {
    program = 'udhcpc';
    args = args.slice(1);
  }
  if (!PROGRAMS.has(program)) return null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if ((a === '-i' || a === '--interface') && args[i + 1] === iface) return program;
    if (a === `-i${iface}` || a === `--interface=${iface}`) return program;
    // dhclient and dhcpcd take the interface as a positional argument
    if ((program === 'dhclient' || program === 'dhcpcd') && a === iface) return program;
  }
  return null;
}

/**
 * Processes on `iface` in this network namespace (an interface name only means something inside
 * its namespace) that are not in `own`. Found by scanning /proc; processes that vanish are skipped.
 */
export async function findStrays(
  iface: string,
  own: ReadonlySet<number>,
  proc = '/proc',
): Promise<StrayProcess[]> {
  const myNet = await fs.readlink(path.join(proc, 'self/ns/net')).catch(() => null);
  const out: StrayProcess[] = [];
  for (const entry of await fs.readdir(proc)) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid || own.has(pid)) continue;
    try {
      const raw = await fs.readFile(path.join(proc, entry, 'cmdline'));
      const argv = raw
        .toString('utf8')
        .split('\0')
        .filter((a) => a !== '');
      const program = strayOn(argv, iface);
      if (!program) continue;
      const net = await fs.readlink(path.join(proc, entry, 'ns/net')).catch(() => null);
      if (myNet !== null && net !== myNet) continue;
      out.push({ pid, program, argv });
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** SIGTERM, then SIGKILL after `graceMs`; resolves when every process is gone. */
export async function stopProcesses(pids: readonly number[], graceMs = 3_000): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + graceMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const pid of pids.filter(alive)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
