import { createRequire } from 'node:module';

/** varsetd's version, from package.json (one folder up from src/ and from dist/ alike). */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/**
 * Why varsetd refuses to run on this Node.js, if it does: better-sqlite3's build needs Node-API
 * 10, which came with Node.js 22.14, and crashes the process on an older one.
 */
export function unsupportedNode(version: string = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 14)) return undefined;
  return `Node.js ${version} is not supported: varsetd needs Node.js 22.14 or later, 24 or 26`;
}
