import { sql, type ExpressionBuilder } from 'kysely';
import { byCodePoint } from '../db/order.js';
import { withTotal, splitTotal } from '../db/page.js';
import type { Database } from '../db/schema.js';
import { contains } from '../db/search.js';
import type { Db } from '../db/transaction.js';
import type { Page } from '../common/page.js';
import type { VarsetArrangement, VarsetRead, VarsetScope, VarsetSortKey } from './model.js';
import { keptCount, readableBy } from './list-store.js';
import { selectVarsets, toVarsetRead, withRelations } from './store.js';

/**
 * The SQL of an organization's sets filtered by their flags and sorted by a column other than
 * the name: the table view's questions, asked of the whole organization. Without a filter or a
 * sort, lists go through `listVarsets` (list-store.ts), whose statements are compiled once.
 */

const countOf =
  (table: 'varset_variables' | 'varset_workspaces' | 'varset_projects') =>
  (eb: ExpressionBuilder<Database, 'varsets'>) =>
    eb
      .selectFrom(table)
      .select((e) => e.fn.countAll<number>().as('n'))
      .whereRef(`${table}.varset_id`, '=', 'varsets.id');

/**
 * The ids of the organization's sets defining a variable of exactly this key, of either
 * category: the variables of the key read from their index (migration 0023), each one's set then
 * by its primary key, so the answer costs what matches rather than the organization's size. The
 * list asks for its sets by these ids alone, not by organization as well, so that neither store
 * chooses to walk the organization's sets instead; SQLite keeps a CROSS JOIN's order.
 */
const definingKey = (
  from: Pick<ExpressionBuilder<Database, never>, 'selectFrom'>,
  organizationId: string,
  key: string,
) =>
  from
    .selectFrom('varset_variables')
    .crossJoin('varsets as owner')
    .whereRef('owner.id', '=', 'varset_variables.varset_id')
    .where('varset_variables.key', '=', key)
    .where('owner.organization_id', '=', organizationId)
    .select('varset_variables.varset_id');

export async function listArrangedVarsets(
  db: Db,
  scope: Extract<VarsetScope, { kind: 'organization' }>,
  search: string | undefined,
  arrangement: VarsetArrangement,
  page: Page,
  variableRows: boolean,
): Promise<{ rows: VarsetRead[]; total: number }> {
  const { filters, sort } = arrangement;
  const base = (from: Pick<ExpressionBuilder<Database, never>, 'selectFrom'>) => {
    let query = from
      .selectFrom('varsets')
      .where(
        filters.varKey === undefined
          ? (eb) => eb('varsets.organization_id', '=', scope.organizationId)
          : (eb) => eb('varsets.id', 'in', definingKey(from, scope.organizationId, filters.varKey!)),
      );
    if (scope.readable !== 'all') {
      const readable = scope.readable;
      query = query.where((eb) => readableBy(eb, readable));
    }
    if (search !== undefined) query = query.where(contains(sql.ref('varsets.search_name'), search));
    if (filters.global !== undefined) query = query.where('varsets.global', '=', filters.global);
    if (filters.priority !== undefined) query = query.where('varsets.priority', '=', filters.priority);
    if (filters.projectOwned !== undefined)
      query = query.where('varsets.project_id', filters.projectOwned ? 'is not' : 'is', null);
    return query;
  };
  const ordered = <Q extends { orderBy: (...args: any[]) => Q }>(query: Q): Q => {
    if (sort?.key === 'scope')
      // Global sets first (the flag is stored as a number on one store, a boolean on the other: both order true last).
      query = query
        .orderBy('varsets.global', sort.descending ? 'asc' : 'desc')
        .orderBy(countOf('varset_projects'), sort.descending ? 'desc' : 'asc');
    else if (sort) query = query.orderBy(sortExpression(db, sort.key), sort.descending ? 'desc' : 'asc');
    return query.orderBy(byCodePoint(db, 'varsets.name')).orderBy('varsets.id');
  };
  // The page's ids are chosen first, then only its sets read with their relationships: a set's
  // relationships are subqueries, which the database would otherwise run for every set that
  // passes, before sorting them and keeping a page.
  const pageIds = ordered(base(db).select('varsets.id'))
    .limit(page.size)
    .offset((page.number - 1) * page.size);
  const query = ordered(
    withRelations(db, selectVarsets(db.selectFrom('varsets').where('varsets.id', 'in', pageIds)), variableRows),
  );
  // Without a search or a filter but the global flag's true, the database keeps the count (migration 0016).
  const kept =
    scope.readable === 'all' &&
    search === undefined &&
    filters.priority === undefined &&
    filters.projectOwned === undefined &&
    filters.varKey === undefined &&
    filters.global !== false
      ? filters.global
        ? 'global_varset_count'
        : 'varset_count'
      : undefined;
  const total = (eb: ExpressionBuilder<Database, never>) =>
    sql<number>`${kept ? keptCount(eb, scope.organizationId, kept) : base(eb).select((e) => e.fn.countAll<number>().as('n'))}`;
  const { rows, total: count } = await splitTotal(db, await withTotal(query, total).execute(), total);
  return { rows: rows.map((row) => toVarsetRead(row, variableRows)), total: count };
}

/** What a sort key orders by; ties fall to the name. "scope" (above): global sets first, then by how many projects a set is assigned to. */
function sortExpression(db: Db, key: Exclude<VarsetSortKey, 'scope'>) {
  return (eb: ExpressionBuilder<Database, 'varsets'>) => {
    switch (key) {
      case 'name':
        return byCodePoint(db, 'varsets.name');
      case 'var-count':
        return countOf('varset_variables')(eb);
      case 'workspace-count':
        return countOf('varset_workspaces')(eb);
      case 'project-count':
        return countOf('varset_projects')(eb);
      case 'updated-at':
        return sql`${sql.ref('varsets.updated_at')}`;
    }
  };
}
