import type { CommandRunner } from '../../src/index.js';
import { printfEncode } from './printf-encode.js';

export interface FakeNetwork {
  id: number;
  ssid: Buffer;
  priority: number;
  disabled: boolean;
  tempDisabled: boolean;
  vars: Record<string, string>;
}

/**
 * An in-memory stand-in for wpa_supplicant behind wpa_cli, answering the commands the profile
 * rules use the way 2.10 does (replies as in fixtures/). Real-peer tests cover the real thing.
 */
export function fakeSupplicant(initial: Array<Partial<FakeNetwork> & { ssid: Buffer }> = []) {
  const networks: FakeNetwork[] = [];
  let nextId = 0;
  const add = (n: Partial<FakeNetwork> & { ssid: Buffer }) => {
    const net: FakeNetwork = {
      id: nextId++,
      priority: 0,
      disabled: true,
      tempDisabled: false,
      vars: {},
      ...n,
    };
    networks.push(net);
    return net;
  };
  for (const n of initial) add(n);
  const commands: string[][] = [];
  const saves: FakeNetwork[][] = [];
  const failOn: Array<(cmd: string[]) => boolean> = [];
  const find = (id: string | undefined) => networks.find((n) => String(n.id) === id);

  const reply = (cmd: string[]): string => {
    if (failOn.some((f) => f(cmd))) return 'FAIL\n';
    const [verb, id, name, value] = cmd;
    switch (verb) {
      case 'list_networks':
        return `network id / ssid / bssid / flags\n${networks
          .map(
            (n) =>
              `${n.id}\t${printfEncode(n.ssid)}\tany\t${n.disabled ? '[DISABLED]' : ''}${n.tempDisabled ? '[TEMP-DISABLED]' : ''}\n`,
          )
          .join('')}`;
      case 'add_network':
        return `${add({ ssid: Buffer.alloc(0) }).id}\n`;
      case 'get_network': {
        const n = find(id);
        if (!n) return 'FAIL\n';
        if (name === 'priority') return String(n.priority);
        if (name === 'psk') return n.vars.psk ? '*' : 'FAIL\n';
        return n.vars[name!] ?? 'FAIL\n';
      }
      case 'set_network': {
        const n = find(id);
        if (!n || value === undefined) return 'FAIL\n';
        if (name === 'ssid') {
          if (!/^([0-9a-f]{2}){1,32}$/.test(value)) return 'FAIL\n';
          n.ssid = Buffer.from(value, 'hex');
        } else if (name === 'priority') n.priority = Number(value);
        else if (name === 'psk' && !/^[0-9a-f]{64}$/.test(value)) return 'FAIL\n';
        n.vars[name!] = value;
        return 'OK\n';
      }
      case 'enable_network': {
        const n = find(id);
        if (!n) return 'FAIL\n';
        if (n.disabled) n.tempDisabled = false;
        n.disabled = false;
        return 'OK\n';
      }
      case 'disable_network': {
        const n = find(id);
        if (!n) return 'FAIL\n';
        n.disabled = true;
        return 'OK\n';
      }
      case 'select_network':
        for (const n of networks) n.disabled = String(n.id) !== id;
        return 'OK\n';
      case 'remove_network': {
        const at = networks.findIndex((n) => String(n.id) === id);
        if (at < 0) return 'FAIL\n';
        networks.splice(at, 1);
        return 'OK\n';
      }
      case 'save_config':
        saves.push(networks.map((n) => ({ ...n, vars: { ...n.vars } })));
        return 'OK\n';
      case 'reassociate':
      case 'reconnect':
      case 'disconnect':
        return 'OK\n';
      default:
        return 'UNKNOWN COMMAND\n';
    }
  };

  const run: CommandRunner = async (_file, args) => {
    const cmd = args.slice(args.indexOf('--') + 1);
    commands.push(cmd);
    return { stdout: reply(cmd), stderr: '', code: 0 };
  };
  return { run, networks, commands, saves, failOn };
}
