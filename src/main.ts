#!/usr/bin/env node
// The package's bin (dist/main.js): the command line lives in src/cli. The Node.js version is
// checked before anything else loads, so that an older Node.js is refused with exit code 2 (a
// configuration error, which service managers are told not to retry) whatever it fails to load.
import { unsupportedNode } from './version.js';

const refusal = unsupportedNode();
if (refusal) {
  console.error(`varsetd: ${refusal}`);
  process.exitCode = 2;
} else {
  await import('./cli/main.js');
}
