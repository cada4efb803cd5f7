#!/usr/bin/env node
// The `waved` command: see `waved --help`. The Node version is checked before anything is loaded, so
// an old Node gets one line instead of a crash in a dependency.
if (Number(process.versions.node.split('.')[0]) < 22) {
  process.stderr.write(`waved needs Node.js 22 or newer; this is Node.js ${process.version}.\n`);
  process.exit(1);
}
const { runMain } = await import('../dist/cli.js');

runMain(process.argv.slice(2));
