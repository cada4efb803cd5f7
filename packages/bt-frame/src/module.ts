import { type Clock, createEvents, systemClock } from '@waved/internal';
import { BT_COMMAND_MAX_DATA } from './commands.js';
import {
  createFrameDecoder,
  type DecodeResult,
  type FrameDecoder,
  type FrameDecoderOptions,
  type FrameFault,
} from './decoder.js';
import { BtFrameError } from './errors.js';
import { type DecodedFrame, encodeFrame, type FrameType } from './frame.js';
import { type BtCommandMethods, createCommandMethods } from './module-commands.js';

/**
 * What the module client needs from a serial port. A `SerialPort` from `serialport` fits, and so
 * does any Duplex stream (tests use an in-memory pair). Only `write`, `on` and `removeListener` are
 * required; `drain` enables the far-end probe and `close` is called when the link is found dead.
 */
export interface BtPort {
  write(data: Buffer, callback?: (error?: Error | null) => void): unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  drain?(callback?: (error?: Error | null) => void): unknown;
  close?(callback?: (error?: Error | null) => void): unknown;
  readonly isOpen?: boolean;
}

/**
 * The module client's partial-frame timeout, ms. The longest frame (258 bytes) takes 22.4 ms at
 * 115 200 baud and 67 ms at 38 400, so 100 ms never cuts a real frame short at those rates; on a
 * slower link pass a larger `decoder.partialTimeoutMs`.
 */
const BT_MODULE_PARTIAL_TIMEOUT_MS = 100;

export interface BtModuleOptions {
  port: BtPort;
  /** Reply timeout per command, ms. Default 2000. */
  timeoutMs?: number;
  /** Frame type of host commands. Default 1 (`75 46`). */
  commandType?: FrameType;
  /** Frame type the module answers with. Default 2 (`75 45`). */
  replyType?: FrameType;
  /**
   * How often to check that the far end is still there, ms (default 1000, 0 turns it off). A pty
   * or USB serial link whose far end went away gives no event until the next write; the probe
   * calls `port.drain()` (tcdrain), which fails on a hung-up line without sending any byte.
   */
  probeIntervalMs?: number | undefined;
  /**
   * Options for the frame decoder (maxPayload, partialTimeoutMs; `now` defaults to the clock's).
   * `partialTimeoutMs` defaults to 100 ms here, so a reply that line noise hid behind a false start
   * is found within 100 ms instead of after up to 255 more bytes; pass `partialTimeoutMs: undefined`
   * to turn it off.
   */
  decoder?: FrameDecoderOptions;
  /** Time for the reply timeouts, the probe and the partial-frame timeout (default `systemClock`). */
  clock?: Clock;
}

/** A frame from the module, split into command id (first payload byte) and data. */
export interface BtMessage {
  readonly type: FrameType;
  /** First payload byte; undefined for an empty payload. */
  readonly cmdId: number | undefined;
  readonly data: Buffer;
  readonly frame: DecodedFrame;
}

export interface BtSendOptions {
  timeoutMs?: number;
}

export interface BtModuleCounters {
  sent: number;
  replies: number;
  events: number;
  timeouts: number;
}

export interface BtModuleEvents {
  /** A frame that answers no pending request and no subscriber (unsolicited). */
  event: [message: BtMessage];
  /** A frame the decoder dropped (bad checksum, impossible length, timeout). */
  fault: [fault: FrameFault];
  /** The link is gone (port closed, write failed, or the probe found the far end hung up). */
  close: [error: BtFrameError];
}

/**
 * The module client: a typed method for every command of the spec's table (`getVersion()`,
 * `setName(name)`, `configure(0x18, data)`, ...; see BtCommandMethods), and the raw `send` under them.
 */
export interface BtModule extends BtCommandMethods {
  /**
   * `bt_ctrl_cmd_send(cmd_id, data, 0x104, 0)`: sends one command frame and resolves with the
   * module's reply (the first reply frame carrying the same command id, oldest request first).
   * Data longer than BT_COMMAND_MAX_DATA (254) is refused with `BT_COMMAND_DATA_LENGTH`.
   */
  send(cmdId: number, data?: Uint8Array, options?: BtSendOptions): Promise<BtMessage>;
  /** Sends a command that has no reply; resolves once the port accepted the bytes. */
  post(cmdId: number, data?: Uint8Array): Promise<void>;
  /**
   * Receives every frame with this command id that answers no pending `send` (a multi-frame
   * transfer such as the phone book). Returns the function that unsubscribes.
   */
  subscribe(cmdId: number, handler: (message: BtMessage) => void): () => void;
  /** Calls `listener` on each `event`; returns the function that removes it. */
  on<E extends keyof BtModuleEvents>(event: E, listener: (...args: BtModuleEvents[E]) => void): () => void;
  /** Calls `listener` on the next `event` only; returns the function that removes it before then. */
  once<E extends keyof BtModuleEvents>(event: E, listener: (...args: BtModuleEvents[E]) => void): () => void;
  /** @deprecated Call the function `on()` returns; this method goes in 1.0. */
  off<E extends keyof BtModuleEvents>(event: E, listener: (...args: BtModuleEvents[E]) => void): this;
  /** Stops the probe, rejects pending requests, detaches from the port and closes it. */
  close(): Promise<void>;
  readonly closed: boolean;
  readonly counters: Readonly<BtModuleCounters>;
  /** The frame decoder (its counters: frames, checksum errors, resyncs, dropped bytes). */
  readonly decoder: Pick<FrameDecoder, 'counters' | 'state' | 'buffered'>;
}

interface Pending {
  resolve(message: BtMessage): void;
  reject(error: BtFrameError): void;
  timer: unknown;
}

function checkCommand(cmdId: number, data: Uint8Array): void {
  if (!Number.isInteger(cmdId) || cmdId < 0 || cmdId > 0xff) {
    throw new BtFrameError('BT_COMMAND_ID', `command id must be a byte (0..255), got ${cmdId}`);
  }
  if (!(data instanceof Uint8Array)) {
    throw new BtFrameError('BT_COMMAND_DATA_LENGTH', 'command data must be a Uint8Array');
  }
  if (data.length > BT_COMMAND_MAX_DATA) {
    throw new BtFrameError(
      'BT_COMMAND_DATA_LENGTH',
      `command 0x${cmdId.toString(16)} carries ${data.length} data bytes; one frame holds at most ${BT_COMMAND_MAX_DATA}`,
    );
  }
}

/**
 * Host-side client of the Bluetooth module over a serial port. Command frame payload layout (the
 * project's decision, see README): `[cmd_id, ...data]` in a type-1 frame; the module answers with
 * a type-2 frame whose payload starts with the same cmd_id; type-3 frames and replies nobody waits
 * for are unsolicited events.
 */
export function createBtModule(options: BtModuleOptions): BtModule {
  const { port } = options;
  const timeoutMs = options.timeoutMs ?? 2000;
  const commandType = options.commandType ?? 1;
  const replyType = options.replyType ?? 2;
  const probeIntervalMs = options.probeIntervalMs ?? 1000;
  const timers = options.clock ?? systemClock;
  const now = options.decoder?.now ?? timers.now;
  const decoder = createFrameDecoder({
    partialTimeoutMs: BT_MODULE_PARTIAL_TIMEOUT_MS,
    ...options.decoder,
    now,
  });
  const events = createEvents<BtModuleEvents>();
  const pending = new Map<number, Pending[]>();
  const subscribers = new Map<number, Set<(m: BtMessage) => void>>();
  const counters: BtModuleCounters = { sent: 0, replies: 0, events: 0, timeouts: 0 };
  let closed = false;
  let probeTimer: unknown;
  let probing = false;
  let decodeTimer: unknown;

  function deliver(frame: DecodedFrame): void {
    const cmdId = frame.payload.length > 0 ? frame.payload[0] : undefined;
    const message: BtMessage = { type: frame.type, cmdId, data: frame.payload.subarray(1), frame };
    if (cmdId !== undefined && frame.type === replyType) {
      const queue = pending.get(cmdId);
      const first = queue?.shift();
      if (first) {
        if (queue!.length === 0) pending.delete(cmdId);
        timers.clearTimeout(first.timer);
        counters.replies++;
        first.resolve(message);
        return;
      }
    }
    const subs = cmdId === undefined ? undefined : subscribers.get(cmdId);
    if (subs && subs.size > 0) {
      for (const s of [...subs]) s(message);
      return;
    }
    counters.events++;
    events.emit('event', message);
  }

  function handle(r: DecodeResult): void {
    for (const f of r.frames) deliver(f);
    for (const e of r.errors) events.emit('fault', e);
  }

  function armDecodeTimer(): void {
    if (decodeTimer !== undefined) timers.clearTimeout(decodeTimer);
    decodeTimer = undefined;
    const at = decoder.expiresAt;
    if (at === undefined || closed) return;
    decodeTimer = timers.setTimeout(
      () => {
        decodeTimer = undefined;
        handle(decoder.poll());
        armDecodeTimer();
      },
      Math.max(0, at - now()),
    );
  }

  const onData = (chunk: Buffer): void => {
    handle(decoder.push(chunk));
    armDecodeTimer();
  };
  let lastError: Error | undefined;
  const onError = (error: Error): void => {
    lastError = error;
  };
  const onClose = (error?: Error | null): void => {
    shutdown(
      new BtFrameError('BT_MODULE_CLOSED', 'the serial port closed; open it again and create a new client', {
        cause: error ?? lastError,
      }),
    );
  };
  port.on('data', onData);
  port.on('error', onError);
  port.on('close', onClose);

  function detach(): void {
    port.removeListener('data', onData);
    port.removeListener('error', onError);
    port.removeListener('close', onClose);
    if (probeTimer !== undefined) timers.clearTimeout(probeTimer);
    if (decodeTimer !== undefined) timers.clearTimeout(decodeTimer);
    probeTimer = undefined;
    decodeTimer = undefined;
  }

  function shutdown(error: BtFrameError): void {
    if (closed) return;
    closed = true;
    detach();
    for (const queue of pending.values()) {
      for (const p of queue) {
        timers.clearTimeout(p.timer);
        p.reject(error);
      }
    }
    pending.clear();
    events.emit('close', error);
  }

  function scheduleProbe(): void {
    if (probeIntervalMs <= 0 || typeof port.drain !== 'function' || closed) return;
    probeTimer = timers.setTimeout(probe, probeIntervalMs);
  }

  function probe(): void {
    probeTimer = undefined;
    if (closed) return;
    if (probing || port.isOpen === false) {
      scheduleProbe();
      return;
    }
    probing = true;
    port.drain!((error) => {
      probing = false;
      if (closed) return;
      if (error) {
        shutdown(
          new BtFrameError('BT_MODULE_CLOSED', 'the far end of the serial link hung up (drain failed)', {
            cause: error,
          }),
        );
        port.close?.(() => {});
        return;
      }
      scheduleProbe();
    });
  }
  scheduleProbe();

  function write(cmdId: number, data: Uint8Array): Promise<void> {
    const payload = Buffer.allocUnsafe(data.length + 1);
    payload[0] = cmdId;
    payload.set(data, 1);
    const bytes = encodeFrame({ type: commandType, payload });
    return new Promise((resolve, reject) => {
      const fail = (error: Error): void =>
        reject(
          new BtFrameError(
            'BT_MODULE_WRITE',
            `writing command 0x${cmdId.toString(16)} failed: ${error.message}`,
            {
              cause: error,
            },
          ),
        );
      try {
        port.write(bytes, (error) => (error ? fail(error) : resolve()));
        counters.sent++;
      } catch (error) {
        fail(error as Error);
      }
    });
  }

  const api: Omit<BtModule, keyof BtCommandMethods> = {
    send(cmdId, data = new Uint8Array(0), sendOptions = {}) {
      try {
        checkCommand(cmdId, data);
      } catch (error) {
        return Promise.reject(error);
      }
      if (closed) return Promise.reject(new BtFrameError('BT_MODULE_CLOSED', 'the module client is closed'));
      const wait = sendOptions.timeoutMs ?? timeoutMs;
      return new Promise<BtMessage>((resolve, reject) => {
        const entry: Pending = { resolve, reject, timer: undefined };
        entry.timer = timers.setTimeout(() => {
          const queue = pending.get(cmdId);
          const at = queue?.indexOf(entry) ?? -1;
          if (at >= 0) queue!.splice(at, 1);
          if (queue && queue.length === 0) pending.delete(cmdId);
          counters.timeouts++;
          reject(
            new BtFrameError(
              'BT_MODULE_TIMEOUT',
              `no reply to command 0x${cmdId.toString(16)} within ${wait} ms; is the module powered and the port right?`,
            ),
          );
        }, wait);
        const queue = pending.get(cmdId) ?? [];
        queue.push(entry);
        pending.set(cmdId, queue);
        write(cmdId, data).catch((error: BtFrameError) => {
          const q = pending.get(cmdId);
          const at = q?.indexOf(entry) ?? -1;
          if (at >= 0) q!.splice(at, 1);
          if (q && q.length === 0) pending.delete(cmdId);
          timers.clearTimeout(entry.timer);
          reject(error);
        });
      });
    },
    async post(cmdId, data = new Uint8Array(0)) {
      checkCommand(cmdId, data);
      if (closed) throw new BtFrameError('BT_MODULE_CLOSED', 'the module client is closed');
      await write(cmdId, data);
    },
    subscribe(cmdId, handler) {
      const set = subscribers.get(cmdId) ?? new Set();
      set.add(handler);
      subscribers.set(cmdId, set);
      return () => {
        set.delete(handler);
        if (set.size === 0 && subscribers.get(cmdId) === set) subscribers.delete(cmdId);
      };
    },
    on: (event, listener) => events.on(event, listener),
    once: (event, listener) => events.once(event, listener),
    off(event, listener) {
      events.off(event, listener);
      return module;
    },
    async close() {
      if (!closed) shutdown(new BtFrameError('BT_MODULE_CLOSED', 'the module client was closed'));
      if (port.close && port.isOpen !== false) {
        await new Promise<void>((resolve) => port.close!(() => resolve()));
      }
    },
    get closed() {
      return closed;
    },
    counters,
    decoder,
  };
  const module = api as BtModule;
  Object.assign(module, createCommandMethods(module));
  return module;
}
