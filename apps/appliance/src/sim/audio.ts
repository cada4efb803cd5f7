import { AUDIO_FORMAT } from '../domain/device/constants.js';
import type { AudioCapture } from '../domain/device/recording/audio.js';

/** The tone the simulator records: sample `i` of a stream (a 440 Hz sine at about -12 dBFS). */
export function generatedSample(i: number): number {
  return Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / AUDIO_FORMAT.sampleRate)) | 0;
}

/**
 * The simulator adapter: real-time generated audio in `chunkMs` pieces. Each stream starts at
 * sample 0, so a file's content can be checked sample by sample.
 */
export function createGeneratedCapture(options: { chunkMs?: number } = {}): AudioCapture {
  const chunkMs = options.chunkMs ?? 100;
  const samplesPerChunk = Math.round((AUDIO_FORMAT.sampleRate * chunkMs) / 1000);
  return {
    async *capture(signal) {
      let index = 0;
      const started = Date.now();
      let produced = 0;
      while (!signal.aborted) {
        // pace against the wall clock so long runs do not drift
        const due = started + produced * chunkMs - Date.now();
        if (due > 0) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, due);
            signal.addEventListener(
              'abort',
              () => {
                clearTimeout(t);
                resolve();
              },
              { once: true },
            );
          });
          if (signal.aborted) return;
        }
        const chunk = Buffer.alloc(samplesPerChunk * 2);
        for (let s = 0; s < samplesPerChunk; s++) chunk.writeInt16LE(generatedSample(index++), s * 2);
        produced++;
        yield chunk;
      }
    },
  };
}
