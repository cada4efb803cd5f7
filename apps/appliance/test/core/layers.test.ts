import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@waved/test-lab';
import { afterAll, describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const biome = path.join(repo, 'node_modules/.bin/biome');

/** The layer rule of biome.json, run on files placed where the rule applies. */
describe('layers: core and domain stay free of OS modules, adapters and the composition root', () => {
  const dir = tempDir('waved-layers-');
  afterAll(() => dir.remove());
  fs.copyFileSync(path.join(repo, 'biome.json'), dir.join('biome.json'));
  const offending = [
    "import fs from 'node:fs';",
    "import { spawn } from 'child_process';",
    "import { createFileStore } from '../../adapters/system/files.js';",
    "import { createSimRadio } from '../../sim/radio.js';",
    "import { createRuntime } from '../../runtime.js';",
    "import crypto from 'node:crypto';",
    "import path from 'node:path';",
    '',
    'export const all = [fs, spawn, createFileStore, createSimRadio, createRuntime, crypto, path];',
    '',
  ].join('\n');
  const place = (rel: string) => {
    fs.mkdirSync(path.dirname(dir.join(rel)), { recursive: true });
    fs.writeFileSync(dir.join(rel), offending);
  };
  place('apps/appliance/src/domain/wifi/probe.ts');
  place('apps/appliance/src/core/ports/probe.ts');
  place('apps/appliance/src/adapters/system/probe.ts');
  const r = spawnSync(biome, ['lint', '--max-diagnostics=100', '.'], { cwd: dir.path, encoding: 'utf8' });
  const flagged = (file: string) =>
    [
      ...`${r.stdout}${r.stderr}`.matchAll(
        new RegExp(`${file}:(\\d+):\\d+ lint/style/noRestrictedImports`, 'g'),
      ),
    ]
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);

  it('refuses OS modules, adapters, the simulator and the root in domain (crypto and path are fine)', () => {
    expect(flagged('apps/appliance/src/domain/wifi/probe.ts')).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses the same in core', () => {
    expect(flagged('apps/appliance/src/core/ports/probe.ts')).toEqual([1, 2, 3, 4, 5]);
  });

  it('lets adapters use the OS', () => {
    expect(flagged('apps/appliance/src/adapters/system/probe.ts')).toEqual([]);
  });

  it('holds for the tree as it is', () => {
    const out = execFileSync(biome, ['lint', 'apps/appliance/src'], { cwd: repo, encoding: 'utf8' });
    expect(out).not.toContain('noRestrictedImports');
  });
});
