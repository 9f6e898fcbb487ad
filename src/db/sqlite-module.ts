import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3, loaded on first use only, so that a server on PostgreSQL never loads the
 * native module. Its package carries a Node-API build for the common platforms, which every
 * supported Node.js (22.14 and later, 24, 26) loads as it is.
 */
export interface SqliteModule {
  Database: typeof BetterSqlite3;
  /** Where the package is, for a thread that loads it itself (`require(path)`). */
  path: string;
  /** The package and version in use, e.g. `better-sqlite3 13.2.0`. */
  description: string;
}

const require = createRequire(import.meta.url);

let loaded: SqliteModule | undefined;

export function sqliteModule(): SqliteModule {
  loaded ??= {
    Database: require('better-sqlite3') as typeof BetterSqlite3,
    path: require.resolve('better-sqlite3'),
    description: `better-sqlite3 ${(require('better-sqlite3/package.json') as { version: string }).version}`,
  };
  return loaded;
}
