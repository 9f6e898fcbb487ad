import { sql } from 'kysely';
import type { Db, Trx } from '../db/transaction.js';

/**
 * Every column that holds sealed values, and which of its rows are sealed. A feature that
 * seals another column adds it here, so that key rotation re-encrypts it and the keyring's
 * counts include it.
 */
export interface SealedColumn {
  table: string;
  id: string;
  column: string;
  /** Only rows where this boolean column is true hold a sealed value. */
  sealedWhen?: string;
  /** The column holds a JSON object whose every value is sealed (null: none), not one sealed value. */
  map?: true;
  /**
   * The column naming the row's variable set, when writes of the table take its organization's
   * lock (withOrganizationLocked): re-sealing takes it too, as a lock taken in another order
   * would deadlock with them (updates of the table raise the organization's version).
   */
  varset?: string;
}

export const SEALED_COLUMNS: SealedColumn[] = [
  { table: 'varset_variables', id: 'id', column: 'value', sealedWhen: 'sensitive', varset: 'varset_id' },
  { table: 'workspace_variables', id: 'id', column: 'value', sealedWhen: 'sensitive' },
  { table: 'run_effective_values', id: 'id', column: 'value', sealedWhen: 'sensitive' },
  { table: 'varset_versions', id: 'id', column: 'sealed', map: true },
  { table: 'varset_notification_configurations', id: 'id', column: 'token' },
  { table: 'workload_identity_keys', id: 'id', column: 'private_key' },
];

export interface SealedRow {
  id: string;
  value: string;
  /** The row's variable set, for a column naming one (`SealedColumn.varset`). */
  varset: string | null;
}

/** Up to `limit` sealed values of a column whose row id comes after `after`, in id order. */
export async function sealedValues(db: Db, c: SealedColumn, after: string, limit: number): Promise<SealedRow[]> {
  const sealed = c.sealedWhen ? sql`and ${sql.ref(c.sealedWhen)} = ${true}` : sql`and ${sql.ref(c.column)} is not null`;
  const varset = c.varset ? sql.ref(c.varset) : sql`null`;
  const { rows } = await sql<SealedRow>`
    select ${sql.ref(c.id)} as id, ${sql.ref(c.column)} as value, ${varset} as varset from ${sql.table(c.table)}
    where ${sql.ref(c.id)} > ${after} ${sealed} order by ${sql.ref(c.id)} limit ${limit}`.execute(db);
  return rows;
}

/** Replaces a row's sealed value only if it is still `expected` (no concurrent write replaced it); returns whether it did. */
export async function replaceSealedValue(
  trx: Trx,
  c: SealedColumn,
  id: string,
  expected: string,
  value: string,
): Promise<boolean> {
  const result = await sql`update ${sql.table(c.table)} set ${sql.ref(c.column)} = ${value}
    where ${sql.ref(c.id)} = ${id} and ${sql.ref(c.column)} = ${expected}`.execute(trx);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** A server-wide value kept in the database. */
export async function findSetting(db: Db, name: string): Promise<string | undefined> {
  return (await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst())?.value;
}

/** Stores a setting unless it is already there (another process may have stored it first). */
export async function insertSettingOnce(trx: Trx, name: string, value: string): Promise<void> {
  await trx
    .insertInto('settings')
    .values({ name, value })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function updateSetting(trx: Trx, name: string, value: string): Promise<void> {
  await trx.updateTable('settings').set({ value }).where('name', '=', name).execute();
}

/** The settings whose names start with `prefix` (which holds no `%` or `_`), in name order. */
export async function settingsNamed(db: Db, prefix: string): Promise<{ name: string; value: string }[]> {
  return db
    .selectFrom('settings')
    .select(['name', 'value'])
    .where('name', 'like', `${prefix}%`)
    .orderBy('name')
    .execute();
}

export async function deleteSetting(trx: Trx, name: string): Promise<void> {
  await trx.deleteFrom('settings').where('name', '=', name).execute();
}
