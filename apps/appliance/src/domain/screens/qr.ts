// The setup QR payload is built in one place, beside the rest of the AP session values.
export { escapeWifiQrValue, formatWifiQr } from '../provisioning/ap.js';
