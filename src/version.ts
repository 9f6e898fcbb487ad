import { createRequire } from 'node:module';
import { buildInfo, versionOf } from './build-info.js';

/** The version package.json names: the newest release. */
export const PACKAGE_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;

/** varsetd's version: package.json's (one folder up from src/ and from dist/ alike) for a release build, with the commit for any other. */
export const VERSION: string = versionOf(PACKAGE_VERSION, buildInfo());

export { unsupportedNode } from './node-support.js';
