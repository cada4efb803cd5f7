import { defineConfig } from 'tsup';

export default defineConfig({
  // The Node version guard is its own module, imported first by every entry and kept external, so it
  // runs before anything else of the package is evaluated (see src/node-guard.ts).
  entry: ['src/index.ts', 'src/sqlite.ts', 'src/server.ts', 'src/node-guard.ts'],
  external: ['./node-guard.js'],
  // The entries share chunks, and esbuild hoists a chunk import above the entry's own imports: the
  // banner puts the guard first in every output file, chunks included, so it still runs first.
  banner: { js: "import './node-guard.js';" },
  format: ['esm'],
  // @waved/internal is bundled: its code into the .js, its types into the .d.ts. So is the update
  // descriptor parser of @waved/swu-ota (tree-shaken to a few kB, no Node.js module): resolving a
  // second package at import would cost more CPU than the main entry's budget allows.
  noExternal: ['@waved/internal', '@waved/swu-ota'],
  dts: {
    entry: ['src/index.ts', 'src/sqlite.ts', 'src/server.ts'],
    resolve: [/^@waved\/internal/, /^@waved\/swu-ota/],
  },
  clean: true,
  sourcemap: true,
  target: 'node22',
});
