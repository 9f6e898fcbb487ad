import { can } from '../auth/policy.js';
import type { Subject } from '../auth/subject.js';
import type { Db } from '../db/transaction.js';
import { variableIdsOfSets, variablesOfSets } from '../variables/service.js';
import { projectsOfSets, workspacesOfSets } from './assignment-store.js';
import type { RelationRows, Varset, VariableRef, VarsetInclude, VarsetRead, VarsetView } from './model.js';
import { locationOfWorkspace } from '../common/location.js';

/** Relationships read in full for what `include` asks for; create and update responses read them all. */
export const rowsFor = (include: Set<VarsetInclude>): RelationRows => ({ variables: include.has('vars'), workspaces: include.has('workspaces'), projects: include.has('projects') });
export const ALL_ROWS: RelationRows = { variables: true, workspaces: true, projects: true };

async function variablesOf(db: Db, varsetIds: string[], withRows: boolean): Promise<Map<string, VariableRef[]>> {
  const found = new Map<string, VariableRef[]>();
  const refs = withRows
    ? (await variablesOfSets(db, varsetIds)).map((row) => ({ varsetId: row.owner.id, ref: { id: row.id, row } }))
    : (await variableIdsOfSets(db, varsetIds)).map(({ id, varsetId }) => ({ varsetId, ref: { id } }));
  for (const { varsetId, ref } of refs) {
    const list = found.get(varsetId);
    if (list) list.push(ref);
    else found.set(varsetId, [ref]);
  }
  return found;
}

/**
 * The sets with their workspaces, projects and variables: three queries whatever the number
 * of sets. Relationships not named in `rows` are read as ids alone, from the indexes.
 */
export async function loadViews(db: Db, varsets: Varset[], rows: RelationRows): Promise<VarsetView[]> {
  const ids = varsets.map((v) => v.id);
  const [workspaces, projects, variables] = await Promise.all([
    workspacesOfSets(db, ids, rows.workspaces),
    projectsOfSets(db, ids, rows.projects),
    variablesOf(db, ids, rows.variables),
  ]);
  return varsets.map((varset) => ({
    varset,
    workspaces: workspaces.get(varset.id) ?? [],
    projects: projects.get(varset.id) ?? [],
    variables: variables.get(varset.id) ?? [],
  }));
}

export async function loadView(db: Db, varset: Varset, rows: RelationRows): Promise<VarsetView> {
  return (await loadViews(db, [varset], rows))[0]!;
}

/**
 * The views of sets read with their relationships (`VarsetRead`): only the rows `include`
 * asks for and the read did not carry cost a query, one per kind whatever the number of sets.
 */
export async function completeViews(db: Db, reads: VarsetRead[], rows: RelationRows): Promise<VarsetView[]> {
  const ids = reads.map((read) => read.varset.id);
  const none = async () => undefined;
  const [workspaces, projects, variables] = await Promise.all([
    rows.workspaces && ids.length ? workspacesOfSets(db, ids, true) : none(),
    rows.projects && ids.length ? projectsOfSets(db, ids, true) : none(),
    rows.variables && reads.some((read) => !read.relations().variableRows) ? variablesOf(db, ids, true) : none(),
  ]);
  return reads.map(({ varset, relations }) => {
    const { workspaceIds, projectIds, variables: carried } = relations();
    return {
      varset,
      workspaces: workspaces ? (workspaces.get(varset.id) ?? []) : workspaceIds.map((id) => ({ id })),
      projects: projects ? (projects.get(varset.id) ?? []) : projectIds.map((id) => ({ id })),
      variables: variables ? (variables.get(varset.id) ?? []) : carried,
    };
  });
}

/**
 * The views as `subject` may see them: the workspaces and projects it may not read keep their
 * ids in the relationships (the counts match them), but lose their rows, so `include` never
 * puts their names and attributes in `included`.
 */
export function readableBy(subject: Subject, views: VarsetView[]): VarsetView[] {
  return views.map((view) => ({
    ...view,
    workspaces: view.workspaces.map(({ id, row }) =>
      row && can(subject, 'workspace:read', locationOfWorkspace(row)) ? { id, row } : { id },
    ),
    projects: view.projects.map(({ id, row }) => (row && can(subject, 'project:read', { organizationId: row.organization_id, projectId: row.id }) ? { id, row } : { id })),
  }));
}

/**
 * Whether what `include` adds is the same for every caller who may read the sets: not when it
 * includes workspaces (each carries the caller's own permissions on it) or projects (whom the
 * caller may see decides which are included).
 */
export function includesAlike(include: Set<VarsetInclude>): boolean {
  // Included workspaces carry the caller's own permissions on each; included projects, who may see them.
  return !include.has('workspaces') && !include.has('projects');
}
