import { execFileSync } from 'node:child_process';
import { type Gate, isCi, needs, SKIP_MARK } from '@waved/test-lab';
import { type Browser, chromium } from 'playwright-core';
import { describe, it } from 'vitest';

/**
 * Launches the machine's headless Chromium with no background traffic, for the browser tests;
 * `extraArgs` are added to its command line (`--lang=de`, ...).
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

/** Whether fontconfig has a font with Japanese and Chinese glyphs (Debian `fonts-droid-fallback`). */
function hasCjkFont(): boolean {
  try {
    return execFileSync('fc-list', [':lang=ja'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

/**
 * What the browser tests in several languages need: Chromium and a CJK font (without one, Chinese
 * and Japanese text is drawn as empty boxes and the screenshots show nothing readable).
 */
export function browserLanguagesLab(): Gate {
  const chromiumGate = needs({ peers: ['chromium', 'fc-list'] });
  if (!chromiumGate.ok || hasCjkFont()) return chromiumGate;
  const reason = 'needs a CJK font (apt-get install fonts-droid-fallback)';
  return {
    ok: false,
    reason,
    describe(name, fn) {
      if (isCi())
        describe(name, () => {
          it('has its real peers', () => {
            throw new Error(`${name}: ${reason} (CI=true: a missing peer is a failure; .ci/run installs it)`);
          });
        });
      else describe.skip(`${name} ${SKIP_MARK} ${reason}]`, fn);
    },
  };
}

/**
 * The command line of a Chromium whose user speaks `lang`, as a phone set to that language is:
 * its interface language (`--lang`) and the `Accept-Language` it sends (`--accept-lang`, most
 * specific first). Headless Chromium takes `Accept-Language` from `--accept-lang` only; with
 * `--lang` alone it still sends `en-US,en;q=0.9`.
 */
export function languageArgs(lang: string, region: string): string[] {
  return [`--lang=${lang}`, `--accept-lang=${lang}-${region},${lang},en-US,en`];
}
