import { type ChildProcess, spawn as nodeSpawn } from 'node:child_process';
import { AUDIO_BYTES_PER_SECOND, AUDIO_FORMAT } from '../constants.js';
import { DeviceError } from '../errors.js';

/**
 * The audio capture port: a stream of raw PCM chunks in AUDIO_FORMAT (S16_LE, 16 kHz, mono) that
 * ends when `signal` aborts. The recorder asks for a new stream at each start/resume.
 */
export interface AudioCapture {
  capture(signal: AbortSignal): AsyncIterable<Uint8Array>;
}

export type SpawnLike = (file: string, args: readonly string[]) => ChildProcess;

/** `arecord -t raw -f S16_LE -r 16000 -c 1 [-D device]` on the device (ALSA). */
export function arecordArgs(device?: string): string[] {
  return [
    '-q',
    '-t',
    'raw',
    '-f',
    'S16_LE',
    '-r',
    String(AUDIO_FORMAT.sampleRate),
    '-c',
    String(AUDIO_FORMAT.channels),
    ...(device ? ['-D', device] : []),
  ];
}

/**
 * The device adapter: runs `arecord` and reads its stdout. Stopping sends SIGTERM (arecord exits
 * at once); an arecord that exits by itself with an error fails the stream with `DEVICE_AUDIO`.
 */
export function createArecordCapture(
  options: { device?: string; command?: string; spawn?: SpawnLike } = {},
): AudioCapture {
  const spawn: SpawnLike =
    options.spawn ?? ((file, args) => nodeSpawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  return {
    async *capture(signal) {
      const child = spawn(options.command ?? 'arecord', arecordArgs(options.device));
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-500);
      });
      const exited = new Promise<number | null>((resolve) => {
        child.once('close', (code) => resolve(code));
        child.once('error', (error) => {
          stderr += String(error.message);
          resolve(-1);
        });
      });
      const stop = () => child.kill('SIGTERM');
      signal.addEventListener('abort', stop, { once: true });
      try {
        if (!child.stdout) throw new DeviceError('DEVICE_AUDIO', 'arecord has no stdout');
        for await (const chunk of child.stdout) {
          yield chunk as Buffer;
          if (signal.aborted) break;
        }
        const code = await exited;
        if (!signal.aborted && code !== 0) {
          throw new DeviceError(
            'DEVICE_AUDIO',
            `arecord exited with ${code}: ${stderr.trim() || 'no message'}`,
          );
        }
      } finally {
        signal.removeEventListener('abort', stop);
        if (child.exitCode === null) child.kill('SIGTERM');
      }
    },
  };
}

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

export { AUDIO_BYTES_PER_SECOND };
