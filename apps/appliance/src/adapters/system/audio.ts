import { type ChildProcess, spawn as nodeSpawn } from 'node:child_process';
import { AUDIO_FORMAT } from '../../domain/device/constants.js';
import { DeviceError } from '../../domain/device/errors.js';
import type { AudioCapture } from '../../domain/device/recording/audio.js';

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
