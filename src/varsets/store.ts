import { sql, type Expression, type ExpressionBuilder, type Insertable, type SelectQueryBuilder } from 'kysely';
import { boundOnce, compiledOnce } from '../db/compiled-once.js';
import { fromJson, jsonArrayOf, jsonObjectOf } from '../db/json.js';
import { byCodePoint } from '../db/order.js';
import type { Database, VarsetTable } from '../db/schema.js';
import { searchable } from '../db/search.js';
import { inSlices } from '../common/slices.js';
import { VARIABLE_COLUMNS, variableFromRow, type Category, type VariableRow } from '../variables/model.js';
import type { Varset, VarsetRead, VarsetRelations } from './model.js';
import { appendAtCommit, type Db, type Trx } from '../db/transaction.js';

/**
 * The SQL of variable sets themselves: reading and writing a set, its organization's version
 * (for the response cache) and the global rule's index. Lists are in list-store.ts,
 * assignments in assignment-store.ts. Every function works on the database or a transaction.
 */

const VARSET_COLUMNS = [
  'varsets.id',
  'varsets.organization_id',
  'organizations.name as organization_name',
  'varsets.project_id',
  'varsets.name',
  'varsets.description',
  'varsets.global',
  'varsets.priority',
  'varsets.created_at',
  'varsets.updated_at',
] as const;

/** A query on sets as the domain sees them: with their organization's name. */
export function selectVarsets<Q extends SelectQueryBuilder<Database, 'varsets', {}>>(query: Q) {
  return query.innerJoin('organizations', 'organizations.id', 'varsets.organization_id').select(VARSET_COLUMNS);
}

/** The columns `withRelations` adds to a set's row. */
interface RelationColumns {
  workspace_ids: unknown;
  project_ids: unknown;
  variables: unknown;
}

const idsOf =
  (db: Db, table: 'varset_workspaces' | 'varset_projects', column: 'workspace_id' | 'project_id') =>
  (eb: ExpressionBuilder<Database, 'varsets'>) =>
    eb
      .selectFrom(table)
      .select(jsonArrayOf(db, sql.ref(`${table}.${column}`), [byCodePoint(db, `${table}.${column}`)]).as('ids'))
      .whereRef(`${table}.varset_id`, '=', 'varsets.id');

/**
 * Adds to a query on sets their workspaces' and projects' ids and their variables (ids, or
 * whole rows when `variableRows`), each as one JSON column read from the tables' indexes, in
 * the order responses list them: a set and all it holds in one statement.
 */
export function withRelations<O>(
  db: Db,
  query: SelectQueryBuilder<Database, 'varsets' | 'organizations', O>,
  variableRows: boolean,
  unlessAtVersion?: number,
) {
  const variable = variableRows
    ? jsonObjectOf(
        db,
        Object.fromEntries(VARIABLE_COLUMNS.map((field) => [field, sql.ref(`varset_variables.${field}`)])),
      )
    : sql.ref('varset_variables.id');
  // With `unlessAtVersion` (the query then joins organization_versions), a row at that version carries null instead.
  const unlessAt = (relation: Expression<unknown>) =>
    unlessAtVersion === undefined
      ? sql`${relation}`
      : sql`case when ${sql.ref('organization_versions.version')} = ${unlessAtVersion} then null else ${relation} end`;
  return query.select((eb) => [
    unlessAt(idsOf(db, 'varset_workspaces', 'workspace_id')(eb)).as('workspace_ids'),
    unlessAt(idsOf(db, 'varset_projects', 'project_id')(eb)).as('project_ids'),
    unlessAt(
      eb
        .selectFrom('varset_variables')
        .select(
          jsonArrayOf(db, variable, [
            byCodePoint(db, 'varset_variables.key'),
            sql.ref('varset_variables.category'),
            sql.ref('varset_variables.id'),
          ]).as('variables'),
        )
        .whereRef('varset_variables.varset_id', '=', 'varsets.id'),
    ).as('variables'),
  ]);
}

/** A row of `withRelations` as the set and its relationships. */
export function toVarsetRead<R extends Varset & RelationColumns>(row: R, variableRows: boolean): VarsetRead {
  const { workspace_ids, project_ids, variables } = row;
  const varset: Varset = {
    id: row.id,
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    project_id: row.project_id,
    name: row.name,
    description: row.description,
    global: row.global,
    priority: row.priority,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  const owner = { kind: 'varset', id: varset.id } as const;
  let decoded: VarsetRelations | undefined;
  const relations = () =>
    (decoded ??= {
      workspaceIds: fromJson<string[]>(workspace_ids),
      projectIds: fromJson<string[]>(project_ids),
      variables: variableRows
        ? fromJson<VariableRow[]>(variables).map((row) => ({ id: row.id, row: variableFromRow(owner, row) }))
        : fromJson<string[]>(variables).map((id) => ({ id })),
    });
  return { varset, relations };
}

const findWithVersion = (variableRows: boolean) =>
  compiledOnce((db, id: string, unlessAtVersion: number) =>
    withRelations(
      db,
      selectVarsets(db.selectFrom('varsets').where('varsets.id', '=', id)),
      variableRows,
      unlessAtVersion,
    )
      .innerJoin('organization_versions', 'organization_versions.organization_id', 'varsets.organization_id')
      .innerJoin('credentials_version', (join) => join.onTrue())
      .select([
        'organization_versions.version as organization_version',
        'credentials_version.version as credentials_version',
      ]),
  );
const FIND_WITH_VERSION = { ids: findWithVersion(false), rows: findWithVersion(true) };

/** A set and its organization's version; its relationships unless they were left unread. */
export type VarsetAtVersion = {
  varset: Varset;
  version: number;
  relations: VarsetRead['relations'] | undefined;
  /** The credentials version (migration 0015), read in the same statement: see `confirmCredentials`. */
  credentialsVersion: number;
};

/**
 * A set with its relationships (see `withRelations`), its organization's version (see
 * `ResponseCache`) and the credentials version, all read by one statement. At `unlessAtVersion` (the version of a response
 * the caller already holds) the relationships are left unread: that response needs none.
 */
export async function findVarsetAtVersion(
  db: Db,
  id: string,
  variableRows: boolean,
  unlessAtVersion?: number,
): Promise<VarsetAtVersion | undefined> {
  // No organization is at version -1: versions start at 0 and only grow.
  const [found] = await FIND_WITH_VERSION[variableRows ? 'rows' : 'ids'](db, id, unlessAtVersion ?? -1);
  if (!found) return undefined;
  const version = Number(found.organization_version);
  const read = toVarsetRead(found, variableRows);
  return {
    varset: read.varset,
    version,
    relations: found.workspace_ids === null ? undefined : read.relations,
    credentialsVersion: Number(found.credentials_version),
  };
}

const organizationIdOfVarset = compiledOnce((db, id: string) =>
  db.selectFrom('varsets').select('organization_id').where('id', '=', id),
);

export async function findVarsetOrganizationId(db: Db, id: string): Promise<string | undefined> {
  return (await organizationIdOfVarset(db, id))[0]?.organization_id;
}

export async function isVarsetNameTaken(
  db: Db,
  organizationId: string,
  name: string,
  exceptId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('varsets')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('name', '=', name)
    .where('id', '<>', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertVarset(db: Db, varset: Varset): Promise<void> {
  const { organization_name: _, ...row } = varset;
  const insert: Insertable<VarsetTable> = { ...row, search_name: searchable(varset.name) };
  await db.insertInto('varsets').values(insert).execute();
}

/** Changes a set's attributes; a new name is also folded for search. */
export async function updateVarset(
  db: Db,
  id: string,
  changes: Partial<Pick<Varset, 'name' | 'description' | 'global' | 'priority' | 'updated_at'>>,
): Promise<void> {
  await db
    .updateTable('varsets')
    .set({ ...changes, ...(changes.name !== undefined ? { search_name: searchable(changes.name) } : {}) })
    .where('id', '=', id)
    .execute();
}

const touchVarset = boundOnce((db, id: string, updatedAt: string) =>
  db.updateTable('varsets').set({ updated_at: updatedAt }).where('id', '=', id),
);

/** Records that a set changed (its variables did) at `updatedAt`. */
export function touchVarsetAt(trx: Trx, id: string, updatedAt: string): void {
  appendAtCommit(trx, touchVarset(trx, id, updatedAt));
}

export async function deleteVarset(db: Db, id: string): Promise<void> {
  await db.deleteFrom('varsets').where('id', '=', id).execute();
}

/** Keeps `global_organization_id` of a set's variables, the column the global rule's unique index is on, in step with the set's `global` flag. */
export async function setVariablesGlobal(
  db: Db,
  varset: { id: string; organization_id: string; global: boolean },
): Promise<void> {
  await db
    .updateTable('varset_variables')
    .set({ global_organization_id: varset.global ? varset.organization_id : null })
    .where('varset_id', '=', varset.id)
    .execute();
}

/**
 * The variables of the organization's other global sets among `keys` (any category), with
 * their set's name. One query on the index that backs the global rule, however many global
 * sets there are (one per 500 keys).
 */
export function findGlobalVariablesByKey(
  db: Db,
  organizationId: string,
  exceptVarsetId: string,
  keys: string[],
): Promise<{ key: string; category: Category; varset_name: string }[]> {
  return inSlices(keys, (slice) => GLOBAL_VARIABLES_BY_KEY(db, organizationId, exceptVarsetId, slice));
}

const GLOBAL_VARIABLES_BY_KEY = compiledOnce((db, organizationId: string, exceptVarsetId: string, keys: string[]) =>
  db
    .selectFrom('varset_variables')
    .innerJoin('varsets', 'varsets.id', 'varset_variables.varset_id')
    .select(['varset_variables.key', 'varset_variables.category', 'varsets.name as varset_name'])
    .where('varset_variables.global_organization_id', '=', organizationId)
    .where('varset_variables.varset_id', '<>', exceptVarsetId)
    .where('varset_variables.key', 'in', keys),
);
