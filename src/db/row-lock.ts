import { PostgresAdapter, sql } from 'kysely';
import type { Trx } from './transaction.js';

/**
 * Holds a configuration version's row until the transaction ends, so that a run being created
 * on it ('share') and a change to its archive or status ('update') happen one after the other.
 * PostgreSQL only: SQLite's write transactions already exclude each other.
 */
export async function lockConfigurationVersionRow(trx: Trx, id: string, mode: 'share' | 'update'): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select id from configuration_versions where id = ${id} for ${sql.raw(mode)}`.execute(trx);
}
