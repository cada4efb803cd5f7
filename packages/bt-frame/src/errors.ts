/** Every way @waved/bt-frame can refuse an input or report a failure. Every code starts with `BT_`. */
export type BtFrameErrorCode =
  // frame codec (encodeFrame / decodeFrame / frameLength)
  | 'BT_FRAME_TYPE'
  | 'BT_FRAME_PAYLOAD_LENGTH'
  | 'BT_FRAME_TRUNCATED'
  | 'BT_FRAME_START'
  | 'BT_FRAME_CHECKSUM'
  // streaming decoder (reported as faults, see FrameFault)
  | 'BT_FRAME_LENGTH'
  | 'BT_FRAME_TIMEOUT'
  | 'BT_DECODER_OPTIONS'
  // module client
  | 'BT_COMMAND_ID'
  | 'BT_COMMAND_DATA_LENGTH'
  | 'BT_COMMAND_ARGUMENT'
  | 'BT_COMMAND_REFUSED'
  | 'BT_COMMAND_REPLY'
  | 'BT_MODULE_TIMEOUT'
  | 'BT_MODULE_CLOSED'
  | 'BT_MODULE_WRITE'
  // phone book
  | 'BT_PHONEBOOK_MAGIC'
  | 'BT_PHONEBOOK_VERSION'
  | 'BT_PHONEBOOK_TRUNCATED'
  | 'BT_PHONEBOOK_CHECKSUM'
  | 'BT_PHONEBOOK_LIMIT'
  | 'BT_PHONEBOOK_ENCODING'
  | 'BT_PHONEBOOK_TRAILING'
  | 'BT_PHONEBOOK_INVALID'
  | 'BT_PHONEBOOK_DOWNLOAD'
  | 'BT_PHONEBOOK_IO';

export class BtFrameError extends Error {
  override readonly name = 'BtFrameError';
  constructor(
    readonly code: BtFrameErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `e` is a BtFrameError (with the given code, when one is given). */
export function isBtFrameError(e: unknown, code?: BtFrameErrorCode): e is BtFrameError {
  return e instanceof BtFrameError && (code === undefined || e.code === code);
}
