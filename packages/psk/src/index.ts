// WPA2 pre-shared keys
import './node-guard.js';

// Errors
export { PskError, type PskErrorCode } from './errors.js';

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
