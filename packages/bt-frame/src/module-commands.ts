import { BT_COMMANDS, type BtConfigCommandId, btCommandName, isBtConfigCommand } from './commands.js';
import { BtFrameError } from './errors.js';
import type { BtMessage, BtModule, BtSendOptions } from './module.js';
import { type DownloadPhoneBookOptions, downloadPhoneBook } from './pbap.js';
import type { Contact } from './phone-book.js';
import { decodeBtText, stripControls } from './text.js';

// One typed method per command of the vendor's command table. The vendor gives the ids and names
// only; what each command carries and answers is this project's decision (docs/decisions.md),
// kept to three reply shapes:
//
// - acknowledged commands: the module answers `[cmd_id, status]`; status 0 (or no status byte) is
//   success, anything else rejects with BT_COMMAND_REFUSED;
// - text queries: UTF-8 text, cut at the first NUL, on one line without control characters;
// - status queries: the first data byte.
//
// The configuration commands 0x18..0x1e have no names in the spec: `configure(id, data)` sends
// them and resolves the raw reply.

/** Longest Bluetooth device name, in UTF-8 bytes (Bluetooth Core Specification, Vol 3, Part C, §3.2.2). */
export const BT_NAME_MAX_BYTES = 248;

export interface BtCommandMethods {
  /** 0x01 `bt_connect_reply`: answers a phone's connection request (data `[1]` accept, `[0]` reject). */
  connectReply(accept: boolean, options?: BtSendOptions): Promise<void>;
  /** 0x02 `bt_disconnect`: drops the phone's connection. */
  disconnect(options?: BtSendOptions): Promise<void>;
  /** 0x03 `bt_close_switch`: turns Bluetooth off. */
  closeSwitch(options?: BtSendOptions): Promise<void>;
  /** 0x04 `bt_reconnect_switch`: turns reconnecting to the last phone on (`[1]`) or off (`[0]`). */
  reconnectSwitch(enabled: boolean, options?: BtSendOptions): Promise<void>;
  /** 0x07 `bt_open_switch`: turns Bluetooth on. */
  openSwitch(options?: BtSendOptions): Promise<void>;
  /** 0x08 `bt_switch_mode`: selects a module mode (one byte; values are the module's). */
  switchMode(mode: number, options?: BtSendOptions): Promise<void>;
  /** 0x09 `bt_get_mac`: the module's address, `aa:bb:cc:dd:ee:ff` (6 bytes, or 12 hex digits as text). */
  getMac(options?: BtSendOptions): Promise<string>;
  /** 0x0a `bt_get_name`: the module's name, cleaned for logs and terminals. */
  getName(options?: BtSendOptions): Promise<string>;
  /** 0x0d `bt_get_version`: the firmware version text. */
  getVersion(options?: BtSendOptions): Promise<string>;
  /** 0x0e `bt_get_status`: the status byte (values are the module's). */
  getStatus(options?: BtSendOptions): Promise<number>;
  /** 0x0f `bt_repair`: forgets the pairing and pairs again. */
  repair(options?: BtSendOptions): Promise<void>;
  /** 0x10 `bt_get_buildtime`: the firmware build time text. */
  getBuildtime(options?: BtSendOptions): Promise<string>;
  /** 0x11 `bt_get_phone_book`: the PBAP download (see `downloadPhoneBook`), written to the phone book file. */
  getPhoneBook(options?: DownloadPhoneBookOptions): Promise<Contact[]>;
  /** 0x12 `bt_get_pbap_status`: the PBAP status byte. */
  getPbapStatus(options?: BtSendOptions): Promise<number>;
  /**
   * 0x16 `bt_set_name`: renames the module. 1..248 UTF-8 bytes, no control characters, else
   * `BT_COMMAND_ARGUMENT` (nothing is sent).
   */
  setName(name: string, options?: BtSendOptions): Promise<void>;
  /** 0x17, the second id the vendor names `bt_get_buildtime`: the same text query. */
  getBuildtime2(options?: BtSendOptions): Promise<string>;
  /** 0x18..0x1e, the configuration commands (names and payloads not shown): the raw reply. */
  configure(id: BtConfigCommandId, data?: Uint8Array, options?: BtSendOptions): Promise<BtMessage>;
}

function nameOf(id: number): string {
  return `${btCommandName(id) ?? 'command'} (0x${id.toString(16).padStart(2, '0')})`;
}

function replyError(id: number, what: string): BtFrameError {
  return new BtFrameError('BT_COMMAND_REPLY', `${nameOf(id)}: the module answered ${what}`);
}

/** The typed methods over a module's `send`. */
export function createCommandMethods(module: BtModule): BtCommandMethods {
  const ack = async (id: number, data: Uint8Array, options?: BtSendOptions): Promise<void> => {
    const reply = await module.send(id, data, options);
    const status = reply.data[0];
    if (status !== undefined && status !== 0) {
      throw new BtFrameError('BT_COMMAND_REFUSED', `${nameOf(id)}: the module refused it (status ${status})`);
    }
  };
  const text = async (id: number, options?: BtSendOptions): Promise<string> =>
    decodeBtText((await module.send(id, undefined, options)).data);
  const byte = async (id: number, options?: BtSendOptions): Promise<number> => {
    const value = (await module.send(id, undefined, options)).data[0];
    if (value === undefined) throw replyError(id, 'no status byte');
    return value;
  };
  const none = new Uint8Array(0);
  const flag = (on: boolean) => Uint8Array.of(on ? 1 : 0);

  return {
    connectReply: (accept, options) => ack(BT_COMMANDS.connectReply, flag(accept), options),
    disconnect: (options) => ack(BT_COMMANDS.disconnect, none, options),
    closeSwitch: (options) => ack(BT_COMMANDS.closeSwitch, none, options),
    reconnectSwitch: (enabled, options) => ack(BT_COMMANDS.reconnectSwitch, flag(enabled), options),
    openSwitch: (options) => ack(BT_COMMANDS.openSwitch, none, options),
    async switchMode(mode, options) {
      if (!Number.isInteger(mode) || mode < 0 || mode > 0xff) {
        throw new BtFrameError(
          'BT_COMMAND_ARGUMENT',
          `switchMode: mode must be a byte (0..255), got ${mode}`,
        );
      }
      await ack(BT_COMMANDS.switchMode, Uint8Array.of(mode), options);
    },
    async getMac(options) {
      const { data } = await module.send(BT_COMMANDS.getMac, undefined, options);
      if (data.length === 6) return [...data].map((b) => b.toString(16).padStart(2, '0')).join(':');
      const hex = new TextDecoder().decode(data).replace(/[\0\s]+$/, '');
      if (/^[0-9A-Fa-f]{2}([:-]?)[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/.test(hex)) {
        return (hex.replace(/[:-]/g, '').match(/../g) ?? []).join(':').toLowerCase();
      }
      throw replyError(BT_COMMANDS.getMac, `${data.length} bytes that are not an address`);
    },
    getName: (options) => text(BT_COMMANDS.getName, options),
    getVersion: (options) => text(BT_COMMANDS.getVersion, options),
    getStatus: (options) => byte(BT_COMMANDS.getStatus, options),
    repair: (options) => ack(BT_COMMANDS.repair, none, options),
    getBuildtime: (options) => text(BT_COMMANDS.getBuildtime, options),
    getPhoneBook: (options) => downloadPhoneBook(module, options),
    getPbapStatus: (options) => byte(BT_COMMANDS.getPbapStatus, options),
    async setName(name, options) {
      const bytes = typeof name === 'string' ? Buffer.from(name, 'utf8') : undefined;
      if (
        bytes === undefined ||
        bytes.length === 0 ||
        bytes.length > BT_NAME_MAX_BYTES ||
        stripControls(name) !== name
      ) {
        throw new BtFrameError(
          'BT_COMMAND_ARGUMENT',
          `setName: the name must be 1..${BT_NAME_MAX_BYTES} UTF-8 bytes without control characters`,
        );
      }
      await ack(BT_COMMANDS.setName, bytes, options);
    },
    getBuildtime2: (options) => text(BT_COMMANDS.getBuildtime2, options),
    async configure(id, data = none, options) {
      if (!isBtConfigCommand(id)) {
        throw new BtFrameError(
          'BT_COMMAND_ID',
          `configure: 0x${Number(id).toString(16)} is not in 0x18..0x1e`,
        );
      }
      return module.send(id, data, options);
    },
  };
}
