import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createUnixDatagramSocket, type UnixDatagramSocket } from '@waved/native';
import { decodeSsid, formatSsid } from '@waved/wpa-cli';
import { type Logger, silentLogger } from '../../core/log/logger.js';
import type { StationEvent } from '../../core/ports/radio.js';

/**
 * Parses one unsolicited wpa_supplicant control-interface message (`<3>CTRL-EVENT-…`) into a station
 * event, or null for anything the appliance does not act on.
 */
export function parseCtrlEvent(message: string): StationEvent | null {
  const text = message.replace(/^<\d>/, '').trim();
  if (text.startsWith('CTRL-EVENT-CONNECTED')) return { type: 'connected', ssid: null };
  if (text.startsWith('CTRL-EVENT-DISCONNECTED')) return { type: 'disconnected' };
  if (text.startsWith('CTRL-EVENT-NETWORK-NOT-FOUND')) return { type: 'not-found' };
  if (text.startsWith('CTRL-EVENT-SCAN-RESULTS')) return { type: 'scan-results' };
  if (text.startsWith('CTRL-EVENT-SSID-TEMP-DISABLED') && /\breason=WRONG_KEY\b/.test(text)) {
    // ssid="…" is printed with printf_encode; decode it to bytes, then to the display form.
    const m = /\bssid="((?:[^"\\]|\\.)*)"/.exec(text);
    let ssid: string | null = null;
    if (m) {
      try {
        ssid = formatSsid(decodeSsid(m[1]!));
      } catch {
        ssid = null;
      }
    }
    return { type: 'wrong-key', ssid };
  }
  return null;
}

export interface CtrlEventMonitorOptions {
  /** The control socket, e.g. `/var/run/wpa_supplicant/wlan0`. */
  socketPath: string;
  /** How often to re-ATTACH (wpa_supplicant restarts, e.g. after the AP session). */
  reattachMs?: number;
  logger?: Logger;
}

/**
 * Listens to wpa_supplicant's control socket (a unix datagram socket, via @waved/native): ATTACH, then
 * every `<N>CTRL-EVENT-…` line becomes a StationEvent. It re-attaches periodically, so a restarted
 * wpa_supplicant is picked up again.
 */
export function createCtrlEventMonitor(options: CtrlEventMonitorOptions) {
  const log = options.logger ?? silentLogger;
  const listeners = new Set<(e: StationEvent) => void>();
  const local = path.join(os.tmpdir(), `waved-ctrl-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  let socket: UnixDatagramSocket | null = null;
  let timer: NodeJS.Timeout | undefined;
  let lastMessage = 0;

  const send = (text: string) => {
    if (!socket) return;
    try {
      socket.send(text, options.socketPath);
    } catch (error) {
      // ENOENT/ECONNREFUSED while wpa_supplicant is (re)starting: the next ATTACH catches up.
      log.debug?.(`ctrl socket: ${text} failed`, { error });
    }
  };

  const open = () => {
    fs.rmSync(local, { force: true });
    socket = createUnixDatagramSocket();
    socket.bind(local);
    socket.on('error', (error) => log.debug?.('ctrl socket error', { error: error.message }));
    socket.on('message', (msg) => {
      lastMessage = Date.now();
      const text = msg.toString('utf8');
      if (!text.startsWith('<')) return; // a reply (OK, PONG), not an event
      const event = parseCtrlEvent(text);
      if (event) for (const l of [...listeners]) l(event);
    });
  };

  return {
    start() {
      if (socket) return;
      open();
      send('ATTACH');
      timer = setInterval(() => {
        // ATTACH again when nothing was heard for a while (wpa_supplicant may have restarted).
        if (Date.now() - lastMessage > (options.reattachMs ?? 5_000)) send('ATTACH');
        else send('PING');
      }, options.reattachMs ?? 5_000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      if (socket) {
        send('DETACH');
        socket.close();
        socket = null;
      }
      fs.rmSync(local, { force: true });
      listeners.clear();
    },
    onEvent(listener: (e: StationEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
