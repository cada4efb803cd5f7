import { createRequire } from 'node:module';

/** A bound unix datagram socket (wpa_supplicant's control interface, systemd's notify socket). */
export interface UnixDgramSocket {
  bind(path: string): void;
  send(buf: Uint8Array, path: string): void;
  on(event: 'error', fn: (error: Error) => void): void;
  close(): void;
}

/**
 * The one place that knows which module provides unix datagram sockets (Node has none): today the
 * `unix-dgram` addon. `onMessage` receives every datagram sent to the bound path.
 */
export function createUnixDgramSocket(onMessage: (msg: Buffer) => void = () => {}): UnixDgramSocket {
  const require = createRequire(import.meta.url);
  const unix = require('unix-dgram') as {
    createSocket(
      type: 'unix_dgram',
      onMessage: (msg: Buffer) => void,
    ): {
      bind(path: string): void;
      sendto(buf: Buffer, offset: number, length: number, path: string): void;
      on(event: 'error', fn: (error: Error) => void): void;
      close(): void;
    };
  };
  const socket = unix.createSocket('unix_dgram', onMessage);
  return {
    bind: (path) => socket.bind(path),
    send(buf, path) {
      const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
      socket.sendto(b, 0, b.length, path);
    },
    on: (event, fn) => socket.on(event, fn),
    close: () => socket.close(),
  };
}
