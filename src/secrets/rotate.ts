import type { Store } from '../db/connect.js';
import { transaction } from '../db/transaction.js';
import { resealCheck } from './key.js';
import type { Sealer } from './sealer.js';
import { replaceSealedValue, SEALED_COLUMNS, sealedValues, type SealedColumn } from './store.js';

const BATCH = 500;

/**
 * Re-encrypts every sealed value from one key to another in a single transaction: either
 * every value and the key check move to the new key, or nothing changes. Returns how many
 * values were re-encrypted.
 */
export async function rotateKey(store: Store, from: Sealer, to: Sealer, columns: SealedColumn[] = SEALED_COLUMNS): Promise<number> {
  return transaction(store, async (trx) => {
    let count = 0;
    for (const column of columns) {
      let after = '';
      for (;;) {
        const rows = await sealedValues(trx, column, after, BATCH);
        for (const row of rows) {
          const { value, values } = column.map ? resealMap(row.value, from, to) : { value: to.seal(from.open(row.value)), values: 1 };
          await replaceSealedValue(trx, column, row.id, value);
          count += values;
        }
        if (rows.length < BATCH) break;
        after = rows[rows.length - 1]!.id;
      }
    }
    await resealCheck(trx, to);
    return count;
  });
}

/** A JSON object of sealed values, each re-encrypted, and how many it holds. */
function resealMap(text: string, from: Sealer, to: Sealer): { value: string; values: number } {
  const entries = Object.entries(JSON.parse(text) as Record<string, string>);
  return { value: JSON.stringify(Object.fromEntries(entries.map(([id, sealed]) => [id, to.seal(from.open(sealed))]))), values: entries.length };
}
