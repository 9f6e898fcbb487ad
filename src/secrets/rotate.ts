import { sql } from 'kysely';
import type { Store } from '../db/connect.js';
import { resealCheck } from './key.js';
import type { Sealer } from './sealer.js';

/**
 * Every column that holds sealed values, and which of its rows are sealed. A feature that
 * seals another column adds it here, so that key rotation re-encrypts it too.
 */
export interface SealedColumn {
  table: string;
  id: string;
  column: string;
  /** Only rows where this 0/1 column is 1 hold a sealed value. */
  sealedWhen?: string;
}

export const SEALED_COLUMNS: SealedColumn[] = [
  { table: 'varset_variables', id: 'id', column: 'value', sealedWhen: 'sensitive' },
  { table: 'workspace_variables', id: 'id', column: 'value', sealedWhen: 'sensitive' },
  { table: 'run_effective_values', id: 'id', column: 'value', sealedWhen: 'sensitive' },
];

const BATCH = 500;

/**
 * Re-encrypts every sealed value from one key to another in a single transaction: either
 * every value and the key check move to the new key, or nothing changes. Returns how many
 * values were re-encrypted.
 */
export async function rotateKey(store: Store, from: Sealer, to: Sealer, columns: SealedColumn[] = SEALED_COLUMNS): Promise<number> {
  return store.db.transaction().execute(async (trx) => {
    let count = 0;
    for (const c of columns) {
      let after = '';
      for (;;) {
        const sealed = c.sealedWhen ? sql`and ${sql.ref(c.sealedWhen)} = 1` : sql``;
        const { rows } = await sql<{ id: string; value: string }>`
          select ${sql.ref(c.id)} as id, ${sql.ref(c.column)} as value from ${sql.table(c.table)}
          where ${sql.ref(c.id)} > ${after} ${sealed} order by ${sql.ref(c.id)} limit ${BATCH}`.execute(trx);
        for (const row of rows) {
          await sql`update ${sql.table(c.table)} set ${sql.ref(c.column)} = ${to.seal(from.open(row.value))} where ${sql.ref(c.id)} = ${row.id}`.execute(trx);
        }
        count += rows.length;
        if (rows.length < BATCH) break;
        after = rows[rows.length - 1]!.id;
      }
    }
    await resealCheck(trx, to);
    return count;
  });
}
