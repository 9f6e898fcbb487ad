import type { Store } from '../db/connect.js';
import { transaction, withOrganizationLocked, type Db, type Trx } from '../db/transaction.js';
import type { Keyring } from './keyring.js';
import { SealError } from './sealer.js';
import { replaceSealedValue, SEALED_COLUMNS, sealedValues, type SealedColumn, type SealedRow } from './store.js';

/**
 * The sealed values of a store, counted by key and re-sealed with the active key. Both walk
 * every column of SEALED_COLUMNS (each value of a JSON map counting as one) a batch at a time.
 */

const BATCH = 500;
/** Where `countSealedValues` counts `v1:` values that no key of the keyring opens. */
export const UNOPENED_V1 = 'v1';

async function eachBatch(
  db: Db,
  batch: number,
  visit: (column: SealedColumn, rows: SealedRow[]) => Promise<void>,
): Promise<void> {
  for (const column of SEALED_COLUMNS) {
    let after = '';
    for (;;) {
      const rows = await sealedValues(db, column, after, batch);
      if (rows.length > 0) await visit(column, rows);
      if (rows.length < batch) break;
      after = rows.at(-1)!.id;
    }
  }
}

const valuesOf = (column: SealedColumn, stored: string): string[] =>
  column.map ? Object.values(JSON.parse(stored) as Record<string, string>) : [stored];

/** Where a sealed value is stored: the table, the column and the row's id. */
export interface SealedPlace {
  table: string;
  column: string;
  id: string;
}

/** Calls `visit` with every sealed value of the store (each value of a JSON map on its own), a batch of rows read at a time. */
export async function forEachSealedValue(
  db: Db,
  visit: (sealed: string, place: SealedPlace) => void,
  batch = BATCH,
): Promise<void> {
  await eachBatch(db, batch, async (column, rows) => {
    for (const row of rows)
      for (const value of valuesOf(column, row.value))
        visit(value, { table: column.table, column: column.column, id: row.id });
  });
}

/**
 * How many stored values each key seals, by key id: the id a value names, or for a `v1:` value
 * the key of `keyring` that opens it (UNOPENED_V1 when none does). Keys sealing nothing are absent.
 */
export async function countSealedValues(db: Db, keyring: Keyring, batch = BATCH): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  await forEachSealedValue(
    db,
    (value) => {
      const id = keyring.keyOf(value) ?? UNOPENED_V1;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    },
    batch,
  );
  return counts;
}

export interface ResealOutcome {
  /** Values re-sealed with the active key. */
  resealed: number;
  /** Values still sealed with another key at the end: written meanwhile by processes still sealing with an older key. */
  remaining: number;
}

/** Passes over the store; a pass after the first picks up what processes sealing with an older key wrote during the one before. */
const PASSES = 3;

/**
 * Re-seals with the active key every value another key sealed, one short transaction per
 * batch (per set of the batch, for a column whose writes take the set's organization's lock),
 * while the store keeps serving. A row is replaced only while it still holds the value read:
 * a write in between wins, and is left to the next pass.
 */
export async function resealValues(store: Store, keyring: Keyring, batch = BATCH): Promise<ResealOutcome> {
  const active = `v2:${keyring.active.id}:`;
  let resealed = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    const before = resealed;
    await eachBatch(store.db, batch, async (column, rows) => {
      const changes = rows.flatMap((row) => {
        const stale = valuesOf(column, row.value).filter((v) => !v.startsWith(active)).length;
        return stale === 0 ? [] : [{ row, to: resealRow(column, row, keyring, active), stale }];
      });
      const bySet = new Map<string | null, typeof changes>();
      for (const change of changes) bySet.set(change.row.varset, [...(bySet.get(change.row.varset) ?? []), change]);
      for (const [varset, group] of bySet) {
        const work = async (trx: Trx) => {
          let count = 0;
          for (const { row, to, stale } of group)
            if (await replaceSealedValue(trx, column, row.id, row.value, to)) count += stale;
          return count;
        };
        resealed += await (varset === null
          ? transaction(store, work)
          : withOrganizationLocked(store, { varsetId: varset }, work));
      }
    });
    if (resealed === before) break;
  }
  const counts = await countSealedValues(store.db, keyring, batch);
  counts.delete(keyring.active.id);
  return { resealed, remaining: [...counts.values()].reduce((a, b) => a + b, 0) };
}

/** A row's stored text with each of its values not sealed with the active key sealed again. */
function resealRow(column: SealedColumn, row: SealedRow, keyring: Keyring, active: string): string {
  const again = (value: string) => {
    if (value.startsWith(active)) return value;
    try {
      return keyring.seal(keyring.open(value));
    } catch (error) {
      if (error instanceof SealError)
        throw new SealError(`${column.table}.${column.column} of ${row.id}: ${error.message}`);
      throw error;
    }
  };
  if (!column.map) return again(row.value);
  const entries = Object.entries(JSON.parse(row.value) as Record<string, string>);
  return JSON.stringify(Object.fromEntries(entries.map(([id, sealed]) => [id, again(sealed)])));
}
