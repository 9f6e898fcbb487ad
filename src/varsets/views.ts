import { can } from '../auth/decisions.js';
import type { Subject } from '../auth/subject.js';
import type { Db } from '../db/transaction.js';
import { variablesOfSets } from '../variables/service.js';
import { projectsOfSets, workspacesOfSets } from './assignment-store.js';
import type { Varset, VarsetInclude, VarsetRead, VarsetView } from './model.js';
import { locationOfWorkspace } from '../common/location.js';

/**
 * A set with its workspaces, projects and variables read in full, as create and update
 * responses show it: three queries.
 */
export async function loadView(db: Db, varset: Varset): Promise<VarsetView> {
  const ids = [varset.id];
  const [workspaces, projects, variables] = await Promise.all([
    workspacesOfSets(db, ids),
    projectsOfSets(db, ids),
    variablesOfSets(db, ids),
  ]);
  return {
    varset,
    workspaces: workspaces.get(varset.id) ?? [],
    projects: projects.get(varset.id) ?? [],
    variables: variables.map((row) => ({ id: row.id, row })),
  };
}

/**
 * The views of sets read with their relationships (`VarsetRead`, which carries the variables'
 * rows when `include` asks for them): the workspaces and projects `include` asks for cost a
 * query each, whatever the number of sets.
 */
export async function completeViews(db: Db, reads: VarsetRead[], include: Set<VarsetInclude>): Promise<VarsetView[]> {
  const ids = reads.map((read) => read.varset.id);
  const none = async () => undefined;
  const [workspaces, projects] = await Promise.all([
    include.has('workspaces') ? workspacesOfSets(db, ids) : none(),
    include.has('projects') ? projectsOfSets(db, ids) : none(),
  ]);
  return reads.map(({ varset, relations }) => {
    const { workspaceIds, projectIds, variables } = relations();
    return {
      varset,
      workspaces: workspaces ? (workspaces.get(varset.id) ?? []) : workspaceIds.map((id) => ({ id })),
      projects: projects ? (projects.get(varset.id) ?? []) : projectIds.map((id) => ({ id })),
      variables,
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
    projects: view.projects.map(({ id, row }) =>
      row && can(subject, 'project:read', { organizationId: row.organization_id, projectId: row.id })
        ? { id, row }
        : { id },
    ),
  }));
}

/**
 * Whether what `include` adds is the same for every caller who may read the sets: not when it
 * includes workspaces (each carries the caller's own permissions on it) or projects (whom the
 * caller may see decides which are included).
 */
export function includesAlike(include: Set<VarsetInclude>): boolean {
  return !include.has('workspaces') && !include.has('projects');
}
