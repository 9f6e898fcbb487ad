#!/usr/bin/env node
// The package's bin (dist/main.js): the command line lives in src/cli.
import './cli/main.js';
