import { describe, expect, it, vi } from 'vitest';
import {
  BT_COMMAND_DATA_BUFFER,
  BT_COMMAND_MAX_DATA,
  BT_COMMANDS,
  type BtMessage,
  btCommandName,
  createBtModule,
  encodeFrame,
  isBtCommandId,
  isBtConfigCommand,
} from '../src/index.js';
import { fakePort, frame, globalClock } from './helpers.js';

describe('command table', () => {
  it('has the spec ids, both ids named bt_get_buildtime and the configuration range', () => {
    expect(BT_COMMANDS.getMac).toBe(0x09);
    expect(BT_COMMANDS.getPhoneBook).toBe(0x11);
    expect(BT_COMMANDS.setName).toBe(0x16);
    expect(btCommandName(0x10)).toBe('bt_get_buildtime');
    expect(btCommandName(0x17)).toBe('bt_get_buildtime');
    expect(btCommandName(0x0d)).toBe('bt_get_version');
    expect(btCommandName(0x1b)).toBe('bt_config_0x1b');
    expect(btCommandName(0x05)).toBeUndefined();
    expect([0x17, 0x18, 0x1e, 0x1f].map(isBtConfigCommand)).toEqual([false, true, true, false]);
    expect([0x01, 0x05, 0x06, 0x0b, 0x18, 0x1e, 0x1f].map(isBtCommandId)).toEqual([
      true,
      false,
      false,
      false,
      true,
      true,
      false,
    ]);
    expect(BT_COMMAND_DATA_BUFFER).toBe(0x104);
    expect(BT_COMMAND_MAX_DATA).toBe(254);
  });
});

describe('createBtModule', () => {
  it('sends [cmd_id, ...data] in a type-1 frame and resolves with the matching type-2 reply', async () => {
    const f = fakePort();
    f.onCommand((c) => {
      if (c.payload[0] === BT_COMMANDS.getVersion)
        f.reply(encodeFrame(frame(2, 0x0d, ...Buffer.from('1.2.3'))));
    });
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    const reply = await m.send(BT_COMMANDS.getVersion);
    expect(reply.cmdId).toBe(0x0d);
    expect(reply.data.toString()).toBe('1.2.3');
    expect([...f.written[0]!]).toEqual([0x75, 0x46, 0x01, 0x0d, 0x0e]);
    await m.close();
  });

  it('matches concurrent requests by command id, oldest first, whatever order the replies come in', async () => {
    const f = fakePort();
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    const a = m.send(0x09);
    const b = m.send(0x0a);
    const c = m.send(0x09);
    await vi.waitFor(() => expect(f.commands).toHaveLength(3));
    // replies arrive in one chunk, out of order, with noise around them
    f.reply(
      Buffer.concat([
        Buffer.from([0x00, 0x75]),
        encodeFrame(frame(2, 0x0a, 0x4e)),
        encodeFrame(frame(2, 0x09, 1)),
        Buffer.from([0xdc]),
        encodeFrame(frame(2, 0x09, 2)),
      ]),
    );
    expect((await a).data[0]).toBe(1);
    expect((await b).data[0]).toBe(0x4e);
    expect((await c).data[0]).toBe(2);
    expect(m.counters).toMatchObject({ sent: 3, replies: 3, events: 0 });
    await m.close();
  });

  it('emits unsolicited frames (type 3, or replies nobody waits for) as events; on() returns off', async () => {
    const f = fakePort();
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    const events: BtMessage[] = [];
    const once: BtMessage[] = [];
    const offOnce = m.once('event', (e) => once.push(e));
    m.once('event', (e) => once.push(e))(); // stopped before any event
    m.on('event', (e) => events.push(e));
    f.reply(encodeFrame(frame(3, 0x01, 0xaa)));
    f.reply(encodeFrame(frame(2, 0x0e, 0x02)));
    f.reply(encodeFrame(frame(3)));
    expect(events.map((e) => [e.type, e.cmdId, [...e.data]])).toEqual([
      [3, 0x01, [0xaa]],
      [2, 0x0e, [0x02]],
      [3, undefined, []],
    ]);
    expect(once).toHaveLength(1);
    offOnce();
    const stop = m.on('event', (e) => events.push(e));
    stop();
    f.reply(encodeFrame(frame(3, 0x02)));
    expect(events).toHaveLength(4);
    await m.close();
  });

  it('on() returns the function that removes the listener; once() hears one event', async () => {
    const f = fakePort();
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    const seen: string[] = [];
    const off = m.on('event', (e) => seen.push(`on ${e.cmdId}`));
    m.once('event', (e) => seen.push(`once ${e.cmdId}`));
    const offNever = m.once('event', () => seen.push('never'));
    offNever();
    f.reply(encodeFrame(frame(3, 0x01)));
    off();
    off(); // twice is harmless
    f.reply(encodeFrame(frame(3, 0x02)));
    expect(seen).toEqual(['on 1', 'once 1']);
    expect(m.counters.events).toBe(2);
    await m.close();
  });

  it('reports dropped frames as faults', async () => {
    const f = fakePort();
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    const faults: string[] = [];
    m.on('fault', (e) => faults.push(e.code));
    const bad = encodeFrame(frame(2, 1, 2));
    bad[5] = 0;
    f.reply(bad);
    expect(faults).toEqual(['BT_FRAME_CHECKSUM']);
    await m.close();
  });

  it('times out a request with no reply (injected timers) and still matches later requests', async () => {
    vi.useFakeTimers();
    try {
      const f = fakePort();
      const m = createBtModule({ port: f.port, probeIntervalMs: 0, timeoutMs: 300, clock: globalClock });
      const lost = m.send(0x0e);
      const caught = lost.catch((e) => e);
      await vi.advanceTimersByTimeAsync(299);
      expect(m.counters.timeouts).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(await caught).toMatchObject({ code: 'BT_MODULE_TIMEOUT' });
      const next = m.send(0x0e);
      await vi.advanceTimersByTimeAsync(0);
      f.reply(encodeFrame(frame(2, 0x0e, 7)));
      expect((await next).data[0]).toBe(7);
      await m.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses data that does not fit one frame and ids that are not a byte', async () => {
    const f = fakePort();
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    await expect(m.send(0x16, new Uint8Array(255))).rejects.toMatchObject({ code: 'BT_COMMAND_DATA_LENGTH' });
    await expect(m.post(0x16, new Uint8Array(BT_COMMAND_DATA_BUFFER))).rejects.toMatchObject({
      code: 'BT_COMMAND_DATA_LENGTH',
    });
    await expect(m.send(0x100)).rejects.toMatchObject({ code: 'BT_COMMAND_ID' });
    // 254 data bytes is the largest command: a 255-byte payload
    await m.post(0x16, new Uint8Array(254).fill(0x41));
    expect(f.written.at(-1)!.length).toBe(259);
    expect(f.commands.at(-1)!.payload.length).toBe(255);
    expect(f.written).toHaveLength(1);
    await m.close();
  });

  it('a closed port rejects pending requests and emits close once', async () => {
    const f = fakePort();
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    const closes: string[] = [];
    m.on('close', (e) => closes.push(e.code));
    const pending = m.send(0x09);
    f.emit('error', new Error('EIO: i/o error, write'));
    f.emit('close');
    f.emit('close'); // serialport emits close twice after a failed write
    await expect(pending).rejects.toMatchObject({ code: 'BT_MODULE_CLOSED' });
    expect(closes).toEqual(['BT_MODULE_CLOSED']);
    expect(m.closed).toBe(true);
    expect(f.listeners('data')).toBe(0);
    await expect(m.send(0x09)).rejects.toMatchObject({ code: 'BT_MODULE_CLOSED' });
  });

  it('the drain probe finds a hung-up far end without writing a byte', async () => {
    vi.useFakeTimers();
    try {
      const f = fakePort();
      const m = createBtModule({ port: f.port, probeIntervalMs: 100, clock: globalClock });
      const closed = new Promise<unknown>((resolve) => m.on('close', resolve));
      await vi.advanceTimersByTimeAsync(350);
      expect(m.closed).toBe(false);
      f.hangUp();
      await vi.advanceTimersByTimeAsync(100);
      const error = (await closed) as { code: string; cause: Error };
      expect(error.code).toBe('BT_MODULE_CLOSED');
      expect(error.cause.message).toMatch(/drain/);
      expect(f.written).toHaveLength(0);
      expect(f.port.isOpen).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a subscriber takes frames of its command that answer no request', async () => {
    const f = fakePort();
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    const got: number[] = [];
    const events: unknown[] = [];
    m.on('event', (e) => events.push(e));
    const off = m.subscribe(0x11, (msg) => got.push(msg.data[0]!));
    f.reply(encodeFrame(frame(2, 0x11, 5)));
    off();
    f.reply(encodeFrame(frame(2, 0x11, 6)));
    expect(got).toEqual([5]);
    expect(events).toHaveLength(1);
    await m.close();
  });

  it('a failed write rejects that command with BT_MODULE_WRITE', async () => {
    const f = fakePort();
    const port = {
      ...f.port,
      write(_data: Buffer, cb?: (e?: Error | null) => void) {
        queueMicrotask(() => cb?.(new Error('EIO: i/o error, write')));
        return false;
      },
    };
    const m = createBtModule({ port, probeIntervalMs: 0 });
    await expect(m.send(0x09)).rejects.toMatchObject({ code: 'BT_MODULE_WRITE', cause: { message: /EIO/ } });
    await expect(m.post(0x02)).rejects.toMatchObject({ code: 'BT_MODULE_WRITE' });
    await m.close();
  });

  it('finds a reply hidden behind a false start within 100 ms by default', async () => {
    vi.useFakeTimers();
    try {
      const f = fakePort();
      const m = createBtModule({ port: f.port, probeIntervalMs: 0, clock: globalClock });
      const faults: string[] = [];
      m.on('fault', (e) => faults.push(e.code));
      const reply = m.send(0x0e, undefined, { timeoutMs: 1000 });
      await vi.advanceTimersByTimeAsync(0);
      // line noise `75 45 c8` claims a 200-byte frame; the module then answers and falls silent
      f.reply(Buffer.concat([Buffer.from([0x75, 0x45, 200]), encodeFrame(frame(2, 0x0e, 0x01))]));
      await vi.advanceTimersByTimeAsync(99);
      expect(faults).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(faults).toEqual(['BT_FRAME_TIMEOUT']);
      expect((await reply).data[0]).toBe(0x01);
      expect(m.counters.timeouts).toBe(0);
      await m.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('expires a stalled partial reply with the decoder timeout and still finds the reply inside it', async () => {
    vi.useFakeTimers();
    try {
      const f = fakePort();
      const m = createBtModule({
        port: f.port,
        probeIntervalMs: 0,
        clock: globalClock,
        decoder: { partialTimeoutMs: 100, now: () => Date.now() },
      });
      const faults: string[] = [];
      m.on('fault', (e) => faults.push(e.code));
      const reply = m.send(0x0e, undefined, { timeoutMs: 1000 });
      await vi.advanceTimersByTimeAsync(0);
      // a false header claiming 200 bytes hides the real reply until the partial frame times out
      f.reply(Buffer.concat([Buffer.from([0x75, 0x45, 200]), encodeFrame(frame(2, 0x0e, 0x01))]));
      await vi.advanceTimersByTimeAsync(99);
      expect(faults).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(faults).toEqual(['BT_FRAME_TIMEOUT']);
      expect((await reply).data[0]).toBe(0x01);
      await m.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
