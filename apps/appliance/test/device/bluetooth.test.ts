import fs from 'node:fs';
import { needs, type Peer, startPeer, tempDir, waitFor, waitForPath } from '@waved/test-lab';
import { SerialPort } from 'serialport';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeviceApp } from '../../src/domain/device/app.js';
import { attachSimBtModule, type SimBtModule } from '../../src/sim/bt-module.js';
import { type Harness, received, startHarness } from './helpers.js';

const lab = needs({ peers: ['socat'] });

function open(path: string): Promise<SerialPort> {
  return new Promise((resolve, reject) => {
    const port = new SerialPort({ path, baudRate: 115200 }, (error) =>
      error ? reject(error) : resolve(port),
    );
  });
}

lab.describe('Bluetooth service over a socat pty pair', () => {
  const dir = tempDir('device-bt-');
  let socat: Peer;
  let h: Harness;
  let app: DeviceApp;
  let host: SerialPort;
  let modulePort: SerialPort;
  let sim: SimBtModule;
  beforeAll(async () => {
    socat = startPeer('socat', [
      `pty,raw,echo=0,link=${dir.join('ttyHost')}`,
      `pty,raw,echo=0,link=${dir.join('ttyModule')}`,
    ]);
    await waitForPath(dir.join('ttyHost'));
    await waitForPath(dir.join('ttyModule'));
    host = await open(dir.join('ttyHost'));
    modulePort = await open(dir.join('ttyModule'));
    sim = attachSimBtModule(modulePort);
    h = await startHarness(dir.path);
    app = await h.app({ bluetooth: { port: host, probeIntervalMs: 200 } });
    await app.start();
    await app.session.establish();
  });
  afterAll(async () => {
    await app?.stop();
    if (modulePort?.isOpen) await new Promise((r) => modulePort.close(r));
    await socat?.stop(500);
    await h?.close();
    dir.remove();
  });

  it('reads the module information, and names the module after the device', async () => {
    const bt = app.bluetooth!;
    // the device is named `waved` (settings): at start the module was renamed from `waved-sim`
    await waitFor(() => sim.name === 'waved', { what: 'bt_set_name at start' });
    expect(await bt.info()).toEqual({
      version: 'SIM-BT 1.0.3',
      name: 'waved',
      mac: '02:00:5e:10:20:30',
      buildtime: '2026-01-15 10:30',
    });
    // bt_get_mac, bt_get_name, bt_get_version, bt_get_buildtime, bt_set_name as type-1 frames
    expect([...new Set(sim.received)].sort((a, b) => a - b)).toEqual([0x09, 0x0a, 0x0d, 0x10, 0x16]);
  });

  it('a phone that asks to connect is accepted with bt_connect_reply, and bluetooth_connect reaches the cloud', async () => {
    const bt = app.bluetooth!;
    const asked = new Promise<{ deviceName: string }>((r) => bt.once('connectRequest', r));
    sim.requestConnect('Nokia of Bob');
    expect(await asked).toEqual({ deviceName: 'Nokia of Bob' });
    expect(bt.pendingRequest).toBe('Nokia of Bob');
    await bt.answerConnectRequest(true);
    await waitFor(() => bt.connected, { what: 'the connect event' });
    expect(await bt.status()).toMatchObject({
      status: 2,
      pbapStatus: 1,
      connected: true,
      deviceName: 'Nokia of Bob',
    });
    await bt.disconnect();
    await waitFor(() => !bt.connected, { what: 'the disconnect event' });
    await waitFor(async () => {
      await app.telemetry.flush();
      return received(h.server, 'bluetooth_connect').length === 2;
    });
    expect(
      received(h.server, 'bluetooth_connect').map((e) => [e.params.connected, e.params.device_name]),
    ).toEqual([
      [true, 'Nokia of Bob'],
      [false, undefined],
    ]);
  });

  it('downloads the phone book (PBAP, file 0600) once a phone is connected, and searches it by number', async () => {
    const bt = app.bluetooth!;
    await expect(bt.downloadPhoneBook()).rejects.toThrow(/refused/);
    sim.connectPhone('Pixel of Ada');
    await waitFor(() => bt.connected, { what: 'the connect event' });
    const contacts = await bt.downloadPhoneBook();
    expect(contacts.map((c) => c.name)).toEqual(['Ada Lovelace', 'Grace Hopper', 'Alan Turing']);
    const file = dir.join('PHONE_BOOK.bin');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await bt.searchByNumber('0044 20 7946 0958')).map((c) => c.name)).toEqual(['Ada Lovelace']);
    expect((await bt.searchByNumber('+1 (202) 555-0199')).map((c) => c.name)).toEqual(['Grace Hopper']);
    expect(await bt.searchByNumber('+49 30 123456')).toEqual([]);
  });

  it('names the caller from the phone book and reports connect, answer and end to the cloud', async () => {
    const bt = app.bluetooth!;
    const calls: string[] = [];
    bt.on('incomingCall', ({ number, contacts }) => calls.push(`${number}:${contacts[0]?.name ?? '?'}`));
    sim.incomingCall('+442079460958');
    await waitFor(() => calls.length === 1, { what: 'the incoming call' });
    expect(calls).toEqual(['+442079460958:Ada Lovelace']);
    sim.answerCall();
    sim.endCall();
    sim.disconnectPhone();
    await waitFor(() => !bt.connected, { what: 'the disconnect event' });
    await waitFor(async () => {
      await app.telemetry.flush();
      return received(h.server, 'call_end').length === 1;
    });
    expect(received(h.server, 'bluetooth_connect').map((e) => e.params.connected)).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(received(h.server, 'bluetooth_connect')[2]?.params.device_name).toBe('Pixel of Ada');
    expect(received(h.server, 'call_answer')).toHaveLength(1);
  });

  it('notices when the far end of the serial line goes away', async () => {
    const bt = app.bluetooth!;
    const closed = new Promise((r) => bt.once('closed', r));
    await socat.stop(500);
    await closed;
    await expect(bt.info()).rejects.toMatchObject({ code: 'DEVICE_BT' });
  });
});
