// Real serial link: a socat pty pair and the real `serialport` package (lab.md §7). Never calls
// SerialPort.list(): it crashes the process where udev is absent.
import { needs, type Peer, startPeer, tempDir, waitForPath } from '@waved/test-lab';
import { SerialPort } from 'serialport';
import { afterAll, expect, it } from 'vitest';
import {
  BT_COMMANDS,
  type BtFrameError,
  createBtModule,
  type DecodedFrame,
  encodeFrame,
  FrameParser,
  type FrameType,
} from '../src/index.js';
import { frame } from './helpers.js';

const lab = needs({ peers: ['socat'] });

function openPort(path: string): Promise<SerialPort> {
  return new Promise((resolve, reject) => {
    const p = new SerialPort({ path, baudRate: 115200 }, (error) => (error ? reject(error) : resolve(p)));
  });
}

function closePort(p: SerialPort | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!p?.isOpen) return resolve();
    p.close(() => resolve());
  });
}

/**
 * The far end plays the module: it answers every command frame with `[cmd, ...reversed data]`,
 * except bt_get_status, which it only records (a request left waiting).
 */
function playModule(port: SerialPort): number[] {
  const seen: number[] = [];
  const parser = port.pipe(new FrameParser());
  parser.on('data', (f: DecodedFrame) => {
    if (f.type !== 1) return;
    const [cmd = 0, ...data] = f.payload;
    seen.push(cmd);
    if (cmd !== BT_COMMANDS.getStatus) port.write(encodeFrame(frame(2, cmd, ...data.reverse())));
  });
  return seen;
}

lab.describe('over a real pty pair (socat + serialport)', () => {
  const dir = tempDir('bt-frame-pty-');
  const A = dir.join('ttyA');
  const B = dir.join('ttyB');
  let socat: Peer | undefined;
  const ports: SerialPort[] = [];

  async function startLink(): Promise<[SerialPort, SerialPort]> {
    socat = startPeer('socat', ['-d', '-d', `pty,raw,echo=0,link=${A}`, `pty,raw,echo=0,link=${B}`]);
    await waitForPath(A, 5000);
    await waitForPath(B, 5000);
    const a = await openPort(A);
    const b = await openPort(B);
    ports.push(a, b);
    return [a, b];
  }

  afterAll(async () => {
    for (const p of ports) await closePort(p);
    await socat?.stop();
    dir.remove();
  });

  it('carries frames across, in any chunking, with noise and a corrupted frame in between', async () => {
    const [a, b] = await startLink();
    const parser = b.pipe(new FrameParser());
    const got: DecodedFrame[] = [];
    const faults: string[] = [];
    parser.on('data', (f: DecodedFrame) => got.push(f));
    parser.on('fault', (f: { code: string }) => faults.push(f.code));
    const sent: { type: number; payload: number[] }[] = [];
    const parts: Buffer[] = [];
    for (let i = 0; i < 300; i++) {
      const type = ((i % 3) + 1) as FrameType;
      const payload = Array.from({ length: (i * 7) % 256 }, (_, k) => (k * 31 + i) & 0xff);
      sent.push({ type, payload });
      parts.push(encodeFrame({ type, payload: Uint8Array.from(payload) }));
      if (i % 50 === 0) parts.push(Buffer.from([0x75, 0x00, 0xdc, 0x13, 0x75, 0x46, 0x05, 1, 2])); // noise
      if (i === 120) {
        const bad = encodeFrame(frame(2, 9, 9, 9));
        bad[bad.length - 1]! ^= 0x55;
        parts.push(bad);
      }
    }
    const all = Buffer.concat(parts);
    for (let at = 0; at < all.length; at += 997) a.write(all.subarray(at, at + 997));
    await new Promise<void>((resolve, reject) => a.drain((e) => (e ? reject(e) : resolve())));
    await expect.poll(() => got.length, { timeout: 5000 }).toBe(300);
    expect(got.map((f) => ({ type: f.type, payload: [...f.payload] }))).toEqual(sent);
    expect(faults).toContain('BT_FRAME_CHECKSUM');
    b.unpipe(parser);
  });

  it('every typed command crosses the real serial link with its spec id, and its reply comes back', async () => {
    // its own pty pair, closed at the end
    const C = dir.join('ttyC');
    const D = dir.join('ttyD');
    const link = startPeer('socat', ['-d', '-d', `pty,raw,echo=0,link=${C}`, `pty,raw,echo=0,link=${D}`]);
    await waitForPath(C, 5000);
    await waitForPath(D, 5000);
    const a = await openPort(C);
    const b = await openPort(D);
    const seen: number[][] = [];
    const parser = b.pipe(new FrameParser());
    const answers: Record<number, Buffer> = {
      9: Buffer.from([0x02, 0x00, 0x5e, 0x10, 0x20, 0x30]),
      10: Buffer.from('waved\u001b[31m\0'),
      13: Buffer.from('BT 1.0.3'),
      14: Buffer.from([1]),
      16: Buffer.from('Jan  5 2026'),
      18: Buffer.from([0]),
      23: Buffer.from('2026-01-05'),
    };
    parser.on('data', (f: DecodedFrame) => {
      if (f.type !== 1) return;
      const [cmd = 0, ...data] = f.payload;
      seen.push([cmd, ...data]);
      const reply = answers[cmd] ?? (cmd >= 0x18 ? Buffer.from(data) : Buffer.from([0]));
      b.write(encodeFrame({ type: 2, payload: Buffer.concat([Buffer.from([cmd]), reply]) }));
    });
    const m = createBtModule({ port: a, probeIntervalMs: 0, timeoutMs: 2000 });
    const results: unknown[] = [
      await m.connectReply(true),
      await m.disconnect(),
      await m.closeSwitch(),
      await m.reconnectSwitch(true),
      await m.openSwitch(),
      await m.switchMode(1),
      await m.getMac(),
      await m.getName(),
      await m.getVersion(),
      await m.getStatus(),
      await m.repair(),
      await m.getBuildtime(),
      await m.getPbapStatus(),
      await m.setName('waved'),
      await m.getBuildtime2(),
    ];
    for (let id = 0x18; id <= 0x1e; id++)
      results.push([...(await m.configure(id as 0x18, Uint8Array.of(id))).data]);
    expect(results).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      '02:00:5e:10:20:30',
      'waved[31m',
      'BT 1.0.3',
      1,
      undefined,
      'Jan  5 2026',
      0,
      undefined,
      '2026-01-05',
      [0x18],
      [0x19],
      [0x1a],
      [0x1b],
      [0x1c],
      [0x1d],
      [0x1e],
    ]);
    expect(seen.map((c) => c[0])).toEqual([
      0x01, 0x02, 0x03, 0x04, 0x07, 0x08, 0x09, 0x0a, 0x0d, 0x0e, 0x0f, 0x10, 0x12, 0x16, 0x17, 0x18, 0x19,
      0x1a, 0x1b, 0x1c, 0x1d, 0x1e,
    ]);
    expect(seen[13]).toEqual([0x16, ...Buffer.from('waved')]);
    await m.close();
    await closePort(b);
    await link.stop();
  });

  it('a module client gets replies, detects the far end going away and works again after reopening', async () => {
    const [a, b] = [ports[0]!, ports[1]!];
    const seen = playModule(b);
    const m = createBtModule({ port: a, probeIntervalMs: 50, timeoutMs: 2000 });
    const reply = await m.send(BT_COMMANDS.setName, Buffer.from('waved'));
    expect(reply.cmdId).toBe(0x16);
    expect(reply.data.toString()).toBe('devaw');
    const closes: BtFrameError[] = [];
    m.on('close', (e) => closes.push(e));
    const unanswered = m.send(BT_COMMANDS.getStatus, undefined, { timeoutMs: 10_000 }).catch((e) => e);
    await expect.poll(() => seen.includes(BT_COMMANDS.getStatus), { timeout: 2000 }).toBe(true);
    // The far end goes away: the pty emits nothing until something probes it.
    const killedAt = Date.now();
    await socat!.stop();
    await expect.poll(() => closes.length, { timeout: 3000, interval: 20 }).toBe(1);
    expect(Date.now() - killedAt).toBeLessThan(1000);
    expect(closes[0]!.code).toBe('BT_MODULE_CLOSED');
    expect(await unanswered).toMatchObject({ code: 'BT_MODULE_CLOSED' });
    await expect.poll(() => a.isOpen, { timeout: 2000 }).toBe(false);
    await closePort(b);

    // Reopen: the same SerialPort objects, a new link, a new client.
    socat = startPeer('socat', ['-d', '-d', `pty,raw,echo=0,link=${A}`, `pty,raw,echo=0,link=${B}`]);
    await waitForPath(A, 5000);
    await waitForPath(B, 5000);
    await new Promise<void>((resolve, reject) => a.open((e) => (e ? reject(e) : resolve())));
    await new Promise<void>((resolve, reject) => b.open((e) => (e ? reject(e) : resolve())));
    const again = createBtModule({ port: a, probeIntervalMs: 50 });
    const r2 = await again.send(BT_COMMANDS.getVersion, Uint8Array.of(1, 2, 3));
    expect([...r2.data]).toEqual([3, 2, 1]);
    expect(again.closed).toBe(false);
    await again.close();
    expect(a.isOpen).toBe(false);
  });
});
