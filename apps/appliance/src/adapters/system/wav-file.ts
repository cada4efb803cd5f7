import fs from 'node:fs/promises';
import path from 'node:path';
import { syncDir } from '@waved/internal';
import { DeviceError } from '../../domain/device/errors.js';
import type { WavFileWriter } from '../../domain/device/recording/store.js';
import {
  encodeWavHeader,
  WAV_HEADER_BYTES,
  type WavFormat,
  wavDurationMs,
} from '../../domain/device/recording/wav.js';

/**
 * Appends PCM to a WAV file so that a killed process or a power cut loses little: every write goes
 * straight to the file, and `sync()` (called at least once a second by the recorder) makes the audio
 * durable, then the header that counts it, so the header never claims audio that is not on disk.
 * After a power cut the file may still come back longer than what was synced (ext4 can commit the
 * new size before the data, leaving zeros): `recoverWav` handles that.
 */
export class WavWriter implements WavFileWriter {
  #bytes = 0;
  #synced = 0;
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  readonly file: string;
  readonly format: WavFormat;
  readonly #handle: fs.FileHandle;

  private constructor(file: string, format: WavFormat, handle: fs.FileHandle) {
    this.file = file;
    this.format = format;
    this.#handle = handle;
  }

  /** Creates the file (mode 0600) with a header for zero bytes and makes its directory entry durable. */
  static async create(file: string, format: WavFormat): Promise<WavWriter> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'wx', 0o600);
    } catch (error) {
      throw new DeviceError('DEVICE_RECORDING_IO', `cannot create ${file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      await handle.write(encodeWavHeader(format, 0), 0, WAV_HEADER_BYTES, 0);
      await handle.sync();
      await syncDir(path.dirname(file));
    } catch (error) {
      await handle.close();
      throw new DeviceError('DEVICE_RECORDING_IO', `cannot create ${file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return new WavWriter(file, format, handle);
  }

  get bytes(): number {
    return this.#bytes;
  }
  get durationMs(): number {
    return wavDurationMs(this.format, this.#bytes);
  }
  /** Bytes of PCM known to be on stable storage. */
  get syncedBytes(): number {
    return this.#synced;
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(task);
    this.#chain = next.catch(() => {});
    return next;
  }

  write(chunk: Uint8Array): Promise<void> {
    if (this.#closed) return Promise.reject(new DeviceError('DEVICE_RECORDING_IO', 'write after close'));
    return this.#enqueue(async () => {
      let off = 0;
      while (off < chunk.length) {
        const { bytesWritten } = await this.#handle.write(
          chunk,
          off,
          chunk.length - off,
          WAV_HEADER_BYTES + this.#bytes,
        );
        off += bytesWritten;
        this.#bytes += bytesWritten;
      }
    });
  }

  /**
   * Makes the audio written so far durable, then the header that counts it: fdatasync, header,
   * fdatasync. When it resolves, `syncedBytes` of audio survive a power cut.
   */
  sync(): Promise<void> {
    return this.#enqueue(async () => {
      if (this.#closed || this.#synced === this.#bytes) return;
      const bytes = this.#bytes;
      await this.#handle.datasync();
      await this.#handle.write(encodeWavHeader(this.format, bytes), 0, WAV_HEADER_BYTES, 0);
      await this.#handle.datasync();
      this.#synced = bytes;
    });
  }

  async close(): Promise<{ bytes: number; durationMs: number }> {
    if (!this.#closed) {
      await this.sync();
      this.#closed = true;
      // a sync queued by a timer after this point finds the writer closed and does nothing
      await this.#chain;
      await this.#handle.sync();
      await this.#handle.close();
    }
    return { bytes: this.#bytes, durationMs: this.durationMs };
  }
}

/**
 * Fixes a WAV file whose writer died, and returns the audio it keeps.
 *
 * `syncedBytes` is what the writer reported durable (`syncedBytes` after a `sync()`, the bytes the
 * database holds for the file): those bytes are always kept. The file size alone proves nothing
 * after a power cut: ext4 can bring a file back longer than what was synced, its tail zeros, and
 * a file written before `sync()` ordered its fsyncs could have its header on disk before the data it
 * counts. So the bytes past `syncedBytes` are kept
 * (a killed process leaves real audio there) up to the last sample frame that is not all zeros: a
 * tail of zeros is what a cut leaves, and cutting it loses at most silence. The header is rewritten
 * for what is kept, the file truncated to it and fsynced. A file shorter than a header gets a fresh
 * header with no audio.
 */
export async function recoverWav(
  file: string,
  format: WavFormat,
  syncedBytes = 0,
): Promise<{ bytes: number; durationMs: number }> {
  const handle = await fs.open(file, 'r+');
  try {
    const { size } = await handle.stat();
    const blockAlign = format.channels * (format.bitsPerSample / 8);
    const whole = (n: number) => Math.floor(n / blockAlign) * blockAlign;
    const present = Math.max(0, whole(size - WAV_HEADER_BYTES));
    const floor = Math.min(present, whole(Math.max(0, syncedBytes)));
    const data = await lastNonZeroFrameEnd(handle, floor, present, blockAlign);
    await handle.truncate(WAV_HEADER_BYTES + data);
    await handle.write(encodeWavHeader(format, data), 0, WAV_HEADER_BYTES, 0);
    await handle.sync();
    return { bytes: data, durationMs: wavDurationMs(format, data) };
  } finally {
    await handle.close();
  }
}

/**
 * The end (in data bytes) of the last sample frame in [from, to) that holds a non-zero byte, or
 * `from` when every frame there is zero. Reads backwards in 64 KiB steps and stops at the first
 * non-zero byte.
 */
async function lastNonZeroFrameEnd(
  handle: fs.FileHandle,
  from: number,
  to: number,
  blockAlign: number,
): Promise<number> {
  const step = 64 * 1024;
  const buf = Buffer.alloc(step);
  let end = to;
  while (end > from) {
    const start = Math.max(from, end - step);
    const { bytesRead } = await handle.read(buf, 0, end - start, WAV_HEADER_BYTES + start);
    for (let i = bytesRead - 1; i >= 0; i--) {
      if (buf[i] !== 0) {
        const at = start + i;
        return at - (at % blockAlign) + blockAlign;
      }
    }
    end = start;
  }
  return from;
}
