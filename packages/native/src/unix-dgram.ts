// A unix datagram socket bound or connected to a path: the wpa_supplicant control interface, the
// systemd notification socket (NOTIFY_SOCKET) and the like.
import { fromAddon, NativeError } from './errors.js';
import { loadNative, type NativeBinding } from './load.js';

export interface UnixDatagramEvents {
  /** A datagram arrived; `from` is the sender's path ('' for an unbound sender, '@…' abstract). */
  message: (data: Buffer, from: string) => void;
  /** Receiving failed, or a datagram was longer than `maxMessageBytes` (dropped). */
  error: (error: NativeError) => void;
}

export interface UnixDatagramSocket {
  /** The descriptor; -1 once closed. */
  readonly fd: number;
  /** Binds to a path (the file must not exist), or to an abstract name written `@name`. */
  bind(path: string): void;
  /** Sets the default destination for send() and accepts datagrams only from it. */
  connect(path: string): void;
  /**
   * Sends one datagram, to `path` or else to the connected peer; returns the bytes sent. Never
   * blocks: a full peer queue throws NATIVE_SYSCALL with `systemCode` EAGAIN.
   */
  send(data: string | Uint8Array, path?: string): number;
  /** Receiving starts with the first `message` listener. Returns the function that removes it. */
  on<E extends keyof UnixDatagramEvents>(event: E, listener: UnixDatagramEvents[E]): () => void;
  /** Stops receiving and closes the descriptor (it does not remove a bound path). Idempotent. */
  close(): void;
}

export interface UnixDatagramOptions {
  /** Longest datagram received; longer ones are dropped with an `error` event. Default 65 536. */
  maxMessageBytes?: number;
}

/** Most datagrams read per readiness callback, so a flood cannot starve the event loop. */
const READS_PER_WAKEUP = 256;

/** Socket address bytes: a leading `@` names the abstract namespace (a leading NUL byte). */
function unixAddress(path: string): Buffer {
  if (typeof path !== 'string' || path.length === 0) {
    throw new NativeError('NATIVE_ARGUMENT', 'a unix socket path is a non-empty string');
  }
  const bytes = path.startsWith('@')
    ? Buffer.concat([Buffer.from([0]), Buffer.from(path.slice(1), 'utf8')])
    : Buffer.from(path, 'utf8');
  if (bytes.length > 107) {
    throw new NativeError(
      'NATIVE_ARGUMENT',
      `unix socket path is ${bytes.length} bytes, at most 107 fit: ${path}`,
    );
  }
  if (path[0] !== '@' && bytes.includes(0)) {
    throw new NativeError('NATIVE_ARGUMENT', 'a unix socket path contains no NUL character');
  }
  return bytes;
}

function addressString(bytes: Buffer): string {
  return bytes.length > 0 && bytes[0] === 0
    ? `@${bytes.subarray(1).toString('utf8')}`
    : bytes.toString('utf8');
}

/** Creates a non-blocking AF_UNIX SOCK_DGRAM socket. Throws NativeError when the addon is missing. */
export function createUnixDatagramSocket(
  options: UnixDatagramOptions = {},
  native: NativeBinding = loadNative(),
): UnixDatagramSocket {
  const max = options.maxMessageBytes ?? 65_536;
  if (!Number.isInteger(max) || max < 1 || max > 262_144) {
    throw new NativeError('NATIVE_ARGUMENT', `maxMessageBytes must be 1..262144, got ${max}`);
  }
  let fd: number;
  try {
    fd = native.unixSocket();
  } catch (error) {
    throw fromAddon(error);
  }
  const listeners = {
    message: new Set<UnixDatagramEvents['message']>(),
    error: new Set<UnixDatagramEvents['error']>(),
  };
  let watcher: object | null = null;
  let buffer: Buffer | null = null;

  const live = (what: string) => {
    if (fd < 0) throw new NativeError('NATIVE_CLOSED', `cannot ${what}: the socket is closed`);
    return fd;
  };
  const fail = (error: NativeError) => {
    for (const l of [...listeners.error]) l(error);
  };
  const onReadable = (status: number) => {
    if (fd < 0 || buffer === null) return;
    if (status < 0) {
      fail(new NativeError('NATIVE_SYSCALL', `polling the unix socket failed (${status})`));
      return;
    }
    for (let i = 0; i < READS_PER_WAKEUP && fd >= 0; i++) {
      let got: [number, Buffer] | null;
      try {
        got = native.unixRecv(fd, buffer);
      } catch (error) {
        fail(fromAddon(error));
        return;
      }
      if (got === null) return;
      const [length, from] = got;
      if (length < 0) {
        fail(new NativeError('NATIVE_ARGUMENT', `dropped a datagram longer than maxMessageBytes (${max})`));
        continue;
      }
      const data = Buffer.from(buffer.subarray(0, length)); // a copy: the buffer is reused
      const sender = addressString(from);
      for (const l of [...listeners.message]) l(data, sender);
    }
  };

  return {
    get fd() {
      return fd;
    },
    bind(path) {
      const address = unixAddress(path);
      try {
        native.unixBind(live('bind'), address);
      } catch (error) {
        throw fromAddon(error);
      }
    },
    connect(path) {
      const address = unixAddress(path);
      try {
        native.unixConnect(live('connect'), address);
      } catch (error) {
        throw fromAddon(error);
      }
    },
    send(data, path) {
      const bytes =
        typeof data === 'string'
          ? Buffer.from(data, 'utf8')
          : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const address = path === undefined ? null : unixAddress(path);
      try {
        return native.unixSend(live('send'), bytes, address);
      } catch (error) {
        throw fromAddon(error);
      }
    },
    on(event, listener) {
      const set = listeners[event] as Set<typeof listener>;
      set.add(listener);
      if (event === 'message' && watcher === null && fd >= 0) {
        buffer = Buffer.allocUnsafe(max);
        try {
          watcher = native.watch(fd, onReadable);
        } catch (error) {
          set.delete(listener);
          throw fromAddon(error);
        }
      }
      return () => {
        set.delete(listener);
      };
    },
    close() {
      if (fd < 0) return;
      if (watcher !== null) native.unwatch(watcher); // stop polling before the descriptor goes
      watcher = null;
      const closing = fd;
      fd = -1;
      buffer = null;
      native.closeFd(closing);
      listeners.message.clear();
      listeners.error.clear();
    },
  };
}
