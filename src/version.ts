import { createRequire } from 'node:module';

/** varsetd's version, from package.json (one folder up from src/ and from dist/ alike). */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

export { unsupportedNode } from './node-support.js';
