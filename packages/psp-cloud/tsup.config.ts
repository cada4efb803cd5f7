import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/sqlite.ts', 'src/server.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node22',
});
