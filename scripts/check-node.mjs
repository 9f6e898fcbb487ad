// Refuses, in one line and before anything else runs, a Node.js varsetd does not run on: the
// first step of `npm test`, so that an unsupported Node.js stops at once instead of crashing test
// after test. Plain JavaScript with no dependency, so it runs on any Node.js, installed or not.
import { unsupportedNode } from '../src/node-support.js';

const refusal = unsupportedNode();
if (refusal) {
  console.error(`varsetd: ${refusal}`);
  process.exit(2);
}
