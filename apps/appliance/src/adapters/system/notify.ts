import { createUnixDatagramSocket, type UnixDatagramSocket } from '@waved/native';
import type { Notifier } from '../../core/ports/notify.js';
import { silentNotifier } from '../../core/ports/notify.js';

export interface SystemdNotifierOptions {
  /** `$NOTIFY_SOCKET` (a path; an abstract name starts with `@`). */
  socket?: string | undefined;
  /** `$WATCHDOG_USEC` and `$WATCHDOG_PID`: the watchdog is ours when the pid is absent or ours. */
  watchdogUsec?: string | undefined;
  watchdogPid?: string | undefined;
  onError?: (error: Error) => void;
}

/**
 * `sd_notify` over the service manager's unix datagram socket: `READY=1`, `WATCHDOG=1` at half the
 * watchdog interval, `STOPPING=1`, `STATUS=…`. Without `$NOTIFY_SOCKET` every call does nothing.
 */
export function createSystemdNotifier(options: SystemdNotifierOptions = {}): Notifier {
  const target = options.socket;
  if (!target) return silentNotifier;
  // An abstract socket name (systemd may use one in containers) is written `@name`, as
  // @waved/native's unix datagram socket takes it.
  const path = target;
  let socket: UnixDatagramSocket | null = null;
  const usec = Number(options.watchdogUsec);
  const ours = !options.watchdogPid || Number(options.watchdogPid) === process.pid;
  const watchdogMs = ours && Number.isFinite(usec) && usec > 0 ? Math.max(1, Math.floor(usec / 2000)) : null;
  const send = (text: string) => {
    try {
      if (!socket) {
        socket = createUnixDatagramSocket();
        socket.on('error', (error) => options.onError?.(error));
      }
      socket.send(text, path);
    } catch (error) {
      options.onError?.(error as Error);
    }
  };
  const clean = (s: string) => s.replace(/[\r\n]+/g, ' ');
  return {
    watchdogMs,
    ready: (status) => send(`READY=1${status ? `\nSTATUS=${clean(status)}` : ''}\nMAINPID=${process.pid}`),
    watchdog: () => send('WATCHDOG=1'),
    stopping: (status) => send(`STOPPING=1${status ? `\nSTATUS=${clean(status)}` : ''}`),
    status: (text) => send(`STATUS=${clean(text)}`),
    close() {
      socket?.close();
      socket = null;
    },
  };
}
