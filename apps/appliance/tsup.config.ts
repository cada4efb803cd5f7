import { defineConfig } from 'tsup';

// Tests rebuild the JavaScript before they run the CLI: WAVED_FAST_BUILD=1 leaves the type
// declarations (the slow part) as the last full build made them.
const fast = process.env.WAVED_FAST_BUILD === '1';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  dts: fast ? false : { entry: ['src/index.ts', 'src/cli.ts'] },
  clean: !fast,
  sourcemap: true,
  target: 'node22',
  // keep `node:sqlite` (and every other builtin) as written: `sqlite` without the prefix is not Node's
  removeNodeProtocol: false,
});
