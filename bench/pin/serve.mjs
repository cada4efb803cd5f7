// The server side of bench/pin: the captive DNS responder and the portal in ONE process, composed as
// the device composes them: the responder on its own thread (startCaptiveDnsThread, as the system
// radio starts it) and PINs hashed on a thread at nice 19 (createLowPriorityPinHash, as the system
// adapters pass it). The portal's setup session never ends here (no radio), so posts can go on.
// Prints one JSON line { dnsPort, portalPort, csrf } and serves until killed.
//
// `node serve.mjs <dir> [reference]`: with `reference`, the responder runs on the main thread and a
// message { hash: n } over IPC makes it run n PBKDF2-SHA256 hashes of 100 000 iterations with
// pbkdf2Sync on the event loop, one after another:
// what the portal did per post before the hash moved to the thread pool.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createCaptiveDns } from '@waved/captive-dns';
import { createPinRecord } from '@waved/psk';
import {
  createAttemptLimiter,
  createFileStore,
  createLowPriorityPinHash,
  createPortal,
  createSettingsStore,
  StateBus,
  serveHttp,
  startCaptiveDnsThread,
} from '../../apps/appliance/dist/index.js';

const [dir, mode] = process.argv.slice(2);
const BENCH_PIN = '482913';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const file = path.join(dir, 'config.toml');
// The device's own iteration count (the @waved/psk default, 100 000).
fs.writeFileSync(file, `[security]\ndevice_password = "${createPinRecord(BENCH_PIN)}"\n`, { mode: 0o600 });
const files = createFileStore();
const pinHash = createLowPriorityPinHash();
const settings = createSettingsStore({ path: file, files, logger: quiet, pinHash });
await settings.load();
const csrf = crypto.randomBytes(32).toString('base64url');
const portal = createPortal({
  bus: new StateBus(),
  settings,
  logger: quiet,
  serve: serveHttp,
  pinAttempts: createAttemptLimiter({ persist: { path: path.join(dir, 'pin-attempts.json'), files } }),
  pinHash,
  session: () => ({
    csrf,
    apSsid: 'Device-BE4C',
    networks: [],
    state: { state: 'ApActive', ssid: 'Device-BE4C', passphrase: '00000000', url: 'http://192.168.2.1/' },
  }),
});
const web = await portal.listen({ host: '127.0.0.1', port: 0 });
const dnsOptions = { answer: '192.168.2.1', address: '127.0.0.1', port: 0 };
const { port: dnsPort } =
  mode === 'reference'
    ? await createCaptiveDns(dnsOptions).listen()
    : await startCaptiveDnsThread(dnsOptions);
if (mode === 'reference') {
  process.on('message', (m) => {
    for (let i = 0; i < m.hash; i++) crypto.pbkdf2Sync(BENCH_PIN, 'salt-salt-salt-1', 100_000, 32, 'sha256');
    process.send?.({ done: m.hash });
  });
}
process.stdout.write(`${JSON.stringify({ dnsPort, portalPort: Number(new URL(web.url).port), csrf })}\n`);
