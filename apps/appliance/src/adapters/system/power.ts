import fs from 'node:fs/promises';
import path from 'node:path';
import type { CommandRunner } from '../../core/ports/runner.js';
import type { BatteryPort } from '../../domain/device/ota.js';

const read = (file: string) => fs.readFile(file, 'utf8').then((t) => t.trim());

/**
 * The battery from the kernel's power-supply class: `source` is a battery directory such as
 * `/sys/class/power_supply/BAT0` (its `capacity`, 0-100), or `mains` for a device without one. A
 * charger of type Mains or USB that is `online` beside it means external power (`'mains'`).
 */
export function createPowerSupplyBattery(source: string): BatteryPort {
  return {
    async read() {
      if (source === 'mains') return 'mains';
      const root = path.dirname(source);
      for (const name of await fs.readdir(root).catch(() => [] as string[])) {
        const dir = path.join(root, name);
        if (dir === source) continue;
        const type = await read(path.join(dir, 'type')).catch(() => '');
        if (type !== 'Mains' && type !== 'USB') continue;
        if ((await read(path.join(dir, 'online')).catch(() => '0')) === '1') return 'mains';
      }
      const capacity = Number(await read(path.join(source, 'capacity')));
      if (!Number.isInteger(capacity) || capacity < 0 || capacity > 100) {
        throw new Error(`${source}/capacity does not hold a percentage`);
      }
      return capacity;
    },
  };
}

/** Reboots with `systemctl reboot`, or `reboot` where there is no systemd. */
export function createSystemReboot(run: CommandRunner): () => Promise<void> {
  return async () => {
    const viaSystemd = await run('systemctl', ['reboot'], { timeoutMs: 10_000 }).catch(() => null);
    if (viaSystemd && viaSystemd.code === 0 && !viaSystemd.timedOut) return;
    const plain = await run('reboot', [], { timeoutMs: 10_000 });
    if (plain.code !== 0) throw new Error(`reboot exited with ${plain.code}: ${plain.stderr.trim()}`);
  };
}

/** The MAC of a network interface from sysfs (`aa:bb:cc:dd:ee:ff`). */
export async function readInterfaceMac(iface: string, sysfs = '/sys/class/net'): Promise<string> {
  const mac = (await read(path.join(sysfs, iface, 'address'))).toLowerCase();
  if (!/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/.test(mac)) throw new Error(`${iface} has no MAC address (${mac})`);
  return mac;
}

/** Size and free space of the filesystem holding `dir`, for `device_power_on`. */
export function statfsStorage(dir: string) {
  return async () => {
    const s = await fs.statfs(dir);
    const mb = (blocks: number) => Math.floor((blocks * s.bsize) / (1024 * 1024));
    return { totalMb: mb(s.blocks), freeMb: mb(s.bavail) };
  };
}
