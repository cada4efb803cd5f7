import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Command, StateBus } from '../../src/core/bus.js';
import { createScreenPage, createScreens, type Screens } from '../../src/domain/screens/index.js';

let bus: StateBus;
let screens: Screens;
let server: http.Server;
let base: string;
let commands: Command[];

beforeEach(async () => {
  bus = new StateBus();
  commands = [];
  bus.on('command', (c) => commands.push(c));
  screens = createScreens({ bus });
  server = http.createServer(toNodeHandler(createScreenPage({ screens })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  screens.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function press(action: string, type = 'application/json') {
  return fetch(`${base}/press`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: JSON.stringify({ action }),
  });
}

/** A request with a Host header of our choosing (fetch does not let a page set it). */
function withHost(host: string, method = 'GET', path = '/', body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(base);
    const req = http.request(
      {
        host: '127.0.0.1',
        port: url.port,
        method,
        path,
        headers: { host, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the screen page answers the device only (DNS rebinding)', () => {
  it('refuses a page loaded under another name that resolves to 127.0.0.1 (attack)', async () => {
    expect((await withHost('evil.example')).status).toBe(421);
    expect((await withHost(`evil.example:${new URL(base).port}`, 'GET', '/view.json')).status).toBe(421);
    const press = await withHost('evil.example', 'POST', '/press', JSON.stringify({ action: 'open-wifi' }));
    expect(press.status).toBe(421);
    expect(screens.view().screen).toBe('menu');
    expect(commands).toEqual([]);
  });

  it('serves the loopback names a kiosk browser uses', async () => {
    for (const host of ['127.0.0.1', `127.0.0.1:${new URL(base).port}`, 'localhost:8081', '[::1]:8081']) {
      expect((await withHost(host)).status).toBe(200);
    }
  });
});

describe('screen emulator page', () => {
  it('serves a self-contained page', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('EventSource');
    expect(html).not.toMatch(/(src|href)="https?:/);
  });

  it('buttons become bus commands; the view carries the QR as SVG', async () => {
    expect(await (await press('open-wifi')).json()).toMatchObject({
      screen: 'wifi',
      buttons: [
        { action: 'wifi-button', label: 'Set up Wi-Fi' },
        { action: 'back', label: 'Back' },
      ],
    });
    await press('wifi-button');
    expect(commands).toEqual([{ type: 'OpenWifiProvisioning' }]);
    bus.publish('ProvisioningState', {
      state: 'ApActive',
      ssid: 'Device-3F2A',
      passphrase: '4f9a01c7',
      url: 'http://192.168.2.1/',
    });
    const view = (await (await fetch(`${base}/view.json`)).json()) as Record<string, string>;
    expect(view).toMatchObject({ screen: 'setup', ssid: 'Device-3F2A', address: '192.168.2.1' });
    expect(view.qrSvg).toMatch(/^<svg[^>]*viewBox/);
  });

  it('the update screen: the page gets the same view as the terminal, and Install answers the hook', async () => {
    screens.otaEvent({
      type: 'available',
      kind: 'psp_firmware',
      version: '1.1.0',
      forced: false,
      notes: 'n',
    });
    screens.otaEvent({
      type: 'progress',
      kind: 'psp_firmware',
      received: 3 * 1024 * 1024,
      total: 4 * 1024 * 1024,
      percent: 75,
      bar: '',
    });
    const view = await (await fetch(`${base}/view.json`)).json();
    expect(view).toEqual(JSON.parse(JSON.stringify(screens.view())));
    expect(view).toMatchObject({
      screen: 'update',
      headline: 'Update available v1.1.0 (needs consent)',
      progress: { percent: 75, bytes: '3.0 MiB of 4.0 MiB' },
      buttons: [
        { action: 'install', label: 'Install' },
        { action: 'later', label: 'Later' },
      ],
    });
    const html = await (await fetch(`${base}/`)).text();
    expect(html).toContain("v.screen === 'update'");
    expect(html).toContain('role="progressbar"');
    const answer = screens.consent({ kind: 'psp_firmware', version: '1.1.0', notes: 'n' });
    expect(await (await press('install')).json()).toMatchObject({ phase: 'installing', buttons: [] });
    await expect(answer).resolves.toBe(true);
  });

  it('the verification page takes digits by press and shows only dots', async () => {
    const checked: string[] = [];
    screens.close();
    screens = createScreens({
      bus,
      verification: {
        verify: (pin) => {
          checked.push(pin);
          return { result: 1 };
        },
        report: () => {},
      },
    });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    server = http.createServer(toNodeHandler(createScreenPage({ screens })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    screens.showVerificationPage();
    for (const d of '1357') expect((await press(`pin-${d}`)).status).toBe(200);
    const view = (await (await fetch(`${base}/view.json`)).json()) as Record<string, unknown>;
    expect(view).toMatchObject({ screen: 'verify', entered: 4, masked: '••••' });
    expect(JSON.stringify(view)).not.toContain('1357');
    expect(await (await press('pin-submit')).json()).toMatchObject({ phase: 'verified' });
    expect(checked).toEqual(['1357']);
    expect((await press('pin-x')).status).toBe(400);
  });

  it('refuses presses that are not JSON or not an action', async () => {
    expect((await press('open-wifi', 'application/x-www-form-urlencoded')).status).toBe(415);
    expect((await press('reboot')).status).toBe(400);
    expect(screens.view().screen).toBe('menu');
  });

  it('streams each new view as a server-sent event', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/events`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const next = async (): Promise<Record<string, unknown>> => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          return JSON.parse(event.replace(/^data: /, '')) as Record<string, unknown>;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    };
    expect(await next()).toMatchObject({ screen: 'menu' });
    screens.press('open-wifi');
    expect(await next()).toMatchObject({ screen: 'wifi' });
    bus.publish('ConnectionDetails', {
      ssid: 'Home',
      status: 'COMPLETED',
      signal: 'fair',
      rssi: -66,
      ipv4: '10.1.1.5',
    });
    expect(await next()).toMatchObject({ statusLine: 'Connected · Fair signal', ipv4: '10.1.1.5' });
    controller.abort();
  });
});
