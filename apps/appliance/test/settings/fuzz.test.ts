import fs from 'node:fs';
import { tempDir } from '@waved/test-lab';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileStore } from '../../src/adapters/system/files.js';
import {
  createSettingsStore,
  defaultSettings,
  FIELDS,
  type Logger,
  validateSettings,
} from '../../src/domain/settings/index.js';

const keys = FIELDS.map((f) => `${f.group}.${f.field}`);
const dir = tempDir('waved-settings-fuzz-');
afterAll(() => dir.remove());

describe('settings on hostile input', () => {
  it('validate never throws, and a rejected secret is never quoted', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), fc.string({ maxLength: 80 })), (input) => {
        const r = validateSettings(defaultSettings(), input);
        if (!r.ok) {
          for (const secret of ['webhook.secret', 'security.device_password']) {
            const v = input[secret];
            if (v && v.trim().length > 2 && r.errors[secret])
              expect(r.errors[secret]).not.toContain(v.trim());
          }
        } else {
          expect(r.settings.audio.volume).toBeGreaterThanOrEqual(0);
          expect(r.settings.audio.volume).toBeLessThanOrEqual(100);
          // A PIN is never hashed (nor stored as digits) by validation: it comes back apart.
          expect(r.settings.security.device_password).toBe('');
          if (r.pin !== undefined) expect(r.pin).toMatch(/^\d{4,6}$/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('load never throws on any file, keeps unreadable files, and always gives a complete Settings', async () => {
    let n = 0;
    const lines: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: () => {},
      warn: (m) => lines.push(m),
      error: (m) => lines.push(m),
    };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc
            .tuple(
              fc.constantFrom(...keys),
              fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(fc.string())),
            )
            .map(([k, v]) => {
              const [g, f] = k.split('.');
              return `[${g}]\n${f} = ${JSON.stringify(v)}\n`;
            }),
        ),
        async (text) => {
          const file = dir.join(`c${n++}.toml`);
          fs.writeFileSync(file, text);
          const s = await createSettingsStore({
            path: file,
            files: createFileStore(),
            logger,
            pinIterations: 1000,
          }).load();
          expect(Object.keys(s).sort()).toEqual(Object.keys(defaultSettings()).sort());
          expect(typeof s.audio.volume).toBe('number');
          expect(Array.isArray(s.ntp.servers)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });
});
