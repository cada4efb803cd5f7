// @waved/bt-frame: serial frames of a Bluetooth module: codec, resynchronising decoder, module client, phone book.
import './node-guard.js';

// The clock shared by every waved package
export { type Clock, systemClock } from '@waved/internal';
// Command table and module client
export {
  BT_COMMAND_DATA_BUFFER,
  BT_COMMAND_MAX_DATA,
  BT_COMMANDS,
  BT_CONFIG_COMMAND_FIRST,
  BT_CONFIG_COMMAND_LAST,
  type BtCommandId,
  type BtCommandName,
  type BtConfigCommandId,
  btCommandName,
  isBtCommandId,
  isBtConfigCommand,
} from './commands.js';
// Streaming decoder: never throws, resynchronises after a bad frame
export {
  createFrameDecoder,
  type DecodeResult,
  type FrameDecoder,
  type FrameDecoderCounters,
  type FrameDecoderOptions,
  type FrameFault,
  PARSER_STATES,
  type ParserState,
} from './decoder.js';
// Errors
export { BtFrameError, type BtFrameErrorCode, isBtFrameError } from './errors.js';
// Frame codec
export {
  type DecodedFrame,
  decodeFrame,
  encodeFrame,
  FRAME_MAX_LENGTH,
  FRAME_MAX_PAYLOAD,
  FRAME_OVERHEAD,
  FRAME_START_BYTES,
  type Frame,
  type FrameType,
  frameChecksum,
  frameLength,
  frameTypeOf,
} from './frame.js';
// Module client: commands, replies, unsolicited events
export {
  type BtMessage,
  type BtModule,
  type BtModuleCounters,
  type BtModuleEvents,
  type BtModuleOptions,
  type BtPort,
  type BtSendOptions,
  createBtModule,
} from './module.js';
export { BT_NAME_MAX_BYTES, type BtCommandMethods } from './module-commands.js';
// Phone book download over PBAP, and the phone book file
export {
  type DownloadPhoneBookOptions,
  downloadPhoneBook,
  readPhoneBookFile,
  writePhoneBookFile,
} from './pbap.js';
// Phone book: file format, number matching
export {
  type Contact,
  type NumberOptions,
  normalizeNumber,
  numbersMatch,
  PHONEBOOK_MAGIC,
  PHONEBOOK_MAX_CONTACTS,
  PHONEBOOK_MAX_FILE_BYTES,
  PHONEBOOK_MAX_NAME_BYTES,
  PHONEBOOK_MAX_NUMBER_BYTES,
  PHONEBOOK_MAX_NUMBERS,
  PHONEBOOK_PATH,
  PHONEBOOK_VERSION,
  parsePhoneBook,
  searchByNumber,
  serializePhoneBook,
} from './phone-book.js';
// The decoder as a Transform stream (for pipe())
export { FrameParser, type FrameParserOptions } from './stream.js';
// Text from the module, for logs and terminals
export { decodeBtText, type StripControlsOptions, stripControls } from './text.js';
// vCard text
export { parseVCards, VCARD_MAX_BYTES } from './vcard.js';
