import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 1_800_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    reporters: ['default', '@waved/test-lab/reporter'],
  },
});
