import { defineConfig } from 'tsup';

// Tests rebuild the JavaScript before they run the CLI: WAVED_FAST_BUILD=1 leaves the type
// declarations (the slow part) as the last full build made them.
const fast = process.env.WAVED_FAST_BUILD === '1';

export default defineConfig({
  // dns-thread: the captive DNS thread's entry, loaded by path (adapters/system/dns-thread.ts)
  entry: ['src/index.ts', 'src/cli.ts', 'src/dns-thread.ts'],
  format: ['esm'],
  dts: fast ? false : { entry: ['src/index.ts', 'src/cli.ts'] },
  clean: !fast,
  sourcemap: true,
  target: 'node22',
  // keep `node:sqlite` (and every other builtin) as written: `sqlite` without the prefix is not Node's
  removeNodeProtocol: false,
  // The ESM dependencies on the start path are bundled (fewer modules for the loader to find and
  // evaluate). Packages that load a native addon relative to their own files (captive-dns,
  // dhcp-server) and the CommonJS ones (qrcode) stay external, as do the lazily loaded h3 and
  // the addons themselves.
  noExternal: [
    'consola',
    'smol-toml',
    '@waved/internal',
    '@waved/psk',
    '@waved/wpa-cli',
    '@waved/bt-frame',
    '@waved/swu-ota',
    '@waved/psp-cloud',
  ],
  // @waved/psp-cloud/sqlite's drizzle credential store and its default better-sqlite3 driver are
  // never used here (the telemetry store runs on node:sqlite): their lazy imports stay as they are
  // written, so neither package is copied into dist/ or the device bundle.
  external: ['drizzle-orm', 'better-sqlite3'],
});
