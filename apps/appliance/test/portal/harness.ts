import fs from 'node:fs';
import { freePort, tempDir } from '@waved/test-lab';
import { createFileStore } from '../../src/adapters/system/files.js';
import { serveHttp } from '../../src/adapters/system/http.js';
import { type Command, type ProvisioningState, type ScannedNetwork, StateBus } from '../../src/core/bus.js';
import { createPortal, type PortalSession } from '../../src/domain/portal/index.js';
import type { AttemptLimiter } from '../../src/domain/security/attempts.js';
import { createSettingsStore, type Logger, type SettingsStore } from '../../src/domain/settings/index.js';
import type { WebhookHttp } from '../../src/domain/webhook.js';

export const CSRF = 'Q2sY3m8x1c0HnJtqkRZrVq9oX3pLw2bD0eK7fUaT1vA';
export const AP_PASSPHRASE = '4f9a01c7';

/** The SSID bytes of a name, as hex (what the form posts for a listed network). */
export const hex = (ssid: string) => Buffer.from(ssid, 'utf8').toString('hex');

const net = (
  ssid: string,
  signal: number,
  signalClass: ScannedNetwork['signalClass'],
  frequency: number,
  secure: boolean,
) => ({
  ssidHex: hex(ssid),
  ssid,
  signal,
  signalClass,
  frequency,
  secure,
});

export const NETWORKS: ScannedNetwork[] = [
  net('Cafe', -72, 'weak', 2412, true),
  net('Home <5G>', -48, 'excellent', 5180, true),
  net('Cafe', -58, 'good', 5200, true),
  net('Guest', -65, 'fair', 2437, false),
  net('', -40, 'excellent', 2462, true),
  net('Büro 2.4', -61, 'fair', 2462, true),
];

export interface Harness {
  url: string;
  file: string;
  bus: StateBus;
  commands: Command[];
  logs: string[];
  settings: SettingsStore;
  session: PortalSession | null;
  setState(state: ProvisioningState): void;
  close(): Promise<void>;
}

/** `selfGateway`: redirects point at this test server itself, so a browser can follow them. */
export async function startPortal(
  options: {
    expiresAt?: number;
    gateway?: string;
    selfGateway?: boolean;
    pinAttempts?: AttemptLimiter;
    webhookHttp?: WebhookHttp;
    /** An existing settings file to start from (its directory is not removed). */
    file?: string;
  } = {},
): Promise<Harness> {
  const port = options.selfGateway ? await freePort() : 0;
  const gateway = options.selfGateway ? `127.0.0.1:${port}` : options.gateway;
  const dir = tempDir('waved-portal-');
  const file = options.file ?? dir.join('config.toml');
  const logs: string[] = [];
  const logger: Logger = {
    debug: (m) => logs.push(m),
    info: (m) => logs.push(m),
    warn: (m) => logs.push(m),
    error: (m) => logs.push(m),
  };
  const bus = new StateBus();
  const commands: Command[] = [];
  bus.on('command', (c) => commands.push(c));
  const settings = createSettingsStore({
    files: createFileStore(),
    path: file,
    logger,
    pinIterations: 1000,
    ...(options.webhookHttp ? { webhookHttp: options.webhookHttp } : {}),
  });
  await settings.load();
  const h: Harness = {
    url: '',
    file,
    bus,
    commands,
    logs,
    settings,
    session: {
      csrf: CSRF,
      apSsid: 'Device-3F2A',
      networks: NETWORKS,
      state: {
        state: 'ApActive',
        ssid: 'Device-3F2A',
        passphrase: AP_PASSPHRASE,
        url: 'http://192.168.2.1/',
      },
      ...(options.expiresAt !== undefined ? { expiresAt: options.expiresAt } : {}),
    },
    setState(state) {
      if (h.session) h.session = { ...h.session, state };
    },
    close: async () => {},
  };
  const portal = createPortal({
    bus,
    settings,
    session: () => h.session,
    logger,
    serve: serveHttp,
    ...(options.pinAttempts ? { pinAttempts: options.pinAttempts } : {}),
    ...(gateway ? { gateway } : {}),
  });
  const server = await portal.listen({ host: '127.0.0.1', port });
  h.url = server.url;
  h.close = async () => {
    await server.close();
    dir.remove();
  };
  return h;
}

export function fileExists(h: Harness): boolean {
  return fs.existsSync(h.file);
}

export function validFields(extra: Record<string, string> = {}): Record<string, string> {
  return {
    csrf: CSRF,
    'wifi.ssid_hex': hex('Home <5G>'),
    'wifi.passphrase': 'correct horse battery',
    'wifi.country': 'DE',
    'device.name': 'Desk recorder',
    'device.country': 'DE',
    'device.timezone': 'Europe/Berlin',
    'device.language': 'de',
    'audio.volume': '40',
    'audio.prompt_tones': 'true',
    'webhook.url': '',
    'webhook.secret': '',
    'storage.auto_upload': 'false',
    'storage.max_usage_percent': '85',
    'security.device_password': '',
    'ntp.enabled': 'true',
    'ntp.servers': 'pool.ntp.org',
    ...extra,
  };
}

export function urlencoded(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export function multipart(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}
