import fs from 'node:fs/promises';
import path from 'node:path';
import { syncDir } from '@waved/internal';
import { DeviceError } from '../../domain/device/errors.js';
import type { WavFileWriter } from '../../domain/device/recording/store.js';
import {
  decodeWavHeader,
  encodeWavHeader,
  WAV_HEADER_BYTES,
  type WavFormat,
  wavDurationMs,
} from '../../domain/device/recording/wav.js';

/**
 * Appends PCM to a WAV file so that a killed process or a power cut loses little: every write goes
 * straight to the file, and `sync()` (called at least once a second by the recorder) makes the audio
 * durable, then the header that counts it. The header never claims audio that is not on disk: after a
 * power cut the file may be longer than what was synced (ext4 can commit the new size before the
 * data, leaving zeros), and `recoverWav` keeps only what the header counts.
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
 * Fixes a WAV file whose writer died (a killed process or a power cut). The audio kept is what the
 * header counts, which `WavWriter.sync` wrote only once that audio was durable; bytes past it were
 * never synced, and after a power cut they may be zeros. A header that is not a WAV header of this
 * format (never written by `WavWriter`) falls back to the file size. The result is cut to whole
 * sample frames, the header rewritten and the file synced; a file shorter than a header gets a fresh
 * header with no audio.
 */
export async function recoverWav(
  file: string,
  format: WavFormat,
): Promise<{ bytes: number; durationMs: number }> {
  const handle = await fs.open(file, 'r+');
  try {
    const { size } = await handle.stat();
    const blockAlign = format.channels * (format.bitsPerSample / 8);
    let available = Math.max(0, size - WAV_HEADER_BYTES);
    if (size >= WAV_HEADER_BYTES) {
      const head = Buffer.alloc(WAV_HEADER_BYTES);
      await handle.read(head, 0, WAV_HEADER_BYTES, 0);
      const counted = headerDataBytes(head, format);
      if (counted !== null) available = Math.min(available, counted);
    }
    const data = Math.floor(available / blockAlign) * blockAlign;
    await handle.truncate(WAV_HEADER_BYTES + data);
    await handle.write(encodeWavHeader(format, data), 0, WAV_HEADER_BYTES, 0);
    await handle.sync();
    return { bytes: data, durationMs: wavDurationMs(format, data) };
  } finally {
    await handle.close();
  }
}

/** The data size a header of `format` counts, or null when it is not one. */
function headerDataBytes(head: Buffer, format: WavFormat): number | null {
  try {
    const h = decodeWavHeader(head);
    const f = h.format;
    if (
      f.sampleRate !== format.sampleRate ||
      f.channels !== format.channels ||
      f.bitsPerSample !== format.bitsPerSample
    )
      return null;
    return h.dataBytes;
  } catch {
    return null;
  }
}
