import type { AsrEngine, AsrEngineListener } from '../domain/device/asr/controller.js';
import { AUDIO_BYTES_PER_SECOND } from '../domain/device/constants.js';

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
  let running = false;
  return {
    async open(_info, config, l) {
      listener = l;
      language = config.language;
      fed = 0;
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
      const half = AUDIO_BYTES_PER_SECOND / 2;
      const before = Math.floor(fed / half);
      fed += pcm.length;
      // every half second of audio: an odd mark gives a partial line, an even one the final line
      for (let k = before + 1; k <= Math.floor(fed / half); k++) {
        const seq = Math.floor((k - 1) / 2);
        const text = phrases[seq % phrases.length] as string;
        const startMs = seq * 1000;
        if (k % 2 === 1) {
          const partial = text.split(' ').slice(0, 2).join(' ');
          listener.subtitle({ seq, text: partial, final: false, startMs, endMs: startMs + 500, language });
        } else {
          listener.subtitle({ seq, text, final: true, startMs, endMs: startMs + 1000, language });
        }
      }
    },
  };
}
