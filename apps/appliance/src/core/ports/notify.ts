/**
 * The service manager's notification channel (systemd `sd_notify`): `READY=1` once the device runs,
 * `WATCHDOG=1` while it is healthy, `STOPPING=1` when it shuts down.
 */
export interface Notifier {
  ready(status?: string): void;
  watchdog(): void;
  stopping(status?: string): void;
  status(text: string): void;
  /** Interval at which `watchdog()` must be called, or null when no watchdog is armed. */
  readonly watchdogMs: number | null;
  close(): void;
}

export const silentNotifier: Notifier = {
  ready() {},
  watchdog() {},
  stopping() {},
  status() {},
  watchdogMs: null,
  close() {},
};
