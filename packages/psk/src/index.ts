// @waved/psk: WPA2 pre-shared keys and device PIN records.
import './node-guard.js';

// Errors
export { isPskError, PskError, type PskErrorCode } from './errors.js';

// Device PIN records
export {
  createPinRecord,
  isValidPin,
  normalizeStoredPin,
  PIN_DEFAULT_ITERATIONS,
  PIN_MAX_DIGITS,
  PIN_MIN_DIGITS,
  PIN_TAG,
  type PinRecord,
  type PinRecordOptions,
  parsePinRecord,
  type StoredPin,
  verifyPin,
} from './pin.js';

// WPA2 pre-shared keys
export {
  derivePsk,
  derivePskSync,
  isValidPassphrase,
  PASSPHRASE_MAX,
  PASSPHRASE_MIN,
  PSK_BYTES,
  PSK_ITERATIONS,
  SSID_MAX_BYTES,
  type SsidInput,
  ssidBytes,
} from './psk.js';
