import { EventEmitter } from 'node:events';
import {
  BT_COMMANDS,
  type BtMessage,
  type BtModule,
  type BtPort,
  type Contact,
  createBtModule,
  downloadPhoneBook,
  readPhoneBookFile,
  searchByNumber,
} from '@waved/bt-frame';
import type { Logger } from '../../../core/log/logger.js';
import { PHONE_BOOK_PATH } from '../constants.js';
import { DeviceError } from '../errors.js';
import type { DeviceTelemetry } from '../telemetry.js';

/**
 * Unsolicited events of the module (type-3 frames `[event_id, ...data]`). The spec does not show
 * them; these ids are this project's, kept in one table so a real module's ids drop in here.
 */
export const BT_EVENTS = {
  /** data: the phone's name, UTF-8 */
  connected: 0x81,
  disconnected: 0x82,
  /** data: the caller's number, ASCII */
  incomingCall: 0x83,
  callAnswered: 0x84,
  callEnded: 0x85,
} as const;

export interface ModuleInfo {
  version: string;
  name: string;
  mac: string;
}

export interface BluetoothEvents {
  connected: [{ deviceName: string }];
  disconnected: [];
  incomingCall: [{ number: string; contacts: Contact[] }];
  callAnswered: [];
  callEnded: [];
  closed: [Error];
}

export interface BluetoothServiceOptions {
  port: BtPort;
  telemetry: Pick<DeviceTelemetry, 'track'>;
  logger: Logger;
  /** Phone book file (default /tmp/PHONE_BOOK.bin, spec B4). */
  phoneBookPath?: string;
  /** Calling code for national numbers in searches, e.g. `49`. */
  countryCode?: () => string | undefined;
  timeoutMs?: number;
  /** 0 turns the far-end probe off (in-memory ports). */
  probeIntervalMs?: number;
}

export interface BluetoothService extends EventEmitter<BluetoothEvents> {
  readonly module: BtModule;
  readonly connected: boolean;
  info(): Promise<ModuleInfo>;
  /** PBAP download to the phone book file; the contacts are kept for searches. */
  downloadPhoneBook(): Promise<Contact[]>;
  /** Contacts with a number that matches (the file is read when nothing was downloaded in this run). */
  searchByNumber(number: string): Promise<Contact[]>;
  close(): Promise<void>;
}

const text = (m: BtMessage) => m.data.toString('utf8').replace(/\0+$/, '');

/**
 * The Bluetooth module service over a serial port (@waved/bt-frame): module information, the
 * phone book (download and search by number), and connection and call events with their
 * telemetry (`bluetooth_connect`, `call_answer`, `call_end`).
 */
export function createBluetoothService(options: BluetoothServiceOptions): BluetoothService {
  const { telemetry, logger } = options;
  const path = options.phoneBookPath ?? PHONE_BOOK_PATH;
  const module = createBtModule({
    port: options.port,
    timeoutMs: options.timeoutMs ?? 2000,
    ...(options.probeIntervalMs !== undefined ? { probeIntervalMs: options.probeIntervalMs } : {}),
  });
  const emitter = new EventEmitter<BluetoothEvents>();
  let contacts: Contact[] | null = null;
  let connected = false;
  let closing = false;
  const search = (list: Contact[], number: string) => {
    const cc = options.countryCode?.();
    return searchByNumber(list, number, cc ? { countryCode: cc } : {});
  };

  module.on('event', (m) => {
    void (async () => {
      switch (m.cmdId) {
        case BT_EVENTS.connected: {
          connected = true;
          const deviceName = text(m);
          logger.info(`bluetooth: connected to ${deviceName || 'a phone'}`);
          emitter.emit('connected', { deviceName });
          await telemetry.track('bluetooth_connect', {
            connected: true,
            device_name: deviceName,
            profile: 'hfp',
          });
          break;
        }
        case BT_EVENTS.disconnected:
          connected = false;
          emitter.emit('disconnected');
          await telemetry.track('bluetooth_connect', { connected: false });
          break;
        case BT_EVENTS.incomingCall: {
          const number = text(m);
          const found = await service.searchByNumber(number).catch(() => []);
          emitter.emit('incomingCall', { number, contacts: found });
          break;
        }
        case BT_EVENTS.callAnswered:
          emitter.emit('callAnswered');
          await telemetry.track('call_answer', {});
          break;
        case BT_EVENTS.callEnded:
          emitter.emit('callEnded');
          await telemetry.track('call_end', {});
          break;
        default:
          logger.debug(`bluetooth: unsolicited frame ${m.cmdId ?? 'empty'} (${m.data.length} bytes)`);
      }
    })();
  });
  module.on('close', (error) => {
    connected = false;
    if (!closing) logger.warn(`bluetooth: link closed: ${error.message}`);
    emitter.emit('closed', error);
  });

  // a defined getter (Object.assign would copy its first value)
  Object.defineProperty(emitter, 'connected', { get: () => connected, enumerable: true });
  const service = Object.assign(emitter, {
    module,
    async info(): Promise<ModuleInfo> {
      try {
        const version = text(await module.send(BT_COMMANDS.getVersion));
        const name = text(await module.send(BT_COMMANDS.getName));
        const mac = [...(await module.send(BT_COMMANDS.getMac)).data.subarray(0, 6)]
          .map((b) => b.toString(16).padStart(2, '0'))
          .join(':');
        return { version, name, mac };
      } catch (error) {
        throw new DeviceError('DEVICE_BT', `Bluetooth module did not answer: ${(error as Error).message}`, {
          cause: error,
        });
      }
    },
    async downloadPhoneBook() {
      contacts = await downloadPhoneBook(module, { path });
      logger.info(`bluetooth: phone book with ${contacts.length} contacts`);
      return contacts;
    },
    async searchByNumber(number: string) {
      if (!contacts) {
        try {
          contacts = await readPhoneBookFile(path);
        } catch {
          return [];
        }
      }
      return search(contacts, number);
    },
    async close() {
      closing = true;
      await module.close();
    },
  }) as BluetoothService;
  return service;
}
