import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/sqlite.ts', 'src/server.ts'],
  format: ['esm'],
  // @waved/internal is bundled: its code into the .js, its types into the .d.ts. So is the update
  // descriptor parser of @waved/swu-ota (tree-shaken to a few kB, no Node.js module): resolving a
  // second package at import would cost more CPU than the main entry's budget allows.
  noExternal: ['@waved/internal', '@waved/swu-ota'],
  dts: { resolve: [/^@waved\/internal/, /^@waved\/swu-ota/] },
  clean: true,
  sourcemap: true,
  target: 'node22',
});
