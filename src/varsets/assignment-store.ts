import { inSlices } from '../common/slices.js';
import { byCodePoint } from '../db/order.js';
import { PROJECT_COLUMNS, toProject, type Project } from '../projects/model.js';
import { WORKSPACE_COLUMNS, type Workspace, type WorkspacePlace } from '../workspaces/model.js';
import type { AssignmentKind, AssignmentRef } from './model.js';
import type { Db } from '../db/transaction.js';

/** The SQL of where sets are assigned: their workspaces and projects. Every function works on the database or a transaction. */

/** Where workspaces are: to check that a set may be applied to them. */
export function findWorkspacesById(db: Db, ids: string[]): Promise<WorkspacePlace[]> {
  return inSlices(ids, (slice) =>
    db.selectFrom('workspaces').select(['id', 'organization_id', 'project_id']).where('id', 'in', slice).execute(),
  );
}

export function findProjectsById(db: Db, ids: string[]): Promise<{ id: string; organization_id: string }[]> {
  return inSlices(ids, (slice) =>
    db.selectFrom('projects').select(['id', 'organization_id']).where('id', 'in', slice).execute(),
  );
}

const TABLE = { workspaces: 'varset_workspaces', projects: 'varset_projects' } as const;
const COLUMN = { workspaces: 'workspace_id', projects: 'project_id' } as const;

/** Adds assignments; one that exists already is left as it is. Answers how many were added. */
export async function addAssignments(db: Db, kind: AssignmentKind, varsetId: string, ids: string[]): Promise<number> {
  const added = await inSlices(ids, async (slice) => {
    const query =
      kind === 'workspaces'
        ? db
            .insertInto('varset_workspaces')
            .values(slice.map((workspace_id) => ({ varset_id: varsetId, workspace_id })))
        : db.insertInto('varset_projects').values(slice.map((project_id) => ({ varset_id: varsetId, project_id })));
    const result = await query.onConflict((oc) => oc.doNothing()).executeTakeFirst();
    return [Number(result.numInsertedOrUpdatedRows ?? 0n)];
  });
  return added.reduce((a, b) => a + b, 0);
}

/** Removes the listed assignments, or all of them. Answers how many were removed. */
export async function removeAssignments(
  db: Db,
  kind: AssignmentKind,
  varsetId: string,
  ids: string[] | 'all',
): Promise<number> {
  // Both tables have the same shape; the query is typed through the workspaces' one.
  const table = TABLE[kind] as 'varset_workspaces';
  const column = COLUMN[kind] as 'workspace_id';
  if (ids === 'all') {
    const result = await db.deleteFrom(table).where('varset_id', '=', varsetId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
  const removed = await inSlices(ids, async (slice) => {
    const result = await db
      .deleteFrom(table)
      .where('varset_id', '=', varsetId)
      .where(column, 'in', slice)
      .executeTakeFirst();
    return [Number(result.numDeletedRows)];
  });
  return removed.reduce((a, b) => a + b, 0);
}

/** Where a set is assigned, with the project of each workspace: what deciding a read by a team needs. */
export async function findAssignments(
  db: Db,
  varsetId: string,
): Promise<{ workspaces: { id: string; projectId: string }[]; projectIds: string[] }> {
  const [workspaces, projects] = await Promise.all([
    db
      .selectFrom('varset_workspaces')
      .innerJoin('workspaces', 'workspaces.id', 'varset_workspaces.workspace_id')
      .select(['workspaces.id', 'workspaces.project_id'])
      .where('varset_workspaces.varset_id', '=', varsetId)
      .execute(),
    db.selectFrom('varset_projects').select('project_id').where('varset_id', '=', varsetId).execute(),
  ]);
  return {
    workspaces: workspaces.map((w) => ({ id: w.id, projectId: w.project_id })),
    projectIds: projects.map((p) => p.project_id),
  };
}

type ByVarset<T> = Map<string, AssignmentRef<T>[]>;

function add<T>(into: ByVarset<T>, varsetId: string, ref: AssignmentRef<T>): void {
  const refs = into.get(varsetId);
  if (refs) refs.push(ref);
  else into.set(varsetId, [ref]);
}

/** The workspaces of many sets in one query, in the order of their ids. */
export async function workspacesOfSets(db: Db, varsetIds: string[]): Promise<ByVarset<Workspace>> {
  const found: ByVarset<Workspace> = new Map();
  if (!varsetIds.length) return found;
  const rows = await db
    .selectFrom('varset_workspaces')
    .innerJoin('workspaces', 'workspaces.id', 'varset_workspaces.workspace_id')
    .select(WORKSPACE_COLUMNS)
    .select('varset_workspaces.varset_id')
    .where('varset_workspaces.varset_id', 'in', varsetIds)
    .orderBy(byCodePoint(db, 'varset_workspaces.workspace_id'))
    .execute();
  for (const { varset_id, ...row } of rows) add(found, varset_id, { id: row.id, row });
  return found;
}

/** The projects of many sets in one query, in the order of their ids. */
export async function projectsOfSets(db: Db, varsetIds: string[]): Promise<ByVarset<Project>> {
  const found: ByVarset<Project> = new Map();
  if (!varsetIds.length) return found;
  const rows = await db
    .selectFrom('varset_projects')
    .innerJoin('projects', 'projects.id', 'varset_projects.project_id')
    .select(PROJECT_COLUMNS)
    .select('varset_projects.varset_id')
    .where('varset_projects.varset_id', 'in', varsetIds)
    .orderBy(byCodePoint(db, 'varset_projects.project_id'))
    .execute();
  for (const { varset_id, ...row } of rows) add(found, varset_id, { id: row.id, row: toProject(row) });
  return found;
}
