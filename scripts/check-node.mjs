#!/usr/bin/env node
// Every npm script must run on the Node 24 that the root devDependency `node` installs.
// npm puts node_modules/.bin first on PATH, so `node` there is Node 24; this guard makes a
// wrong PATH fail loudly instead of testing the machine's own (older) Node by accident.
const major = Number(process.versions.node.split('.')[0]);
const duringInstall = process.argv.includes('--install');
if (major < 24) {
  const msg = `waved: this script runs on Node ${process.version}; the project needs Node 24 (root devDependency "node").`;
  if (duringInstall) {
    console.warn(`${msg} It is installed now; npm scripts will use it.`);
  } else {
    console.error(
      `${msg} Run it through npm (npm test, npm start), which puts node_modules/.bin first on PATH.`,
    );
    process.exit(1);
  }
}
