/**
 * The Bluetooth module command table. Keys are the vendor's command names without the `bt_`
 * prefix, in camelCase. The vendor names both 0x10 and 0x17 `bt_get_buildtime`; both ids are kept
 * (`getBuildtime` and `getBuildtime2`), and `btCommandName` returns the vendor's name for either.
 */
export const BT_COMMANDS = Object.freeze({
  connectReply: 0x01,
  disconnect: 0x02,
  closeSwitch: 0x03,
  reconnectSwitch: 0x04,
  openSwitch: 0x07,
  switchMode: 0x08,
  getMac: 0x09,
  getName: 0x0a,
  getVersion: 0x0d,
  getStatus: 0x0e,
  repair: 0x0f,
  getBuildtime: 0x10,
  getPhoneBook: 0x11,
  getPbapStatus: 0x12,
  setName: 0x16,
  /** Second id the vendor names `bt_get_buildtime`. */
  getBuildtime2: 0x17,
} as const);

export type BtCommandName = keyof typeof BT_COMMANDS;

/** First and last id of the configuration commands (the vendor gives them no names). */
export const BT_CONFIG_COMMAND_FIRST = 0x18;
export const BT_CONFIG_COMMAND_LAST = 0x1e;

export type BtConfigCommandId = 0x18 | 0x19 | 0x1a | 0x1b | 0x1c | 0x1d | 0x1e;
export type BtCommandId = (typeof BT_COMMANDS)[BtCommandName] | BtConfigCommandId;

/**
 * The data length argument of every vendor call, `bt_ctrl_cmd_send(cmd_id, data, 0x104, 0)`.
 * It is the size of the vendor's command buffer (260 bytes), an upper bound on
 * the data a caller may hand over; it is larger than one frame can carry (see
 * BT_COMMAND_MAX_DATA), so on the wire the frame's one-byte length is the binding limit.
 */
export const BT_COMMAND_DATA_BUFFER = 0x104;

/**
 * Most data bytes one command can carry: a frame payload holds at most 255 bytes, and the
 * command id takes one of them. `send` refuses longer data (it does not fragment: the module's
 * protocol has no fragmentation).
 */
export const BT_COMMAND_MAX_DATA = 0xff - 1;

const SPEC_NAMES: ReadonlyMap<number, string> = new Map<number, string>([
  [0x01, 'bt_connect_reply'],
  [0x02, 'bt_disconnect'],
  [0x03, 'bt_close_switch'],
  [0x04, 'bt_reconnect_switch'],
  [0x07, 'bt_open_switch'],
  [0x08, 'bt_switch_mode'],
  [0x09, 'bt_get_mac'],
  [0x0a, 'bt_get_name'],
  [0x0d, 'bt_get_version'],
  [0x0e, 'bt_get_status'],
  [0x0f, 'bt_repair'],
  [0x10, 'bt_get_buildtime'],
  [0x11, 'bt_get_phone_book'],
  [0x12, 'bt_get_pbap_status'],
  [0x16, 'bt_set_name'],
  [0x17, 'bt_get_buildtime'],
]);

/** True for 0x18..0x1e. */
export function isBtConfigCommand(id: number): id is BtConfigCommandId {
  return Number.isInteger(id) && id >= BT_CONFIG_COMMAND_FIRST && id <= BT_CONFIG_COMMAND_LAST;
}

/** True for every id in the command table, including the configuration range. */
export function isBtCommandId(id: number): id is BtCommandId {
  return SPEC_NAMES.has(id) || isBtConfigCommand(id);
}

/**
 * The vendor's name of a command id (`bt_get_buildtime` for both 0x10 and 0x17,
 * `bt_config_0x18`..`bt_config_0x1e` for the configuration range), or undefined.
 */
export function btCommandName(id: number): string | undefined {
  if (isBtConfigCommand(id)) return `bt_config_0x${id.toString(16)}`;
  return SPEC_NAMES.get(id);
}
