import { PostgresAdapter } from 'kysely';
import type { Trx } from './transaction.js';

/**
 * A select of rows to claim: on PostgreSQL it locks the rows it reads until the transaction
 * ends and passes over rows another transaction holds (`FOR UPDATE SKIP LOCKED`), so that two
 * processes claiming at once never take the same row and never wait for each other. SQLite's
 * write transactions (BEGIN IMMEDIATE) already run one at a time: the select is left as it is.
 */
export function skippingLockedRows<Q extends { forUpdate(): Q; skipLocked(): Q }>(trx: Trx, query: Q): Q {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return query;
  return query.forUpdate().skipLocked();
}
