#!/usr/bin/env node
// The `waved` command: see `waved --help`.
import { main } from '../dist/cli.js';

main(process.argv.slice(2)).then(
  () => process.exit(),
  (error) => {
    process.stderr.write(
      `waved: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
