import type { CompiledQuery, Dialect } from 'kysely';
import { withConnectionsWrapped } from './wrapped-connections.js';
import { events } from '../events/registry.js';

declare module '../events/registry.js' {
  interface DomainEvents {
    /** A statement the database refused or could not run. */
    'db.statement-failure': {
      /** A bounded name of what went wrong (`statementErrorKind`); never the statement or its values. */
      kind: string;
    };
  }
}

/**
 * The kind of a failed statement, from a fixed, small set of names so that it may label a
 * metric: PostgreSQL's SQLSTATE class (the code's first two characters: `23` a constraint,
 * `40` a serialization failure or deadlock, `57` the server shutting down, `08` a lost
 * connection, …), SQLite's primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …),
 * `connection` for a network error reaching the server, `other` for anything else.
 * (`connect`, a failure to get a connection at all, is named by `announcingStatementFailures`.)
 */
export function statementErrorKind(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'other';
  if (/^(ECONN|ETIMEDOUT$|EPIPE$|ENOTFOUND$|EAI_|EHOSTUNREACH$|ENETUNREACH$)/.test(code)) return 'connection';
  const sqlite = /^(SQLITE_[A-Z]+?)(_[A-Z_]+)?$/.exec(code);
  if (sqlite) return SQLITE_PRIMARY_CODES.has(sqlite[1]!) ? sqlite[1]! : 'other';
  if (/^[0-9A-Z]{5}$/.test(code)) return `sqlstate_${code.slice(0, 2)}`;
  return 'other';
}

/** SQLite's primary result codes that are errors (https://sqlite.org/rescode.html). */
const SQLITE_PRIMARY_CODES = new Set(
  [
    'ERROR',
    'INTERNAL',
    'PERM',
    'ABORT',
    'BUSY',
    'LOCKED',
    'NOMEM',
    'READONLY',
    'INTERRUPT',
    'IOERR',
    'CORRUPT',
    'NOTFOUND',
    'FULL',
    'CANTOPEN',
    'PROTOCOL',
    'EMPTY',
    'SCHEMA',
    'TOOBIG',
    'CONSTRAINT',
    'MISMATCH',
    'MISUSE',
    'NOLFS',
    'AUTH',
    'FORMAT',
    'RANGE',
    'NOTADB',
  ].map((name) => `SQLITE_${name}`),
);

function announce(error: unknown, kind = statementErrorKind(error)): never {
  events.announce('db.statement-failure', { kind });
  throw error;
}

/**
 * `dialect` announcing every statement that fails ('db.statement-failure'), BEGIN and COMMIT
 * included, and every failure to get a connection to run one on (kind `connect`: PostgreSQL
 * unreachable, or no pool client free in time).
 */
export function announcingStatementFailures(dialect: Dialect): Dialect {
  return withConnectionsWrapped(
    dialect,
    (connection) => ({
      // SQLite's connection throws at once; PostgreSQL's rejects.
      executeQuery: <R>(query: CompiledQuery) => {
        try {
          return connection.executeQuery<R>(query).catch(announce);
        } catch (error) {
          return announce(error);
        }
      },
    }),
    (error) => announce(error, 'connect'),
  );
}
