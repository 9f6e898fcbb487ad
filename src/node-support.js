/**
 * Whether varsetd runs on a Node.js version. Plain JavaScript, so that scripts/check-node.mjs can
 * ask before anything is installed or compiled, on any Node.js. better-sqlite3's build needs
 * Node-API 10, which came with Node.js 22.14, and crashes the process on an older one; 23 left
 * support before 22 did. package.json's `engines` says the same to npm (engine-strict, .npmrc).
 *
 * @param {string} [version]
 * @returns {string | undefined} why varsetd refuses that version, or undefined when it runs on it
 */
export function unsupportedNode(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major >= 24 || (major === 22 && minor >= 14)) return undefined;
  return `Node.js ${version} is not supported: varsetd needs Node.js 22.14 or later, 24 or 26`;
}
