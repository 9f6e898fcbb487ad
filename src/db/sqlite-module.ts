import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3 12 is the last release that loads on Node.js 20, and since Node.js 24.19 a
 * copy of it compiled against that Node aborts the process when a statement is garbage
 * collected; 13 fixes that, but its prebuilt module needs Node-API 10 (Node.js 22.14 and later)
 * and crashes without it. Both are installed where they can be (13 as an optional dependency that
 * npm skips on Node.js 20), and each Node gets the one that works.
 */
const NEWER_MODULE = 'better-sqlite3-node22';
const OLDER_MODULE = 'better-sqlite3';

export interface SqliteModule {
  Database: typeof BetterSqlite3;
  /** Where the package is, for a thread that loads it itself (`require(path)`). */
  path: string;
  /** The package and version in use, e.g. `better-sqlite3 13.2.0`. */
  description: string;
}

const require = createRequire(import.meta.url);

export function nodeNeedsNewerModule(nodeApiVersion = process.versions.napi): boolean {
  return Number(nodeApiVersion) >= 10;
}

let loaded: SqliteModule | undefined;

export function sqliteModule(): SqliteModule {
  loaded ??= load(nodeNeedsNewerModule() ? NEWER_MODULE : OLDER_MODULE);
  return loaded;
}

function load(name: string): SqliteModule {
  let Database: typeof BetterSqlite3;
  try {
    Database = require(name) as typeof BetterSqlite3;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(
      `the SQLite module ${name} is not installed for Node.js ${process.versions.node}: run npm ci again with this Node.js (optional dependencies included)`,
    );
  }
  const { version } = require(`${name}/package.json`) as { version: string };
  return { Database, path: require.resolve(name), description: `better-sqlite3 ${version}` };
}
