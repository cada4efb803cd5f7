import { defineConfig } from 'vitest/config';

// Lab tests run real peers or need root (they call needs() from @waved/test-lab): `npm run test:lab`,
// never cached. The rest are unit tests: `npm run test:unit`, cached by turbo. needs() refuses to
// run in the unit project, so a peer test cannot end up in the cache.
const lab = ['test/client-server.test.ts', 'test/**/*.lab.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', '@waved/test-lab/reporter'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: lab, provide: { testKind: 'unit' } },
      },
      { extends: true, test: { name: 'lab', include: lab, provide: { testKind: 'lab' } } },
    ],
  },
});
