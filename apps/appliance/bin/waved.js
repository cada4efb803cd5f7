#!/usr/bin/env node
// The `waved` command: see `waved --help`.
import { runMain } from '../dist/cli.js';

runMain(process.argv.slice(2));
