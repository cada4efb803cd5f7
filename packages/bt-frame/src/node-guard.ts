// Fails fast, in one line, on a Node.js older than the package supports. Imported first by the
// entry point and kept as its own module (listed in package.json `sideEffects`), so it runs before
// any other module of the package is evaluated, and bundlers still tree-shake everything else.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(`@waved/bt-frame needs Node.js 22 or newer; this is Node.js ${process.version}.\n`);
  process.exit(1);
}
