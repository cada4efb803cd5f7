import { DeviceError } from '../errors.js';

/** RIFF/WAVE with a canonical 44-byte PCM header. */
export const WAV_HEADER_BYTES = 44;

export interface WavFormat {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
}

/** The 44-byte header for `dataBytes` of PCM. */
export function encodeWavHeader(format: WavFormat, dataBytes: number): Buffer {
  const blockAlign = format.channels * (format.bitsPerSample / 8);
  const h = Buffer.alloc(WAV_HEADER_BYTES);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(format.channels, 22);
  h.writeUInt32LE(format.sampleRate, 24);
  h.writeUInt32LE(format.sampleRate * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(format.bitsPerSample, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** Reads a canonical header back (bounds-checked); throws `DEVICE_WAV` on anything else. */
export function decodeWavHeader(bytes: Uint8Array): {
  format: WavFormat;
  dataBytes: number;
  riffBytes: number;
} {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < WAV_HEADER_BYTES)
    throw new DeviceError('DEVICE_WAV', `WAV header needs 44 bytes, got ${b.length}`);
  if (b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WAVE') {
    throw new DeviceError('DEVICE_WAV', 'not a RIFF/WAVE file');
  }
  if (b.toString('ascii', 12, 16) !== 'fmt ' || b.readUInt32LE(16) !== 16 || b.readUInt16LE(20) !== 1) {
    throw new DeviceError('DEVICE_WAV', 'not a canonical PCM WAV header');
  }
  if (b.toString('ascii', 36, 40) !== 'data')
    throw new DeviceError('DEVICE_WAV', 'data chunk not at offset 36');
  const channels = b.readUInt16LE(22);
  const bitsPerSample = b.readUInt16LE(34);
  if (
    channels < 1 ||
    channels > 8 ||
    (bitsPerSample !== 8 && bitsPerSample !== 16 && bitsPerSample !== 24 && bitsPerSample !== 32)
  ) {
    throw new DeviceError(
      'DEVICE_WAV',
      `unsupported WAV format (${channels} channels, ${bitsPerSample} bits)`,
    );
  }
  return {
    format: { sampleRate: b.readUInt32LE(24), channels, bitsPerSample },
    dataBytes: b.readUInt32LE(40),
    riffBytes: b.readUInt32LE(4),
  };
}

/** Milliseconds of audio in `dataBytes` of PCM. */
export function wavDurationMs(format: WavFormat, dataBytes: number): number {
  const perSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
  return Math.floor((dataBytes * 1000) / perSecond);
}
