import { AUDIO_BYTES_PER_SECOND } from '../constants.js';

/**
 * The audio capture port: a stream of raw PCM chunks in AUDIO_FORMAT (S16_LE, 16 kHz, mono) that
 * ends when `signal` aborts. The recorder asks for a new stream at each start/resume. On a device
 * it is `arecord` (adapters/system/audio.ts); in the simulator a generated tone (sim/audio.ts).
 */
export interface AudioCapture {
  capture(signal: AbortSignal): AsyncIterable<Uint8Array>;
}

export { AUDIO_BYTES_PER_SECOND };
