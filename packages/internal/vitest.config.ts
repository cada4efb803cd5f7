import { defineConfig } from 'vitest/config';

// Unit tests only (`npm run test:unit`, cached by turbo): a test that needs a real peer or root
// belongs in a `lab` project (see packages/test-lab/vitest.config.ts); needs() refuses to run here.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', '@waved/test-lab/reporter'],
    provide: { testKind: 'unit' },
  },
});
