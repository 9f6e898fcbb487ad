import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Selectable, type SelectQueryBuilder, type Updateable } from 'kysely';
import type { Scope, VarsetReadScope } from '../auth/policy.js';
import { containsPattern } from '../db/search.js';
import { compiledOnce } from '../db/compiled-once.js';
import { byCodePoint } from '../db/order.js';
import { fetchPage, limitToPage, pageWithTotal } from '../db/page.js';
import { readableBy } from './readable.js';
import type { Database, VarsetTable, VarsetVariableTable } from '../db/schema.js';
import type { Page } from '../jsonapi/query.js';
import type { Project } from '../projects/model.js';
import type { Workspace } from '../workspaces/model.js';
import type { Category } from '../variables/rules.js';

/** The SQL of variable sets, their variables and assignments. Every function works on the database or a transaction. */
type Db = Kysely<Database>;

export type Varset = Selectable<VarsetTable>;
export type VarsetVariable = Selectable<VarsetVariableTable>;

/** A set as responses show it: its row and its organization's name. */
export interface VarsetRow extends Varset {
  organization_name: string;
}

/** Which sets a list shows: all of an organization's, or those a project or a workspace lists (see `listVarsets`). */
export type VarsetScope =
  | { kind: 'organization'; organizationId: string; readable: Exclude<Scope<VarsetReadScope>, 'none'> }
  | { kind: 'project'; organizationId: string; projectId: string }
  | { kind: 'workspace'; organizationId: string; projectId: string; workspaceId: string };

function selectVarsetRows<Q extends SelectQueryBuilder<Database, 'varsets', {}>>(query: Q) {
  return query.innerJoin('organizations', 'organizations.id', 'varsets.organization_id').selectAll('varsets').select('organizations.name as organization_name');
}

export function findVarset(db: Db, id: string): Promise<VarsetRow | undefined> {
  return selectVarsetRows(db.selectFrom('varsets').where('varsets.id', '=', id)).executeTakeFirst();
}

const findVarsetWithVersion = compiledOnce((db, id: string) =>
  selectVarsetRows(db.selectFrom('varsets').where('varsets.id', '=', id))
    .innerJoin('organization_versions', 'organization_versions.organization_id', 'varsets.organization_id')
    .select('organization_versions.version as organization_version'),
);

/** A set with its organization's version (see `ResponseCache`), both read by one statement. */
export async function findVarsetAtVersion(db: Db, id: string): Promise<{ varset: VarsetRow; version: number } | undefined> {
  const [found] = await findVarsetWithVersion(db, id);
  if (!found) return undefined;
  const { organization_version, ...varset } = found;
  return { varset, version: Number(organization_version) };
}

/** What a cached list of sets belongs to (see `ResponseCache`). */
export type VersionOf = { workspaceId: string } | { projectId: string } | { organizationName: string };

const versions = (db: Db) => db.selectFrom('organization_versions').select('organization_versions.version');
const versionOfWorkspace = compiledOnce((db, id: string) =>
  versions(db).innerJoin('workspaces', 'workspaces.organization_id', 'organization_versions.organization_id').where('workspaces.id', '=', id),
);
const versionOfProject = compiledOnce((db, id: string) =>
  versions(db).innerJoin('projects', 'projects.organization_id', 'organization_versions.organization_id').where('projects.id', '=', id),
);
const versionOfOrganization = compiledOnce((db, name: string) =>
  versions(db).innerJoin('organizations', 'organizations.id', 'organization_versions.organization_id').where('organizations.name', '=', name),
);

/** The version of the organization `of` belongs to; undefined when there is none (the read then answers 404). */
export async function organizationVersion(db: Db, of: VersionOf): Promise<number | undefined> {
  const [row] = await ('workspaceId' in of
    ? versionOfWorkspace(db, of.workspaceId)
    : 'projectId' in of
      ? versionOfProject(db, of.projectId)
      : versionOfOrganization(db, of.organizationName));
  return row === undefined ? undefined : Number(row.version);
}

export async function findVarsetOrganizationId(db: Db, id: string): Promise<string | undefined> {
  return (await db.selectFrom('varsets').select('organization_id').where('id', '=', id).executeTakeFirst())?.organization_id;
}

export async function isVarsetNameTaken(db: Db, organizationId: string, name: string, exceptId: string): Promise<boolean> {
  const row = await db.selectFrom('varsets').select('id').where('organization_id', '=', organizationId).where('name', '=', name).where('id', '<>', exceptId).executeTakeFirst();
  return row !== undefined;
}

/**
 * A project lists its own sets (assigned to it or owned by it) and the organization's global
 * sets. A workspace lists the global sets, the sets assigned to its project and those assigned
 * to it; a set owned by its project applies only where it is assigned.
 *
 * The sets reaching a project or workspace other than by being global come from the
 * assignment tables by index; the global ones are read in name order on their own index
 * (see `listVarsets`). So neither a page nor its count walks all of an organization's sets.
 */
export function reachingIds(eb: ExpressionBuilder<Database, any>, scope: Exclude<VarsetScope, { kind: 'organization' }>) {
  const assignedToProject = eb.selectFrom('varset_projects').select('varset_projects.varset_id as id').where('varset_projects.project_id', '=', scope.projectId);
  return assignedToProject.unionAll(
    scope.kind === 'project'
      ? eb.selectFrom('varsets').select('varsets.id as id').where('varsets.project_id', '=', scope.projectId)
      : eb.selectFrom('varset_workspaces').select('varset_workspaces.varset_id as id').where('varset_workspaces.workspace_id', '=', scope.workspaceId),
  );
}

/** Names are stored lower-cased in `search_name`, so the match is case-insensitive on both stores. */
function nameContains(search: string) {
  return sql<boolean>`varsets.search_name like ${containsPattern(search)} escape '\\'`;
}

/** One page of sets, ordered by name (code point order) then id, and the number of all matching sets (see `pageWithTotal`). */
export async function listVarsets(db: Db, scope: VarsetScope, search: string | undefined, page: Page): Promise<{ rows: VarsetRow[]; total: number }> {
  const matching = <Q extends { where: (...args: any[]) => Q }>(query: Q): Q => (search === undefined ? query : query.where(nameContains(search)));
  const ordered = <Q extends { orderBy: (...args: any[]) => Q }>(query: Q): Q => query.orderBy(byCodePoint(db, 'varsets.name')).orderBy('varsets.id');

  if (scope.kind === 'organization') {
    const inOrganization = (eb: ExpressionBuilder<Database, 'varsets'>) => {
      const organization = eb('varsets.organization_id', '=', scope.organizationId);
      // A caller without organization-wide Read variables lists only the sets it may read.
      return scope.readable === 'all' ? organization : eb.and([organization, readableBy(eb, scope.readable)]);
    };
    return fetchPage(db, matching(db.selectFrom('varsets').where(inOrganization)), page, (query) => ordered(selectVarsetRows(query)));
  }

  // The page is among the first page.number × page.size global sets and the few that reach the scope otherwise.
  // Those are all in the organization: filtering on it again would lead SQLite to walk the organization's sets.
  const globals = (eb: ExpressionBuilder<Database, any>) =>
    matching(eb.selectFrom('varsets').where('varsets.organization_id', '=', scope.organizationId).where('varsets.global', '=', true));
  const candidates = (eb: ExpressionBuilder<Database, 'varsets'>) =>
    eb(
      'varsets.id',
      'in',
      eb
        .selectFrom(ordered(globals(eb).select('varsets.id')).limit(page.number * page.size).as('first_globals'))
        .select('first_globals.id')
        .unionAll(reachingIds(eb, scope)),
    );
  const total = (eb: ExpressionBuilder<Database, never>) =>
    eb(
      globals(eb).select((e) => e.fn.countAll<number>().as('n')),
      '+',
      matching(eb.selectFrom('varsets'))
        .where('varsets.global', '=', false)
        .where('varsets.id', 'in', reachingIds(eb, scope))
        .select((e) => e.fn.countAll<number>().as('n')),
    );
  return pageWithTotal(db, limitToPage(ordered(selectVarsetRows(matching(db.selectFrom('varsets').where(candidates)))), page), total);
}

/** A variable of a set, with its full row when the response shows variable attributes. */
export interface VariableRef {
  id: string;
  row?: VarsetVariable;
}

/** A workspace or project a set is assigned to: its id, and its row when the response includes it. */
export interface AssignmentRef<T> {
  id: string;
  row?: T;
}

export interface VarsetRelations {
  workspaces: Map<string, AssignmentRef<Workspace>[]>;
  projects: Map<string, AssignmentRef<Project>[]>;
  variables: Map<string, VariableRef[]>;
}

/** Which relationships to read with their rows; the others are read as ids alone, from the assignment indexes. */
export interface RelationRows {
  variables: boolean;
  workspaces: boolean;
  projects: boolean;
}

/**
 * Runs a query per slice of a list that comes from a request body, so that no statement
 * exceeds the stores' limits on bound parameters however long the list is.
 */
async function inSlices<T, R>(items: T[], run: (slice: T[]) => Promise<R[]>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += SLICE) results.push(...(await run(items.slice(i, i + SLICE))));
  return results;
}
const SLICE = 500;

/**
 * The workspaces, projects and variables of many sets at once: three queries whatever the
 * number of sets. Rows (variable values included) are read only for the relationships named
 * in `rows`; the others are read as ids alone, from the assignment and variable indexes.
 * Assignments come in the order of their ids, variables in list order.
 */
export async function loadRelations(db: Db, varsetIds: string[], rows: RelationRows): Promise<VarsetRelations> {
  const relations: VarsetRelations = { workspaces: new Map(), projects: new Map(), variables: new Map() };
  if (!varsetIds.length) return relations;
  const add = <T>(into: Map<string, T[]>, varsetId: string, ref: T): void => {
    const refs = into.get(varsetId);
    if (refs) refs.push(ref);
    else into.set(varsetId, [ref]);
  };
  const workspaces = rows.workspaces
    ? db
        .selectFrom('varset_workspaces')
        .innerJoin('workspaces', 'workspaces.id', 'varset_workspaces.workspace_id')
        .selectAll('workspaces')
        .select('varset_workspaces.varset_id')
        .where('varset_workspaces.varset_id', 'in', varsetIds)
        .orderBy(byCodePoint(db, 'varset_workspaces.workspace_id'))
        .execute()
        .then((found) => found.forEach(({ varset_id, ...row }) => add(relations.workspaces, varset_id, { id: row.id, row })))
    : db
        .selectFrom('varset_workspaces')
        .select(['varset_id', 'workspace_id'])
        .where('varset_id', 'in', varsetIds)
        .orderBy('varset_id')
        .orderBy(byCodePoint(db, 'workspace_id'))
        .execute()
        .then((found) => found.forEach((r) => add(relations.workspaces, r.varset_id, { id: r.workspace_id })));
  const projects = rows.projects
    ? db
        .selectFrom('varset_projects')
        .innerJoin('projects', 'projects.id', 'varset_projects.project_id')
        .selectAll('projects')
        .select('varset_projects.varset_id')
        .where('varset_projects.varset_id', 'in', varsetIds)
        .orderBy(byCodePoint(db, 'varset_projects.project_id'))
        .execute()
        .then((found) => found.forEach(({ varset_id, ...row }) => add(relations.projects, varset_id, { id: row.id, row })))
    : db
        .selectFrom('varset_projects')
        .select(['varset_id', 'project_id'])
        .where('varset_id', 'in', varsetIds)
        .orderBy('varset_id')
        .orderBy(byCodePoint(db, 'project_id'))
        .execute()
        .then((found) => found.forEach((r) => add(relations.projects, r.varset_id, { id: r.project_id })));
  const variables = rows.variables
    ? orderVariables(db.selectFrom('varset_variables').selectAll().where('varset_id', 'in', varsetIds), db)
        .execute()
        .then((found) => found.forEach((row) => add(relations.variables, row.varset_id, { id: row.id, row })))
    : orderVariables(db.selectFrom('varset_variables').select(['id', 'varset_id']).where('varset_id', 'in', varsetIds), db)
        .execute()
        .then((found) => found.forEach((r) => add(relations.variables, r.varset_id, { id: r.id })));
  await Promise.all([workspaces, projects, variables]);
  return relations;
}

/** Variables are listed by key (code point order), then category, then id. */
function orderVariables<Q extends { orderBy: (...args: any[]) => Q }>(query: Q, db: Db): Q {
  return query.orderBy(byCodePoint(db, 'varset_variables.key')).orderBy('varset_variables.category').orderBy('varset_variables.id');
}

export async function insertVarset(db: Db, varset: Insertable<VarsetTable>): Promise<void> {
  await db.insertInto('varsets').values(varset).execute();
}

export async function updateVarset(db: Db, id: string, changes: Updateable<VarsetTable>): Promise<void> {
  await db.updateTable('varsets').set(changes).where('id', '=', id).execute();
}

/** Keeps `global_organization_id` of a set's variables in step with the set's `global` flag. */
export async function setVariablesGlobal(db: Db, varset: { id: string; organization_id: string; global: boolean }): Promise<void> {
  await db
    .updateTable('varset_variables')
    .set({ global_organization_id: varset.global ? varset.organization_id : null })
    .where('varset_id', '=', varset.id)
    .execute();
}

export async function deleteVarset(db: Db, id: string): Promise<void> {
  await db.deleteFrom('varsets').where('id', '=', id).execute();
}

export function findWorkspacesById(db: Db, ids: string[]) {
  return inSlices(ids, (slice) => db.selectFrom('workspaces').select(['id', 'organization_id', 'project_id']).where('id', 'in', slice).execute());
}

export function findProjectsById(db: Db, ids: string[]) {
  return inSlices(ids, (slice) => db.selectFrom('projects').select(['id', 'organization_id']).where('id', 'in', slice).execute());
}

/** Adding an assignment that exists already changes nothing. */
export async function addWorkspaces(db: Db, varsetId: string, workspaceIds: string[]): Promise<void> {
  await inSlices(workspaceIds, async (slice) => {
    await db
      .insertInto('varset_workspaces')
      .values(slice.map((workspace_id) => ({ varset_id: varsetId, workspace_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
    return [];
  });
}

export async function removeWorkspaces(db: Db, varsetId: string, workspaceIds: string[] | 'all'): Promise<void> {
  if (workspaceIds === 'all') {
    await db.deleteFrom('varset_workspaces').where('varset_id', '=', varsetId).execute();
    return;
  }
  await inSlices(workspaceIds, async (slice) => {
    await db.deleteFrom('varset_workspaces').where('varset_id', '=', varsetId).where('workspace_id', 'in', slice).execute();
    return [];
  });
}

export async function addProjects(db: Db, varsetId: string, projectIds: string[]): Promise<void> {
  await inSlices(projectIds, async (slice) => {
    await db
      .insertInto('varset_projects')
      .values(slice.map((project_id) => ({ varset_id: varsetId, project_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
    return [];
  });
}

export async function removeProjects(db: Db, varsetId: string, projectIds: string[] | 'all'): Promise<void> {
  if (projectIds === 'all') {
    await db.deleteFrom('varset_projects').where('varset_id', '=', varsetId).execute();
    return;
  }
  await inSlices(projectIds, async (slice) => {
    await db.deleteFrom('varset_projects').where('varset_id', '=', varsetId).where('project_id', 'in', slice).execute();
    return [];
  });
}

export async function findVariable(db: Db, varsetId: string, id: string): Promise<VarsetVariable | undefined> {
  return db.selectFrom('varset_variables').selectAll().where('varset_id', '=', varsetId).where('id', '=', id).executeTakeFirst();
}

export async function listVariables(db: Db, varsetId: string, page: Page): Promise<{ rows: VarsetVariable[]; total: number }> {
  const rows = await orderVariables(db.selectFrom('varset_variables').selectAll().where('varset_id', '=', varsetId), db)
    .limit(page.size)
    .offset((page.number - 1) * page.size)
    .execute();
  const count = await db.selectFrom('varset_variables').where('varset_id', '=', varsetId).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return { rows, total: Number(count.total) };
}

export function listVariableKeys(db: Db, varsetId: string) {
  return db.selectFrom('varset_variables').select(['key', 'category']).where('varset_id', '=', varsetId).execute();
}

/** The variables of a set among `keys` (any category), to find those a write would duplicate. */
export function findVariablesByKey(db: Db, varsetId: string, keys: string[]) {
  return inSlices(keys, (slice) => db.selectFrom('varset_variables').select(['id', 'key', 'category']).where('varset_id', '=', varsetId).where('key', 'in', slice).execute());
}

/**
 * The variables of the organization's other global sets among `keys` (any category), with
 * their set's name. One query on the index that backs the global rule, however many global
 * sets there are (one per 500 keys).
 */
export function findGlobalVariablesByKey(db: Db, organizationId: string, exceptVarsetId: string, keys: string[]) {
  return inSlices(keys, (slice) =>
    db
      .selectFrom('varset_variables')
      .innerJoin('varsets', 'varsets.id', 'varset_variables.varset_id')
      .select(['varset_variables.key', 'varset_variables.category', 'varsets.name as varset_name'])
      .where('varset_variables.global_organization_id', '=', organizationId)
      .where('varset_variables.varset_id', '<>', exceptVarsetId)
      .where('varset_variables.key', 'in', slice)
      .execute(),
  );
}

export async function insertVariables(db: Db, variables: Insertable<VarsetVariableTable>[]): Promise<void> {
  await inSlices(variables, async (slice) => {
    await db.insertInto('varset_variables').values(slice).execute();
    return [];
  });
}

export async function updateVariable(db: Db, id: string, changes: Updateable<VarsetVariableTable>): Promise<void> {
  await db.updateTable('varset_variables').set(changes).where('id', '=', id).execute();
}

export async function deleteVariable(db: Db, varsetId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('varset_variables').where('varset_id', '=', varsetId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export type { Category };
