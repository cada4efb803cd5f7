import fs from 'node:fs/promises';
import { type Clock, systemClock, writeFileAtomic } from '@waved/internal';
import { BT_COMMANDS } from './commands.js';
import { BtFrameError } from './errors.js';
import type { BtMessage, BtModule } from './module.js';
import {
  type Contact,
  PHONEBOOK_MAX_FILE_BYTES,
  PHONEBOOK_PATH,
  parsePhoneBook,
  serializePhoneBook,
} from './phone-book.js';
import { parseVCards, VCARD_MAX_BYTES } from './vcard.js';

export interface DownloadPhoneBookOptions {
  /** Where the phone book file is written (mode 0600, atomically). Default `/tmp/PHONE_BOOK.bin`. */
  path?: string;
  /** Longest silence between two chunks of the transfer, ms. Default 5000. */
  idleTimeoutMs?: number;
  /** Timeout for the module to accept the request, ms. Default 2000. */
  requestTimeoutMs?: number;
  /** Time for the timeouts (default `systemClock`). */
  clock?: Clock;
}

/**
 * Downloads the connected phone's contacts over PBAP through the module (`bt_get_phone_book`,
 * 0x11), writes them to the phone book file and returns them. Transfer (the project's decision,
 * see README): the module answers the command with `[0x11, status]` (0 = started), then sends the
 * vCard text in reply frames `[0x11, ...chunk]`, and ends with an empty `[0x11]` frame.
 */
export async function downloadPhoneBook(
  module: BtModule,
  options: DownloadPhoneBookOptions = {},
): Promise<Contact[]> {
  const file = options.path ?? PHONEBOOK_PATH;
  const idleMs = options.idleTimeoutMs ?? 5000;
  const timers = options.clock ?? systemClock;
  const cmd = BT_COMMANDS.getPhoneBook;
  const chunks: Buffer[] = [];
  let size = 0;
  let timer: unknown;
  let settle: { resolve: () => void; reject: (e: BtFrameError) => void } | undefined;
  let outcome: BtFrameError | 'done' | undefined;
  const finish = (result: BtFrameError | 'done'): void => {
    if (outcome !== undefined) return;
    outcome = result;
    timers.clearTimeout(timer);
    if (settle) {
      if (result === 'done') settle.resolve();
      else settle.reject(result);
    }
  };
  const arm = (): void => {
    timers.clearTimeout(timer);
    timer = timers.setTimeout(
      () =>
        finish(
          new BtFrameError(
            'BT_PHONEBOOK_DOWNLOAD',
            `phone book transfer stalled for ${idleMs} ms after ${size} bytes`,
          ),
        ),
      idleMs,
    );
  };
  const onChunk = (m: BtMessage): void => {
    if (m.data.length === 0) {
      finish('done');
      return;
    }
    size += m.data.length;
    if (size > VCARD_MAX_BYTES) {
      finish(new BtFrameError('BT_PHONEBOOK_LIMIT', `phone book transfer above ${VCARD_MAX_BYTES} bytes`));
      return;
    }
    chunks.push(Buffer.from(m.data));
    arm();
  };
  const onClose = (error: BtFrameError): void => {
    finish(
      new BtFrameError('BT_PHONEBOOK_DOWNLOAD', 'the module link closed during the transfer', {
        cause: error,
      }),
    );
  };
  const unsubscribe = module.subscribe(cmd, onChunk);
  const offClose = module.on('close', onClose);
  try {
    const ack = await module.send(cmd, new Uint8Array(0), { timeoutMs: options.requestTimeoutMs ?? 2000 });
    const status = ack.data[0];
    if (status !== 0) {
      throw new BtFrameError(
        'BT_PHONEBOOK_DOWNLOAD',
        `the module refused the phone book download (status ${status ?? 'missing'}); is a phone connected with PBAP allowed?`,
      );
    }
    if (outcome === undefined) arm();
    await new Promise<void>((resolve, reject) => {
      if (outcome === 'done') resolve();
      else if (outcome) reject(outcome);
      else settle = { resolve, reject };
    });
  } finally {
    timers.clearTimeout(timer);
    unsubscribe();
    offClose();
  }
  const contacts = parseVCards(Buffer.concat(chunks));
  await writePhoneBookFile(contacts, file);
  return contacts;
}

/** Serializes `contacts` and writes them atomically (temp + fsync + rename + dir fsync), mode 0600. */
export async function writePhoneBookFile(
  contacts: readonly Contact[],
  path: string = PHONEBOOK_PATH,
): Promise<void> {
  const data = serializePhoneBook(contacts);
  try {
    await writeFileAtomic(path, data, { mode: 0o600 });
  } catch (error) {
    throw new BtFrameError(
      'BT_PHONEBOOK_IO',
      `cannot write the phone book to ${path}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/** Reads and parses a phone book file; a file above 16 MiB is refused before it is read. */
export async function readPhoneBookFile(path: string = PHONEBOOK_PATH): Promise<Contact[]> {
  let data: Buffer;
  try {
    const handle = await fs.open(path, 'r');
    try {
      const { size } = await handle.stat();
      if (size > PHONEBOOK_MAX_FILE_BYTES) {
        throw new BtFrameError(
          'BT_PHONEBOOK_LIMIT',
          `${path} is ${size} bytes (max ${PHONEBOOK_MAX_FILE_BYTES})`,
        );
      }
      data = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof BtFrameError) throw error;
    throw new BtFrameError(
      'BT_PHONEBOOK_IO',
      `cannot read the phone book ${path}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return parsePhoneBook(data);
}
