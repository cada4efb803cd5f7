import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 600_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    reporters: ['default', '@waved/test-lab/reporter'],
  },
});
