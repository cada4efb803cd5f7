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
}

export interface SimBtModule {
  /** Commands received, by id, in order. */
  readonly received: number[];
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
  const reply = (cmd: number, data: Uint8Array = new Uint8Array(0)) =>
    port.write(encodeFrame({ type: 2, payload: Buffer.concat([Buffer.from([cmd]), Buffer.from(data)]) }));
  const event = (id: number, data: Uint8Array = new Uint8Array(0)) =>
    port.write(encodeFrame({ type: 3, payload: Buffer.concat([Buffer.from([id]), Buffer.from(data)]) }));

  const onData = (chunk: Buffer) => {
    for (const frame of decoder.push(chunk).frames) {
      if (frame.type !== 1 || frame.payload.length === 0) continue;
      const cmd = frame.payload[0] as number;
      received.push(cmd);
      switch (cmd) {
        case BT_COMMANDS.getVersion:
          reply(cmd, Buffer.from(options.version ?? 'SIM-BT 1.0.3'));
          break;
        case BT_COMMANDS.getName:
          reply(cmd, Buffer.from(options.name ?? 'waved-sim'));
          break;
        case BT_COMMANDS.getMac:
          reply(cmd, Buffer.from(options.mac ?? [0x02, 0x00, 0x5e, 0x10, 0x20, 0x30]));
          break;
        case BT_COMMANDS.getStatus:
          reply(cmd, Buffer.from([phone ? 1 : 0]));
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
  port.on('data', onData);
  return {
    received,
    connectPhone(name) {
      phone = name;
      event(BT_EVENTS.connected, Buffer.from(name, 'utf8'));
    },
    disconnectPhone() {
      phone = null;
      event(BT_EVENTS.disconnected);
    },
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
