import { BT_COMMANDS, createFrameDecoder, encodeFrame } from '@waved/bt-frame';
import { BT_EVENTS } from '../domain/device/bluetooth/service.js';

/** The far end of a serial link, as the simulated module sees it. */
export interface SimModulePort {
  write(data: Buffer): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  removeListener(event: 'data', listener: (chunk: Buffer) => void): unknown;
}

export interface SimContact {
  name: string;
  numbers: string[];
}

export interface SimBtModuleOptions {
  name?: string;
  version?: string;
  mac?: readonly number[];
  contacts?: readonly SimContact[];
  buildtime?: string;
}

export interface SimBtModule {
  /** Commands received, by id, in order. */
  readonly received: number[];
  /** The name phones see (`bt_set_name` changes it). */
  readonly name: string;
  /** Off after `bt_close_switch`, on after `bt_open_switch`. */
  readonly enabled: boolean;
  /** `bt_reconnect_switch`, `bt_switch_mode` and the configuration commands as last received. */
  readonly settings: { reconnect: boolean | null; mode: number | null; config: Map<number, Buffer> };
  /** A phone asks to connect: `bt_connect_reply` with 1 connects it, 0 turns it away. */
  requestConnect(name: string): void;
  connectPhone(name: string): void;
  disconnectPhone(): void;
  incomingCall(number: string): void;
  answerCall(): void;
  endCall(): void;
  detach(): void;
}

export const SIM_CONTACTS: readonly SimContact[] = [
  { name: 'Ada Lovelace', numbers: ['+44 20 7946 0958'] },
  { name: 'Grace Hopper', numbers: ['+1 202 555 0143', '+1 202 555 0199'] },
  { name: 'Alan Turing', numbers: ['+44 161 496 0000'] },
];

function vcards(contacts: readonly SimContact[]): Buffer {
  const text = contacts
    .map((c) =>
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        `FN:${c.name}`,
        ...c.numbers.map((n) => `TEL;TYPE=CELL:${n}`),
        'END:VCARD',
      ].join('\r\n'),
    )
    .join('\r\n');
  return Buffer.from(`${text}\r\n`, 'utf8');
}

/**
 * A Bluetooth module for the simulator and the tests: answers the host's type-1 commands with
 * type-2 replies (version, name, MAC, status, PBAP phone book in chunks) and sends connection and
 * call events as type-3 frames.
 */
export function attachSimBtModule(port: SimModulePort, options: SimBtModuleOptions = {}): SimBtModule {
  const decoder = createFrameDecoder();
  const received: number[] = [];
  let phone: string | null = null;
  let asking: string | null = null;
  let name = options.name ?? 'waved-sim';
  let enabled = true;
  const settings = {
    reconnect: null as boolean | null,
    mode: null as number | null,
    config: new Map<number, Buffer>(),
  };
  const reply = (cmd: number, data: Uint8Array = new Uint8Array(0)) =>
    port.write(encodeFrame({ type: 2, payload: Buffer.concat([Buffer.from([cmd]), Buffer.from(data)]) }));
  const event = (id: number, data: Uint8Array = new Uint8Array(0)) =>
    port.write(encodeFrame({ type: 3, payload: Buffer.concat([Buffer.from([id]), Buffer.from(data)]) }));

  const onData = (chunk: Buffer) => {
    for (const frame of decoder.push(chunk).frames) {
      if (frame.type !== 1 || frame.payload.length === 0) continue;
      const cmd = frame.payload[0] as number;
      const data = Buffer.from(frame.payload.subarray(1));
      received.push(cmd);
      if (cmd >= 0x18 && cmd <= 0x1e) {
        settings.config.set(cmd, data);
        reply(cmd, Buffer.concat([Buffer.from([0]), data]));
        continue;
      }
      switch (cmd) {
        case BT_COMMANDS.connectReply: {
          const who = asking;
          asking = null;
          reply(cmd, Buffer.from([who ? 0 : 1]));
          if (who && data[0] === 1) connect(who);
          break;
        }
        case BT_COMMANDS.disconnect:
          reply(cmd, Buffer.from([phone ? 0 : 1]));
          if (phone) disconnect();
          break;
        case BT_COMMANDS.closeSwitch:
          enabled = false;
          reply(cmd, Buffer.from([0]));
          if (phone) disconnect();
          break;
        case BT_COMMANDS.openSwitch:
          enabled = true;
          reply(cmd, Buffer.from([0]));
          break;
        case BT_COMMANDS.reconnectSwitch:
          settings.reconnect = data[0] === 1;
          reply(cmd, Buffer.from([0]));
          break;
        case BT_COMMANDS.switchMode:
          settings.mode = data[0] ?? null;
          reply(cmd, Buffer.from([0]));
          break;
        case BT_COMMANDS.repair:
          reply(cmd, Buffer.from([0]));
          if (phone) disconnect();
          break;
        case BT_COMMANDS.setName:
          name = data.toString('utf8');
          reply(cmd, Buffer.from([0]));
          break;
        case BT_COMMANDS.getBuildtime:
        case BT_COMMANDS.getBuildtime2:
          reply(cmd, Buffer.from(options.buildtime ?? '2026-01-15 10:30'));
          break;
        case BT_COMMANDS.getPbapStatus:
          reply(cmd, Buffer.from([phone ? 1 : 0]));
          break;
        case BT_COMMANDS.getVersion:
          reply(cmd, Buffer.from(options.version ?? 'SIM-BT 1.0.3'));
          break;
        case BT_COMMANDS.getName:
          reply(cmd, Buffer.from(name));
          break;
        case BT_COMMANDS.getMac:
          reply(cmd, Buffer.from(options.mac ?? [0x02, 0x00, 0x5e, 0x10, 0x20, 0x30]));
          break;
        case BT_COMMANDS.getStatus:
          reply(cmd, Buffer.from([enabled ? (phone ? 2 : 1) : 0]));
          break;
        case BT_COMMANDS.getPhoneBook: {
          if (!phone) {
            reply(cmd, Buffer.from([1]));
            break;
          }
          reply(cmd, Buffer.from([0]));
          const data = vcards(options.contacts ?? SIM_CONTACTS);
          for (let at = 0; at < data.length; at += 200) reply(cmd, data.subarray(at, at + 200));
          reply(cmd);
          break;
        }
        default:
          reply(cmd, Buffer.from([0]));
      }
    }
  };
  function connect(who: string) {
    phone = who;
    event(BT_EVENTS.connected, Buffer.from(who, 'utf8'));
  }
  function disconnect() {
    phone = null;
    event(BT_EVENTS.disconnected);
  }
  port.on('data', onData);
  return {
    received,
    get name() {
      return name;
    },
    get enabled() {
      return enabled;
    },
    settings,
    requestConnect(who) {
      asking = who;
      event(BT_EVENTS.connectRequest, Buffer.from(who, 'utf8'));
    },
    connectPhone: connect,
    disconnectPhone: disconnect,
    incomingCall(number) {
      event(BT_EVENTS.incomingCall, Buffer.from(number, 'ascii'));
    },
    answerCall() {
      event(BT_EVENTS.callAnswered);
    },
    endCall() {
      event(BT_EVENTS.callEnded);
    },
    detach() {
      port.removeListener('data', onData);
    },
  };
}
