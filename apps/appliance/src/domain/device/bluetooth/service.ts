import {
  type BtConfigCommandId,
  type BtMessage,
  type BtModule,
  type BtPort,
  type Contact,
  createBtModule,
  readPhoneBookFile,
  searchByNumber,
} from '@waved/bt-frame';
import { createEvents, type Subscribable } from '@waved/internal';
import type { Logger } from '../../../core/log/logger.js';
import { PHONE_BOOK_PATH } from '../constants.js';
import { DeviceError } from '../errors.js';
import type { DeviceTelemetry } from '../telemetry.js';

/**
 * Unsolicited events of the module (type-3 frames `[event_id, ...data]`). The vendor does not
 * document them; these ids are this project's, kept in one table so a real module's ids drop in here.
 */
export const BT_EVENTS = {
  /** data: the phone's name, UTF-8 */
  connected: 0x81,
  disconnected: 0x82,
  /** data: the caller's number, ASCII */
  incomingCall: 0x83,
  callAnswered: 0x84,
  callEnded: 0x85,
  /** data: the phone's name, UTF-8; the host answers with `bt_connect_reply` (accept or reject) */
  connectRequest: 0x86,
} as const;

export interface ModuleInfo {
  version: string;
  name: string;
  mac: string;
  /** `bt_get_buildtime` (0x10). */
  buildtime: string;
}

/** What the Bluetooth screen shows: the module's status bytes and the link as the events told it. */
export interface BluetoothStatus {
  /** `bt_get_status` (0x0e): the module's status byte. */
  status: number;
  /** `bt_get_pbap_status` (0x12): the phone book profile's status byte. */
  pbapStatus: number;
  /** Turned on (`bt_open_switch`) or off (`bt_close_switch`) by this run; on at start. */
  enabled: boolean;
  connected: boolean;
  /** The connected phone's name, or null. */
  deviceName: string | null;
  /** Contacts downloaded or read from the phone book file in this run, or null. */
  contacts: number | null;
}

export interface BluetoothEvents {
  connected: [{ deviceName: string }];
  disconnected: [];
  incomingCall: [{ number: string; contacts: Contact[] }];
  /** A phone asks to connect: answer with `answerConnectRequest`. */
  connectRequest: [{ deviceName: string }];
  /** The module was switched on or off, renamed, or its pairing reset. */
  changed: [];
  callAnswered: [];
  callEnded: [];
  closed: [Error];
}

export interface BluetoothServiceOptions {
  port: BtPort;
  telemetry: Pick<DeviceTelemetry, 'track'>;
  logger: Logger;
  /** Phone book file (default /tmp/PHONE_BOOK.bin, the vendor path). */
  phoneBookPath?: string;
  /** Calling code for national numbers in searches, e.g. `49`. */
  countryCode?: () => string | undefined;
  timeoutMs?: number;
  /** 0 turns the far-end probe off (in-memory ports). */
  probeIntervalMs?: number | undefined;
}

export interface BluetoothService extends Subscribable<BluetoothEvents> {
  readonly module: BtModule;
  readonly connected: boolean;
  info(): Promise<ModuleInfo>;
  /** Status bytes (`bt_get_status`, `bt_get_pbap_status`) and what the events said. */
  status(): Promise<BluetoothStatus>;
  /** The phone that asked to connect, while its request is open. */
  readonly pendingRequest: string | null;
  /** `bt_connect_reply`: accepts or rejects the open connection request. */
  answerConnectRequest(accept: boolean): Promise<void>;
  /** `bt_disconnect`: drops the connected phone. */
  disconnect(): Promise<void>;
  /** `bt_open_switch` / `bt_close_switch`. */
  setEnabled(enabled: boolean): Promise<void>;
  /** `bt_reconnect_switch`: reconnect to the last phone on its own. */
  setAutoReconnect(enabled: boolean): Promise<void>;
  /** `bt_switch_mode`: one byte, values are the module's. */
  setMode(mode: number): Promise<void>;
  /** `bt_repair`: forgets the pairing so that a new phone can pair. */
  repair(): Promise<void>;
  /** `bt_set_name`: the name phones see (1..248 UTF-8 bytes, no control characters). */
  setName(name: string): Promise<void>;
  /** 0x18..0x1e, the module's configuration commands: the raw reply data. */
  configure(id: BtConfigCommandId, data?: Uint8Array): Promise<Uint8Array>;
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
    probeIntervalMs: options.probeIntervalMs,
  });
  const events = createEvents<BluetoothEvents>();
  let contacts: Contact[] | null = null;
  let connected = false;
  let deviceName: string | null = null;
  let enabled = true;
  let pending: string | null = null;
  let closing = false;
  const wrap = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      throw new DeviceError('DEVICE_BT', `Bluetooth ${what}: ${(error as Error).message}`, { cause: error });
    }
  };
  const search = (list: Contact[], number: string) => {
    const cc = options.countryCode?.();
    return searchByNumber(list, number, cc ? { countryCode: cc } : {});
  };

  module.on('event', (m) => {
    void (async () => {
      switch (m.cmdId) {
        case BT_EVENTS.connected: {
          connected = true;
          pending = null;
          const name = text(m);
          deviceName = name;
          logger.info?.(`bluetooth: connected to ${name || 'a phone'}`);
          events.emit('connected', { deviceName: name });
          await telemetry.track('bluetooth_connect', {
            connected: true,
            device_name: name,
            profile: 'hfp',
          });
          break;
        }
        case BT_EVENTS.connectRequest: {
          pending = text(m);
          logger.info?.(`bluetooth: ${pending || 'a phone'} asks to connect`);
          events.emit('connectRequest', { deviceName: pending });
          break;
        }
        case BT_EVENTS.disconnected:
          connected = false;
          deviceName = null;
          events.emit('disconnected');
          await telemetry.track('bluetooth_connect', { connected: false });
          break;
        case BT_EVENTS.incomingCall: {
          const number = text(m);
          const found = await service.searchByNumber(number).catch(() => []);
          events.emit('incomingCall', { number, contacts: found });
          break;
        }
        case BT_EVENTS.callAnswered:
          events.emit('callAnswered');
          await telemetry.track('call_answer', {});
          break;
        case BT_EVENTS.callEnded:
          events.emit('callEnded');
          await telemetry.track('call_end', {});
          break;
        default:
          logger.debug?.(`bluetooth: unsolicited frame ${m.cmdId ?? 'empty'} (${m.data.length} bytes)`);
      }
    })();
  });
  module.on('close', (error) => {
    connected = false;
    if (!closing) logger.warn?.(`bluetooth: link closed: ${error.message}`);
    events.emit('closed', error);
  });

  // a defined getter (Object.assign would copy its first value)
  const base = { on: events.on, once: events.once };
  Object.defineProperty(base, 'connected', { get: () => connected, enumerable: true });
  Object.defineProperty(base, 'pendingRequest', { get: () => pending, enumerable: true });
  const service = Object.assign(base, {
    module,
    async info(): Promise<ModuleInfo> {
      try {
        const version = await module.getVersion();
        const name = await module.getName();
        const mac = await module.getMac();
        const buildtime = await module.getBuildtime();
        return { version, name, mac, buildtime };
      } catch (error) {
        throw new DeviceError('DEVICE_BT', `Bluetooth module did not answer: ${(error as Error).message}`, {
          cause: error,
        });
      }
    },
    status: () =>
      wrap('status', async () => ({
        status: await module.getStatus(),
        pbapStatus: await module.getPbapStatus(),
        enabled,
        connected,
        deviceName,
        contacts: contacts?.length ?? null,
      })),
    answerConnectRequest: (accept: boolean) =>
      wrap('connect reply', async () => {
        await module.connectReply(accept);
        logger.info?.(`bluetooth: connection request ${accept ? 'accepted' : 'rejected'}`);
        pending = null;
        events.emit('changed');
      }),
    disconnect: () => wrap('disconnect', () => module.disconnect()),
    setEnabled: (on: boolean) =>
      wrap(on ? 'on' : 'off', async () => {
        await (on ? module.openSwitch() : module.closeSwitch());
        enabled = on;
        if (!on) {
          connected = false;
          deviceName = null;
          pending = null;
        }
        logger.info?.(`bluetooth: turned ${on ? 'on' : 'off'}`);
        events.emit('changed');
      }),
    setAutoReconnect: (on: boolean) => wrap('reconnect switch', () => module.reconnectSwitch(on)),
    setMode: (mode: number) => wrap('mode', () => module.switchMode(mode)),
    repair: () =>
      wrap('pairing', async () => {
        await module.repair();
        logger.info?.('bluetooth: pairing reset; a phone can pair now');
        events.emit('changed');
      }),
    setName: (name: string) =>
      wrap('name', async () => {
        await module.setName(name);
        events.emit('changed');
      }),
    configure: (id: BtConfigCommandId, data?: Uint8Array) =>
      wrap('configuration', async () => (await module.configure(id, data)).data),
    async downloadPhoneBook() {
      contacts = await module.getPhoneBook({ path });
      logger.info?.(`bluetooth: phone book with ${contacts.length} contacts`);
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
  }) as unknown as BluetoothService;
  return service;
}
