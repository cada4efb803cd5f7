import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@waved/test-lab';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createPowerSupplyBattery,
  createSystemReboot,
  readInterfaceMac,
  statfsStorage,
} from '../../src/adapters/system/power.js';
import { runCommand } from '../../src/adapters/system/runner.js';

const dir = tempDir('waved-adapters-');
afterAll(() => dir.remove());

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

describe('battery from /sys/class/power_supply (a sysfs tree in a temp dir)', () => {
  const root = dir.join('power_supply');
  write(path.join(root, 'BAT0/type'), 'Battery\n');
  write(path.join(root, 'BAT0/capacity'), '57\n');
  write(path.join(root, 'AC/type'), 'Mains\n');
  write(path.join(root, 'AC/online'), '0\n');
  write(path.join(root, 'usb/type'), 'USB\n');
  write(path.join(root, 'usb/online'), '0\n');
  const battery = createPowerSupplyBattery(path.join(root, 'BAT0'));

  it('reads the capacity while no charger is online', async () => {
    expect(await battery.read()).toBe(57);
  });

  it('a Mains or USB supply that is online means external power', async () => {
    write(path.join(root, 'usb/online'), '1\n');
    expect(await battery.read()).toBe('mains');
    write(path.join(root, 'usb/online'), '0\n');
    write(path.join(root, 'AC/online'), '1\n');
    expect(await battery.read()).toBe('mains');
    write(path.join(root, 'AC/online'), '0\n');
  });

  it('"mains" is a device without a battery; a capacity that is not a percentage is an error', async () => {
    expect(await createPowerSupplyBattery('mains').read()).toBe('mains');
    write(path.join(root, 'BAT0/capacity'), '250\n');
    await expect(battery.read()).rejects.toThrow('does not hold a percentage');
    write(path.join(root, 'BAT0/capacity'), '57\n');
  });
});

describe('reboot: systemctl reboot, else reboot (stand-in programs on PATH)', () => {
  const bin = dir.join('bin');
  const log = dir.join('calls.log');
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
    fs.rmSync(log, { force: true });
  });
  const program = (name: string, code: number) =>
    write(path.join(bin, name), `#!/bin/sh\necho "${name} $*" >> ${log}\nexit ${code}\n`);

  it('asks systemd first', async () => {
    program('systemctl', 0);
    program('reboot', 0);
    fs.chmodSync(path.join(bin, 'systemctl'), 0o755);
    fs.chmodSync(path.join(bin, 'reboot'), 0o755);
    process.env.PATH = `${bin}:${savedPath}`;
    await createSystemReboot(runCommand)();
    expect(fs.readFileSync(log, 'utf8')).toBe('systemctl reboot\n');
  });

  it('falls back to reboot where systemctl fails, and reports a failing reboot', async () => {
    program('systemctl', 1);
    process.env.PATH = `${bin}:${savedPath}`;
    await createSystemReboot(runCommand)();
    expect(fs.readFileSync(log, 'utf8')).toBe('systemctl reboot\nreboot \n');
    program('reboot', 3);
    await expect(createSystemReboot(runCommand)()).rejects.toThrow('reboot exited with 3');
  });
});

describe('MAC from sysfs and storage from statfs', () => {
  it('reads /sys/class/net/<iface>/address and refuses anything else', async () => {
    const net = dir.join('net');
    write(path.join(net, 'wlan0/address'), '02:00:5E:10:00:01\n');
    write(path.join(net, 'bad0/address'), '00:00\n');
    expect(await readInterfaceMac('wlan0', net)).toBe('02:00:5e:10:00:01');
    await expect(readInterfaceMac('bad0', net)).rejects.toThrow('has no MAC address');
    await expect(readInterfaceMac('none0', net)).rejects.toThrow();
  });

  it('gives the size and free space of the data partition in MiB', async () => {
    const sizes = await statfsStorage(dir.path)();
    expect(sizes.totalMb).toBeGreaterThan(0);
    expect(sizes.freeMb).toBeGreaterThan(0);
    expect(sizes.freeMb).toBeLessThanOrEqual(sizes.totalMb);
  });
});
