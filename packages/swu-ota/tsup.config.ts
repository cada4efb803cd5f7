import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // @waved/internal is bundled: its code into the .js, its types into the .d.ts
  noExternal: ['@waved/internal'],
  dts: { resolve: [/^@waved\/internal/] },
  clean: true,
  sourcemap: true,
  target: 'node22',
});
