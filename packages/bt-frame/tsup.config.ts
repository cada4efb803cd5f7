import { defineConfig } from 'tsup';

export default defineConfig({
  // The Node version guard is its own module, imported first by every entry and kept external, so it
  // runs before anything else of the package is evaluated (see src/node-guard.ts).
  entry: ['src/index.ts', 'src/node-guard.ts'],
  external: ['./node-guard.js'],
  format: ['esm'],
  // @waved/internal is bundled: its code into the .js, its types into the .d.ts
  noExternal: ['@waved/internal'],
  dts: { entry: 'src/index.ts', resolve: [/^@waved\/internal/] },
  clean: true,
  sourcemap: true,
  target: 'node22',
});
