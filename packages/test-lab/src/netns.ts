import crypto from 'node:crypto';
import { type ExecResult, exec } from './exec.js';

/** A network namespace created by a test; `remove()` deletes it (and every veth end inside). */
export interface Netns {
  readonly name: string;
  /** Runs a program inside the namespace (argv, no shell). */
  exec(file: string, args: readonly string[], options?: Parameters<typeof exec>[2]): Promise<ExecResult>;
  /** argv prefix for spawning a long-running peer inside the namespace: `['ip','netns','exec',name]`. */
  readonly prefix: readonly string[];
  remove(): Promise<void>;
}

const created = new Set<string>();

/** Creates a namespace with a unique name (`<hint>-<random>`), loopback up. */
export async function createNetns(hint = 'wv'): Promise<Netns> {
  const name = `${hint.slice(0, 8)}-${crypto.randomBytes(3).toString('hex')}`;
  await exec('ip', ['netns', 'add', name]);
  created.add(name);
  await exec('ip', ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up']);
  return {
    name,
    prefix: ['ip', 'netns', 'exec', name],
    exec: (file, args, options) => exec('ip', ['netns', 'exec', name, file, ...args], options),
    async remove() {
      created.delete(name);
      await exec('ip', ['netns', 'del', name], { allowFail: true });
    },
  };
}

/**
 * Creates a veth pair with one end in each namespace (or both in one), optional IPv4 address on the
 * first end, and brings both up.
 */
export async function createVethPair(
  a: { ns: Netns; name: string; address?: string },
  b: { ns: Netns; name: string; address?: string },
): Promise<void> {
  await exec('ip', [
    'link',
    'add',
    a.name,
    'netns',
    a.ns.name,
    'type',
    'veth',
    'peer',
    'name',
    b.name,
    'netns',
    b.ns.name,
  ]);
  for (const end of [a, b]) {
    if (end.address) await end.ns.exec('ip', ['addr', 'add', end.address, 'dev', end.name]);
    await end.ns.exec('ip', ['link', 'set', end.name, 'up']);
  }
}

/** Reads an interface's index inside a namespace (for SO_BINDTOIFINDEX). */
export async function ifindex(ns: Netns, iface: string): Promise<number> {
  const { stdout } = await ns.exec('cat', [`/sys/class/net/${iface}/ifindex`]);
  return Number.parseInt(stdout.trim(), 10);
}

/** Deletes every namespace this process created and has not removed yet. */
export async function removeAllNetns(): Promise<void> {
  await Promise.all([...created].map((n) => exec('ip', ['netns', 'del', n], { allowFail: true })));
  created.clear();
}
