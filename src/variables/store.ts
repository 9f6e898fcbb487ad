import { byCodePoint } from '../db/order.js';
import { fetchPage } from '../db/page.js';
import { inSlices } from '../common/slices.js';
import { compiledOnce } from '../db/compiled-once.js';
import type { Page } from '../common/page.js';
import { VARIABLE_COLUMNS, variableFromRow, type Category, type Variable, type VariableOwner } from './model.js';
import type { Db } from '../db/transaction.js';

/**
 * The SQL of variables, those of sets (`varset_variables`) and of workspaces
 * (`workspace_variables`) alike: both tables have the same columns but the one naming the
 * owner. Queries are typed through the workspace table and name the owner's table and
 * column by its kind. Every function works on the database or a transaction.
 */

const TABLE = { varset: 'varset_variables', workspace: 'workspace_variables' } as const;
const OWNER_COLUMN = { varset: 'varset_id', workspace: 'workspace_id' } as const;
type Row = Omit<Variable, 'owner' | 'value_needed'> & { value_needed: boolean };

const table = (owner: VariableOwner) => TABLE[owner.kind] as 'workspace_variables';
const ownerColumn = (owner: VariableOwner) => OWNER_COLUMN[owner.kind] as 'workspace_id';

function variablesOf(db: Db, owner: VariableOwner) {
  return db.selectFrom(table(owner)).where(ownerColumn(owner), '=', owner.id);
}

/** Variables are listed by key (code point order), then category, then id. */
function ordered<Q extends { orderBy: (...args: any[]) => Q }>(db: Db, query: Q): Q {
  return query.orderBy(byCodePoint(db, 'key')).orderBy('category').orderBy('id');
}

export async function findVariable(db: Db, owner: VariableOwner, id: string): Promise<Variable | undefined> {
  const row = await variablesOf(db, owner).select(VARIABLE_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && variableFromRow(owner, row);
}

/** All variables of the owner, in list order: one query. */
export async function listVariables(db: Db, owner: VariableOwner): Promise<Variable[]> {
  const rows = await ordered(db, variablesOf(db, owner).select(VARIABLE_COLUMNS)).execute();
  return rows.map((row) => variableFromRow(owner, row));
}

/** One page of the owner's variables, in list order, and how many it has. */
export async function pageOfVariables(
  db: Db,
  owner: VariableOwner,
  page: Page,
): Promise<{ rows: Variable[]; total: number }> {
  const { rows, total } = await fetchPage(db, variablesOf(db, owner), page, (query) =>
    ordered(db, query.select(VARIABLE_COLUMNS)),
  );
  return { rows: rows.map((row) => variableFromRow(owner, row)), total };
}

/** The variables of many sets in one query, in list order. */
export async function variablesOfSets(db: Db, varsetIds: string[]): Promise<Variable[]> {
  if (!varsetIds.length) return [];
  const rows = await ordered(
    db,
    db
      .selectFrom('varset_variables')
      .select([...VARIABLE_COLUMNS, 'varset_id'])
      .where('varset_id', 'in', varsetIds),
  ).execute();
  return rows.map((row) => variableFromRow({ kind: 'varset', id: row.varset_id }, row));
}

/** One compiled query for each kind of owner (their tables differ). */
const perOwnerKind = <T>(make: (kind: VariableOwner['kind']) => T): Record<VariableOwner['kind'], T> => ({
  varset: make('varset'),
  workspace: make('workspace'),
});

const VARIABLES_BY_KEY = perOwnerKind((kind) =>
  compiledOnce((db, ownerId: string, keys: string[]) =>
    variablesOf(db, { kind, id: ownerId }).select(['id', 'key', 'category']).where('key', 'in', keys),
  ),
);

/** The owner's variables among `keys` (any category), to find those a write would duplicate. */
export function findVariablesByKey(
  db: Db,
  owner: VariableOwner,
  keys: string[],
): Promise<{ id: string; key: string; category: Category }[]> {
  return inSlices(keys, (slice) => VARIABLES_BY_KEY[owner.kind](db, owner.id, slice));
}

export function listVariableKeys(db: Db, owner: VariableOwner): Promise<{ key: string; category: Category }[]> {
  return variablesOf(db, owner).select(['key', 'category']).execute();
}

/**
 * Inserts variables of one owner. A set's variables record the organization while the set is
 * global (`globalOrganizationId`): the unique index behind the global rule is on it.
 */
export async function insertVariables(
  db: Db,
  owner: VariableOwner,
  variables: Variable[],
  globalOrganizationId: string | null = null,
): Promise<void> {
  await inSlices(variables, async (slice) => {
    const cells = slice.flatMap((v) =>
      VARIABLE_COLUMNS.map((column) => (column === 'value_needed' ? v.value_needed === true : v[column])),
    );
    if (owner.kind === 'varset') await INSERT_VARSET_VARIABLES(db, owner.id, globalOrganizationId, cells);
    else await INSERT_WORKSPACE_VARIABLES(db, owner.id, cells);
  });
}

/** The rows of `cells`, the values of VARIABLE_COLUMNS of one variable after another. */
function rowsOf(cells: readonly Row[keyof Row][]): Row[] {
  const rows: Row[] = [];
  for (let at = 0; at < cells.length; at += VARIABLE_COLUMNS.length)
    rows.push(Object.fromEntries(VARIABLE_COLUMNS.map((column, i) => [column, cells[at + i]])) as unknown as Row);
  return rows;
}

const INSERT_VARSET_VARIABLES = compiledOnce(
  (db, varsetId: string, globalOrganizationId: string | null, cells: Row[keyof Row][]) =>
    db
      .insertInto('varset_variables')
      .values(
        rowsOf(cells).map((row) => ({ ...row, varset_id: varsetId, global_organization_id: globalOrganizationId })),
      ),
);
const INSERT_WORKSPACE_VARIABLES = compiledOnce((db, workspaceId: string, cells: Row[keyof Row][]) =>
  db.insertInto('workspace_variables').values(rowsOf(cells).map((row) => ({ ...row, workspace_id: workspaceId }))),
);

export async function updateVariable(db: Db, variable: Variable): Promise<void> {
  const { id, owner, created_at: _, ...changes } = variable;
  await db
    .updateTable(table(owner))
    .set({ ...changes, value_needed: changes.value_needed === true })
    .where(ownerColumn(owner), '=', owner.id)
    .where('id', '=', id)
    .execute();
}

const DELETE_VARIABLE = perOwnerKind((kind) =>
  compiledOnce((db, ownerId: string, id: string) => {
    const owner = { kind, id: ownerId };
    return db
      .deleteFrom(table(owner))
      .where(ownerColumn(owner), '=', owner.id)
      .where('id', '=', id)
      .returning(VARIABLE_COLUMNS);
  }),
);

/** Deletes the owner's variable: what it was (what the audit trail and a set's version say it was), or undefined when the owner had none. */
export async function deleteVariable(db: Db, owner: VariableOwner, id: string): Promise<Variable | undefined> {
  const [row] = await DELETE_VARIABLE[owner.kind](db, owner.id, id);
  return row && variableFromRow(owner, row);
}

/** Deletes the owner's variables with these ids (a rollback's): one statement per 500. */
export async function deleteVariables(db: Db, owner: VariableOwner, ids: string[]): Promise<void> {
  await inSlices(ids, async (slice) => {
    await db.deleteFrom(table(owner)).where(ownerColumn(owner), '=', owner.id).where('id', 'in', slice).execute();
  });
}
