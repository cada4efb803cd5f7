// The QR payload of spec A5 is built in one place, beside the rest of the AP session values.
export { escapeWifiQrValue, formatWifiQr } from '../provisioning/ap.js';
