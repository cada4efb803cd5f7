import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BT_COMMANDS,
  BT_NAME_MAX_BYTES,
  type BtModule,
  btCommandName,
  createBtModule,
  decodeBtText,
  encodeFrame,
  isBtFrameError,
  stripControls,
} from '../src/index.js';
import { fakePort, frame } from './helpers.js';

// The spec's table ("Bluetooth module commands"), written out by hand: changing any id in the
// package fails these tests.
const SPEC_TABLE: readonly (readonly [number, string])[] = [
  [1, 'bt_connect_reply'],
  [2, 'bt_disconnect'],
  [3, 'bt_close_switch'],
  [4, 'bt_reconnect_switch'],
  [7, 'bt_open_switch'],
  [8, 'bt_switch_mode'],
  [9, 'bt_get_mac'],
  [10, 'bt_get_name'],
  [0xd, 'bt_get_version'],
  [0xe, 'bt_get_status'],
  [0xf, 'bt_repair'],
  [0x10, 'bt_get_buildtime'],
  [0x11, 'bt_get_phone_book'],
  [0x12, 'bt_get_pbap_status'],
  [0x16, 'bt_set_name'],
  [0x17, 'bt_get_buildtime'],
];
const CONFIG_IDS = [0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e] as const;

/** A module on an in-memory port that answers each command with `replies[id]` (default `[0]`). */
function scripted(replies: Record<number, Uint8Array | number[]> = {}) {
  const f = fakePort();
  f.onCommand((c) => {
    const id = c.payload[0]!;
    const data = replies[id] ?? [0];
    f.reply(encodeFrame(frame(2, id, ...data)));
  });
  const m = createBtModule({ port: f.port, probeIntervalMs: 0, timeoutMs: 1000 });
  /** The commands the module received: id and data. */
  const sent = () => f.commands.map((c) => ({ id: c.payload[0]!, data: [...c.payload.subarray(1)] }));
  return { m, f, sent };
}

describe('the command table', () => {
  it('pins every id of the spec table and its name', () => {
    expect(BT_COMMANDS).toEqual({
      connectReply: 1,
      disconnect: 2,
      closeSwitch: 3,
      reconnectSwitch: 4,
      openSwitch: 7,
      switchMode: 8,
      getMac: 9,
      getName: 10,
      getVersion: 0xd,
      getStatus: 0xe,
      repair: 0xf,
      getBuildtime: 0x10,
      getPhoneBook: 0x11,
      getPbapStatus: 0x12,
      setName: 0x16,
      getBuildtime2: 0x17,
    });
    for (const [id, name] of SPEC_TABLE) expect(btCommandName(id)).toBe(name);
    for (const id of CONFIG_IDS) expect(btCommandName(id)).toBe(`bt_config_0x${id.toString(16)}`);
  });
});

// Each typed method: the call, the id and data that must cross the wire, the module's reply data,
// and what the method resolves.
const CALLS: readonly {
  call: (m: BtModule) => Promise<unknown>;
  id: number;
  data: number[];
  reply?: number[];
  result: unknown;
}[] = [
  { call: (m) => m.connectReply(true), id: 1, data: [1], result: undefined },
  { call: (m) => m.connectReply(false), id: 1, data: [0], result: undefined },
  { call: (m) => m.disconnect(), id: 2, data: [], result: undefined },
  { call: (m) => m.closeSwitch(), id: 3, data: [], result: undefined },
  { call: (m) => m.reconnectSwitch(true), id: 4, data: [1], result: undefined },
  { call: (m) => m.reconnectSwitch(false), id: 4, data: [0], result: undefined },
  { call: (m) => m.openSwitch(), id: 7, data: [], result: undefined },
  { call: (m) => m.switchMode(2), id: 8, data: [2], result: undefined },
  {
    call: (m) => m.getMac(),
    id: 9,
    data: [],
    reply: [0x02, 0x00, 0x5e, 0x10, 0x20, 0xff],
    result: '02:00:5e:10:20:ff',
  },
  {
    call: (m) => m.getName(),
    id: 10,
    data: [],
    reply: [...Buffer.from('Kitchen ☕\0\0')],
    result: 'Kitchen ☕',
  },
  { call: (m) => m.getVersion(), id: 0xd, data: [], reply: [...Buffer.from('BT 1.0.3')], result: 'BT 1.0.3' },
  { call: (m) => m.getStatus(), id: 0xe, data: [], reply: [2], result: 2 },
  { call: (m) => m.repair(), id: 0xf, data: [], result: undefined },
  {
    call: (m) => m.getBuildtime(),
    id: 0x10,
    data: [],
    reply: [...Buffer.from('Jan  5 2026')],
    result: 'Jan  5 2026',
  },
  { call: (m) => m.getPbapStatus(), id: 0x12, data: [], reply: [3], result: 3 },
  { call: (m) => m.setName('Kitchen ☕'), id: 0x16, data: [...Buffer.from('Kitchen ☕')], result: undefined },
  {
    call: (m) => m.getBuildtime2(),
    id: 0x17,
    data: [],
    reply: [...Buffer.from('2026-01-05')],
    result: '2026-01-05',
  },
  ...CONFIG_IDS.map((id) => ({
    call: (m: BtModule) => m.configure(id, Uint8Array.of(id, 0xaa)).then((r) => [r.cmdId, ...r.data]),
    id,
    data: [id, 0xaa],
    reply: [7, id],
    result: [id, 7, id],
  })),
];

describe('a typed method for every command', () => {
  it.each(
    CALLS.map((c) => [`0x${c.id.toString(16)} ${btCommandName(c.id)} ${c.call.toString().slice(7)}`, c]),
  )('%s', async (_name, c) => {
    const { m, sent } = scripted(c.reply ? { [c.id]: c.reply } : {});
    expect(await c.call(m)).toEqual(c.result);
    expect(sent()).toEqual([{ id: c.id, data: c.data }]);
    await m.close();
  });

  it('getPhoneBook (0x11) runs the PBAP transfer', async () => {
    const vcard = Buffer.from(
      'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\nTEL:+44 20 7946 0958\r\nEND:VCARD\r\n',
    );
    const f = fakePort();
    f.onCommand((c) => {
      if (c.payload[0] !== 0x11) return;
      f.reply(encodeFrame(frame(2, 0x11, 0)));
      f.reply(encodeFrame(frame(2, 0x11, ...vcard)));
      f.reply(encodeFrame(frame(2, 0x11)));
    });
    const m = createBtModule({ port: f.port, probeIntervalMs: 0 });
    const dir = (await import('node:os')).tmpdir();
    const file = `${dir}/bt-frame-commands-${process.pid}.bin`;
    try {
      expect(await m.getPhoneBook({ path: file })).toEqual([{ name: 'Ada', numbers: ['+44 20 7946 0958'] }]);
      expect(f.commands.map((c) => [...c.payload])).toEqual([[0x11]]);
    } finally {
      (await import('node:fs')).rmSync(file, { force: true });
      await m.close();
    }
  });

  it('together they cover every id of the spec table and the configuration range', () => {
    const covered = new Set([...CALLS.map((c) => c.id), BT_COMMANDS.getPhoneBook]);
    expect([...covered].sort((a, b) => a - b)).toEqual([...SPEC_TABLE.map(([id]) => id), ...CONFIG_IDS]);
  });
});

describe('replies and arguments', () => {
  it('a non-zero status refuses an acknowledged command (BT_COMMAND_REFUSED)', async () => {
    const { m } = scripted({ 7: [4] });
    const err = await m.openSwitch().catch((e: unknown) => e);
    expect(isBtFrameError(err, 'BT_COMMAND_REFUSED')).toBe(true);
    expect((err as Error).message).toMatch(/bt_open_switch \(0x07\).*status 4/);
    await m.close();
  });

  it('a reply of the wrong shape is BT_COMMAND_REPLY', async () => {
    const { m } = scripted({ 14: [], 9: [1, 2, 3, 4, 5] });
    await expect(m.getStatus()).rejects.toMatchObject({ code: 'BT_COMMAND_REPLY' });
    await expect(m.getMac()).rejects.toMatchObject({ code: 'BT_COMMAND_REPLY' });
    const text = scripted({ 9: [...Buffer.from('AA-BB-CC-DD-EE-0F\0')] });
    expect(await text.m.getMac()).toBe('aa:bb:cc:dd:ee:0f');
    await m.close();
    await text.m.close();
  });

  it.each([
    ['an empty name', (m: BtModule) => m.setName('')],
    ['a name over 248 bytes', (m: BtModule) => m.setName('é'.repeat(125))],
    ['a name with a line break', (m: BtModule) => m.setName('a\nb')],
    ['a name with an escape sequence', (m: BtModule) => m.setName('a\u001b[2Jb')],
    ['a mode that is not a byte', (m: BtModule) => m.switchMode(256)],
  ])('refuses %s before sending (BT_COMMAND_ARGUMENT)', async (_what, call) => {
    const { m, f } = scripted();
    await expect(call(m)).rejects.toMatchObject({ code: 'BT_COMMAND_ARGUMENT' });
    expect(f.written).toEqual([]);
    await m.close();
  });

  it('accepts a name of exactly 248 bytes; configure refuses ids outside 0x18..0x1e', async () => {
    const { m, f } = scripted();
    await m.setName('é'.repeat(BT_NAME_MAX_BYTES / 2));
    expect(f.commands.at(-1)!.payload.length).toBe(1 + BT_NAME_MAX_BYTES);
    await expect(m.configure(0x17 as 0x18)).rejects.toMatchObject({ code: 'BT_COMMAND_ID' });
    await expect(m.configure(0x1f as 0x18)).rejects.toMatchObject({ code: 'BT_COMMAND_ID' });
    await m.close();
  });
});

describe('text from the module, for logs and terminals', () => {
  it('a hostile name loses what a terminal would act on', async () => {
    const hostile = Buffer.from('Bob\u001b]0;pwned\u0007\r\n2026 INFO fake\u009b2J\u202eevil\0hidden');
    const { m } = scripted({ 10: [...hostile] });
    expect(await m.getName()).toBe('Bob]0;pwned  2026 INFO fake2Jevil');
    await m.close();
    expect(decodeBtText(Uint8Array.of(0x41, 0xff, 0x42))).toBe('A\ufffdB');
    expect(stripControls('a\r\nb', { multiline: true })).toBe('a\nb');
  });

  it('never returns a control character, on any bytes (fuzz)', () => {
    const controls = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = decodeBtText(bytes);
        expect(text).not.toMatch(controls);
        expect(decodeBtText(Buffer.from(text))).toBe(text);
      }),
      { numRuns: 3000 },
    );
  });
});
