import { AUDIO_BYTES_PER_SECOND } from '../constants.js';
import type { AsrEngine, AsrEngineListener } from './controller.js';

const PHRASES = [
  'good morning everyone',
  'let us start with the agenda',
  'the release is planned for next week',
  'any questions so far',
  'thanks, see you tomorrow',
];

/**
 * The simulator's ASR engine: for every second of audio fed while running it emits a partial
 * subtitle half way and a final line at the end, cycling through a few phrases.
 */
export function createSimAsrEngine(options: { phrases?: readonly string[] } = {}): AsrEngine {
  const phrases = options.phrases ?? PHRASES;
  let listener: AsrEngineListener | null = null;
  let language = 'en';
  let fed = 0;
  let seq = 0;
  let running = false;
  return {
    async open(_info, config, l) {
      listener = l;
      language = config.language;
      fed = 0;
      seq = 0;
      running = true;
    },
    async close() {
      running = false;
      listener = null;
    },
    async pause() {
      running = false;
    },
    async restart() {
      running = true;
    },
    async switchType(_type, lang) {
      language = lang;
    },
    async setOnlyTrans() {},
    feed(pcm) {
      if (!running || !listener) return;
      const before = fed;
      fed += pcm.length;
      const half = AUDIO_BYTES_PER_SECOND / 2;
      const text = phrases[seq % phrases.length] as string;
      const startMs = seq * 1000;
      if (Math.floor(before / half) !== Math.floor(fed / half) && Math.floor(fed / half) % 2 === 1) {
        listener.subtitle({
          seq,
          text: text.split(' ').slice(0, 2).join(' '),
          final: false,
          startMs,
          endMs: startMs + 500,
          language,
        });
      }
      if (Math.floor(before / AUDIO_BYTES_PER_SECOND) !== Math.floor(fed / AUDIO_BYTES_PER_SECOND)) {
        listener.subtitle({ seq, text, final: true, startMs, endMs: startMs + 1000, language });
        seq++;
      }
    },
  };
}
