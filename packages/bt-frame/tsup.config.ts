import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // @waved/internal is private: its code and types are bundled in, so the package gains no dependency.
  noExternal: ['@waved/internal'],
  dts: { resolve: [/^@waved\/internal/] },
  clean: true,
  sourcemap: true,
  target: 'node22',
});
