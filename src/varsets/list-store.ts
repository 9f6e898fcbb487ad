import { sql, type ExpressionBuilder } from 'kysely';
import type { VarsetReadScope } from '../auth/list-scopes.js';
import { byCodePoint } from '../db/order.js';
import { splitTotal, withTotal } from '../db/page.js';
import { compiledOnce } from '../db/compiled-once.js';
import type { Database } from '../db/schema.js';
import { containsPattern, matches } from '../db/search.js';
import type { Page } from '../common/page.js';
import type { ReachingVarset, VarsetRead, VarsetScope } from './model.js';
import { selectVarsets, toVarsetRead, withRelations } from './store.js';
import { locationOfWorkspace } from '../common/location.js';
import type { WorkspacePlace } from '../workspaces/model.js';
import type { Db } from '../db/transaction.js';
import { newestVersionNumber } from './versions/store.js';

/** The SQL of which sets an organization, a project or a workspace lists, and which sets reach a workspace. */

/**
 * A project lists its own sets (assigned to it or owned by it) and the organization's global
 * sets. A workspace lists the global sets, the sets assigned to its project and those assigned
 * to it; a set owned by its project applies only where it is assigned.
 *
 * The sets reaching a project or workspace other than by being global come from the
 * assignment tables by index; the global ones are read in name order on their own index
 * (see `listVarsets`), and the global ones are counted by the database as they are written
 * (migration 0016). So neither a page nor its count walks all of an organization's sets.
 */
function reachingIds(
  eb: ExpressionBuilder<Database, any>,
  scope: { kind: 'project'; projectId: string } | { kind: 'workspace'; projectId: string; workspaceId: string },
  each: 'all' | 'distinct' = 'all',
) {
  const assignedToProject = eb
    .selectFrom('varset_projects')
    .select('varset_projects.varset_id as id')
    .where('varset_projects.project_id', '=', scope.projectId);
  return assignedToProject[each === 'all' ? 'unionAll' : 'union'](
    scope.kind === 'project'
      ? eb.selectFrom('varsets').select('varsets.id as id').where('varsets.project_id', '=', scope.projectId)
      : eb
          .selectFrom('varset_workspaces')
          .select('varset_workspaces.varset_id as id')
          .where('varset_workspaces.workspace_id', '=', scope.workspaceId),
  );
}

/** The sets a caller without organization-wide access may read (the policy's `varsetListScope`), as one condition. */
export function readableBy(eb: ExpressionBuilder<Database, 'varsets'>, readable: VarsetReadScope) {
  const conditions = [];
  if (readable.global) conditions.push(eb('varsets.global', '=', true));
  if (readable.workspaceIds.length > 0) {
    conditions.push(
      eb(
        'varsets.id',
        'in',
        eb
          .selectFrom('varset_workspaces')
          .select('varset_workspaces.varset_id')
          .where('varset_workspaces.workspace_id', 'in', readable.workspaceIds),
      ),
    );
  }
  if (readable.workspaceProjectIds.length > 0) {
    const assignedInProjects = eb
      .selectFrom('varset_workspaces')
      .innerJoin('workspaces', 'workspaces.id', 'varset_workspaces.workspace_id')
      .select('varset_workspaces.varset_id')
      .where('workspaces.project_id', 'in', readable.workspaceProjectIds);
    conditions.push(eb('varsets.id', 'in', assignedInProjects));
  }
  if (readable.projectIds.length > 0) {
    conditions.push(
      eb(
        'varsets.id',
        'in',
        eb
          .selectFrom('varset_projects')
          .select('varset_projects.varset_id')
          .where('varset_projects.project_id', 'in', readable.projectIds),
      ),
    );
  }
  if (readable.ownerProjectIds.length > 0) conditions.push(eb('varsets.project_id', 'in', readable.ownerProjectIds));
  return conditions.length > 0 ? eb.or(conditions) : sql<boolean>`1 = 0`;
}

/**
 * One page of sets with their relationships (see `withRelations`), ordered by name (code point
 * order) then id, and the number of all matching sets (see `withTotal`): one statement.
 * Its SQL depends only on the kind of scope, on whether there is a search and on
 * `variableRows` (but for a caller who may read only some of an organization's sets), so it is
 * compiled once for each (see `compiledOnce`) and runs with the request's values.
 */
export async function listVarsets(
  db: Db,
  scope: VarsetScope,
  search: string | undefined,
  page: Page,
  variableRows: boolean,
): Promise<{ rows: VarsetRead[]; total: number }> {
  const shape: PageShape = {
    kind: scope.kind,
    searching: search !== undefined,
    variableRows,
    readable: scope.kind === 'organization' ? scope.readable : 'all',
  };
  const values: PageValues = {
    organizationId: scope.organizationId,
    projectId: scope.kind === 'organization' ? '' : scope.projectId,
    workspaceId: scope.kind === 'workspace' ? scope.workspaceId : '',
    pattern: search === undefined ? '' : containsPattern(search),
    globalsThrough: page.number * page.size,
    size: page.size,
    offset: (page.number - 1) * page.size,
  };
  // Built only where it is run as built: without a compiled statement, or to count past the last page.
  const statement = () => pageStatement(db, shape, values);
  const counted =
    shape.readable === 'all'
      ? await compiledPage(shape)(db, ...argumentsOf(shape).map((name) => values[name]))
      : await builtPage(statement());
  const { rows, total } = await splitTotal(db, counted, (eb) => statement().total(eb));
  return { rows: rows.map((row) => toVarsetRead(row, variableRows)), total };
}

const builtPage = ({ page, total }: ReturnType<typeof pageStatement>) => withTotal(page, total).execute();

/** What decides the SQL of a page of sets. */
interface PageShape {
  kind: VarsetScope['kind'];
  searching: boolean;
  variableRows: boolean;
  /** The sets of an organization a caller may read, when not all (its ids make every such statement its own). */
  readable: 'all' | VarsetReadScope;
}

/** The values of a page statement: the request's, or the placeholders of a statement compiled once. */
interface PageValues {
  organizationId: string;
  projectId: string;
  workspaceId: string;
  /** A search's LIKE pattern (`containsPattern`). */
  pattern: string;
  /** How many sets the pages up to this one hold: the global sets among which this page's are. */
  globalsThrough: number;
  size: number;
  offset: number;
}

const SCOPE_VALUES: Record<VarsetScope['kind'], (keyof PageValues)[]> = {
  organization: ['organizationId', 'size', 'offset'],
  project: ['organizationId', 'projectId', 'globalsThrough', 'size', 'offset'],
  workspace: ['organizationId', 'projectId', 'workspaceId', 'globalsThrough', 'size', 'offset'],
};

/** The values a shape's statement uses, in the order of its arguments. */
const argumentsOf = (shape: PageShape): (keyof PageValues)[] => [
  ...SCOPE_VALUES[shape.kind],
  ...(shape.searching ? (['pattern'] as const) : []),
];

type PageRow = Awaited<ReturnType<ReturnType<typeof pageStatement>['page']['execute']>>[number];
const compiledPages = new Map<string, (db: Db, ...args: (string | number)[]) => Promise<PageRow[]>>();

function compiledPage(shape: PageShape) {
  const key = `${shape.kind} ${shape.searching} ${shape.variableRows}`;
  let compiled = compiledPages.get(key);
  if (!compiled) {
    const names = argumentsOf(shape);
    compiled = compiledOnce((db, ...args: (string | number)[]) => {
      const placeholders = Object.fromEntries(names.map((name, i) => [name, args[i]])) as unknown as PageValues;
      const statement = pageStatement(db, shape, placeholders);
      return withTotal(statement.page, statement.total);
    });
    compiledPages.set(key, compiled);
  }
  return compiled;
}

/** An organization's count of its sets or of its global ones, kept by the database (migration 0016). */
export const keptCount = (
  eb: ExpressionBuilder<Database, never>,
  organizationId: string,
  count: 'varset_count' | 'global_varset_count',
) =>
  eb
    .selectFrom('organization_versions')
    .where('organization_versions.organization_id', '=', organizationId)
    .select(`organization_versions.${count} as n`);

/** The page query of `shape` with `values`, and the count of all the sets it pages through. */
function pageStatement(db: Db, shape: PageShape, values: PageValues) {
  const matching = <Q extends { where: (...args: any[]) => Q }>(query: Q): Q =>
    shape.searching ? query.where(matches(sql.ref('varsets.search_name'), values.pattern)) : query;
  const ordered = <Q extends { orderBy: (...args: any[]) => Q }>(query: Q): Q =>
    query.orderBy(byCodePoint(db, 'varsets.name')).orderBy('varsets.id');
  const inPage = <Q extends { limit: (n: number) => Q; offset: (n: number) => Q }>(query: Q): Q =>
    query.limit(values.size).offset(values.offset);

  if (shape.kind === 'organization') {
    const { readable } = shape;
    const inOrganization = (eb: ExpressionBuilder<Database, 'varsets'>) => {
      const organization = eb('varsets.organization_id', '=', values.organizationId);
      // A caller without organization-wide Read variables lists only the sets it may read.
      return readable === 'all' ? organization : eb.and([organization, readableBy(eb, readable)]);
    };
    const base = (from: Pick<ExpressionBuilder<Database, never>, 'selectFrom'>) =>
      matching(from.selectFrom('varsets').where(inOrganization));
    return {
      page: inPage(ordered(withRelations(db, selectVarsets(base(db)), shape.variableRows))),
      // All of an organization's sets, without a search, are counted by the database as they are written.
      total: (eb: ExpressionBuilder<Database, never>) =>
        sql<number>`${readable === 'all' && !shape.searching ? keptCount(eb, values.organizationId, 'varset_count') : base(eb).select((e) => e.fn.countAll<number>().as('n'))}`,
    };
  }

  const scope =
    shape.kind === 'project'
      ? ({ kind: 'project', projectId: values.projectId } as const)
      : ({ kind: 'workspace', projectId: values.projectId, workspaceId: values.workspaceId } as const);
  // The page is among the first page.number × page.size global sets and the few that reach the scope otherwise.
  // Those are all in the organization: filtering on it again would lead SQLite to walk the organization's sets.
  const globals = (eb: ExpressionBuilder<Database, any>) =>
    matching(
      eb
        .selectFrom('varsets')
        .where('varsets.organization_id', '=', values.organizationId)
        .where('varsets.global', '=', true),
    );
  const candidates = (eb: ExpressionBuilder<Database, 'varsets'>) =>
    eb(
      'varsets.id',
      'in',
      eb
        .selectFrom(ordered(globals(eb).select('varsets.id')).limit(values.globalsThrough).as('first_globals'))
        .select('first_globals.id')
        .unionAll(reachingIds(eb, scope)),
    );
  return {
    page: inPage(
      ordered(
        withRelations(db, selectVarsets(matching(db.selectFrom('varsets').where(candidates))), shape.variableRows),
      ),
    ),
    total: (eb: ExpressionBuilder<Database, never>) =>
      eb(
        shape.searching
          ? globals(eb).select((e) => e.fn.countAll<number>().as('n'))
          : keptCount(eb, values.organizationId, 'global_varset_count'),
        '+',
        // Each set reaching the scope otherwise, once, looked up by its id: a few lookups where PostgreSQL
        // would otherwise read all of the sets to pick those few (its estimate of them is too high).
        eb
          .selectFrom(reachingIds(eb, scope, 'distinct').as('reaching'))
          .where(
            (e) =>
              matching(e.selectFrom('varsets')).whereRef('varsets.id', '=', 'reaching.id').select('varsets.global'),
            '=',
            false,
          )
          .select((e) => e.fn.countAll<number>().as('n')),
      ),
  };
}

/** The sets that reach a workspace, each with every way it does: the same sets the workspace's list shows, in one query. */
export async function findVarsetsReachingWorkspace(db: Db, workspace: WorkspacePlace): Promise<ReachingVarset[]> {
  const scope = { kind: 'workspace', ...locationOfWorkspace(workspace) } as const;
  const assignedToWorkspace = db
    .selectFrom('varset_workspaces')
    .select('varset_workspaces.varset_id')
    .where('varset_workspaces.workspace_id', '=', workspace.id);
  const assignedToProject = db
    .selectFrom('varset_projects')
    .select('varset_projects.varset_id')
    .where('varset_projects.project_id', '=', workspace.project_id);
  const rows = await db
    .selectFrom('varsets')
    .select(['varsets.id', 'varsets.name', 'varsets.project_id', 'varsets.global', 'varsets.priority'])
    // Computed flags are read as booleans like the flag columns (src/db/boolean-columns.ts).
    .select((eb) => [
      eb('varsets.id', 'in', assignedToWorkspace).$castTo<boolean>().as('on_workspace'),
      eb('varsets.id', 'in', assignedToProject).$castTo<boolean>().as('on_project'),
      newestVersionNumber(eb).as('version'),
    ])
    .where('varsets.organization_id', '=', workspace.organization_id)
    .where((eb) => eb.or([eb('varsets.global', '=', true), eb('varsets.id', 'in', reachingIds(eb, scope))]))
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    ownerProjectId: row.project_id,
    global: row.global,
    priority: row.priority,
    onProject: row.on_project,
    onWorkspace: row.on_workspace,
    version: row.version === null ? null : Number(row.version),
  }));
}
