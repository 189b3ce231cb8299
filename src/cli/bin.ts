#!/usr/bin/env node
// kbbench's bin: the real process handed to runCli (run-cli.ts), which does everything else. Bundled by
// scripts/bundle-cli.mjs into dist/cli/main.js (package.json's bin); dist/cli/bin.js is tsc's unbundled copy.
import './heap.js';
import { processHost } from './host.js';
import { runCli } from './run-cli.js';

await runCli(process.argv.slice(2), processHost());
