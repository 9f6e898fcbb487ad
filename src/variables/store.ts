import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { byCodePoint } from '../db/order.js';
import { fetchPage } from '../db/page.js';
import { inSlices } from '../common/slices.js';
import type { Page } from '../jsonapi/query.js';
import type { Category, Variable, VariableOwner } from './model.js';

/**
 * The SQL of variables, those of sets (`varset_variables`) and of workspaces
 * (`workspace_variables`) alike: both tables have the same columns but the one naming the
 * owner. Queries are typed through the workspace table and name the owner's table and
 * column by its kind. Every function works on the database or a transaction.
 */
type Db = Kysely<Database>;

const TABLE = { varset: 'varset_variables', workspace: 'workspace_variables' } as const;
const OWNER_COLUMN = { varset: 'varset_id', workspace: 'workspace_id' } as const;
const COLUMNS = ['id', 'key', 'value', 'description', 'category', 'hcl', 'sensitive', 'version_id', 'created_at'] as const;

type Row = Omit<Variable, 'owner'>;

const table = (owner: VariableOwner) => TABLE[owner.kind] as 'workspace_variables';
const ownerColumn = (owner: VariableOwner) => OWNER_COLUMN[owner.kind] as 'workspace_id';

function variablesOf(db: Db, owner: VariableOwner) {
  return db.selectFrom(table(owner)).where(ownerColumn(owner), '=', owner.id);
}

function toVariable(owner: VariableOwner, row: Row): Variable {
  return {
    id: row.id,
    owner,
    key: row.key,
    value: row.value,
    description: row.description,
    category: row.category,
    hcl: row.hcl,
    sensitive: row.sensitive,
    version_id: row.version_id,
    created_at: row.created_at,
  };
}

/** Variables are listed by key (code point order), then category, then id. */
function ordered<Q extends { orderBy: (...args: any[]) => Q }>(db: Db, query: Q): Q {
  return query.orderBy(byCodePoint(db, 'key')).orderBy('category').orderBy('id');
}

export async function findVariable(db: Db, owner: VariableOwner, id: string): Promise<Variable | undefined> {
  const row = await variablesOf(db, owner).select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toVariable(owner, row);
}

/** All variables of the owner, in list order: one query. */
export async function listVariables(db: Db, owner: VariableOwner): Promise<Variable[]> {
  const rows = await ordered(db, variablesOf(db, owner).select(COLUMNS)).execute();
  return rows.map((row) => toVariable(owner, row));
}

/** One page of the owner's variables, in list order, and how many it has. */
export async function pageOfVariables(db: Db, owner: VariableOwner, page: Page): Promise<{ rows: Variable[]; total: number }> {
  const { rows, total } = await fetchPage(db, variablesOf(db, owner), page, (query) => ordered(db, query.select(COLUMNS)));
  return { rows: rows.map((row) => toVariable(owner, row)), total };
}

/** The variables of many sets in one query, in list order. */
export async function variablesOfSets(db: Db, varsetIds: string[]): Promise<Variable[]> {
  if (!varsetIds.length) return [];
  const rows = await ordered(db, db.selectFrom('varset_variables').select([...COLUMNS, 'varset_id']).where('varset_id', 'in', varsetIds)).execute();
  return rows.map(({ varset_id, ...row }) => toVariable({ kind: 'varset', id: varset_id }, row));
}

/** The owner's variables among `keys` (any category), to find those a write would duplicate. */
export function findVariablesByKey(db: Db, owner: VariableOwner, keys: string[]): Promise<{ id: string; key: string; category: Category }[]> {
  return inSlices(keys, (slice) => variablesOf(db, owner).select(['id', 'key', 'category']).where('key', 'in', slice).execute());
}

export function listVariableKeys(db: Db, owner: VariableOwner): Promise<{ key: string; category: Category }[]> {
  return variablesOf(db, owner).select(['key', 'category']).execute();
}

/**
 * Inserts variables of one owner. A set's variables record the organization while the set is
 * global (`globalOrganizationId`): the unique index behind the global rule is on it.
 */
export async function insertVariables(db: Db, owner: VariableOwner, variables: Variable[], globalOrganizationId: string | null = null): Promise<void> {
  const columns = ({ owner: _, ...row }: Variable): Row => row;
  await inSlices(variables, async (slice) => {
    if (owner.kind === 'varset') {
      await db
        .insertInto('varset_variables')
        .values(slice.map((v) => ({ ...columns(v), varset_id: owner.id, global_organization_id: globalOrganizationId })))
        .execute();
    } else {
      await db.insertInto('workspace_variables').values(slice.map((v) => ({ ...columns(v), workspace_id: owner.id }))).execute();
    }
  });
}

export async function updateVariable(db: Db, variable: Variable): Promise<void> {
  const { id, owner, created_at: _, ...changes } = variable;
  await db.updateTable(table(owner)).set(changes).where(ownerColumn(owner), '=', owner.id).where('id', '=', id).execute();
}

export async function deleteVariable(db: Db, owner: VariableOwner, id: string): Promise<boolean> {
  const result = await db.deleteFrom(table(owner)).where(ownerColumn(owner), '=', owner.id).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
