import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { reachingIds, type VarsetVariable } from '../varsets/store.js';
import { listVariables, type WorkspaceVariable } from '../workspace-variables/store.js';
import type { ApplicableVarset, VarsetScope } from './resolve.js';

/** Where a workspace is: what deciding which sets reach it needs. */
export interface WorkspaceLocation {
  id: string;
  organization_id: string;
  project_id: string;
}

export interface Candidates {
  workspaceVariables: WorkspaceVariable[];
  varsets: ApplicableVarset<VarsetVariable>[];
}

/**
 * Every stored candidate value for a workspace, in three queries whatever the number of
 * sets and variables: the workspace's variables; the sets that reach it, each with every
 * way it does; the variables of those sets. A set reaches a workspace when it is global in
 * the workspace's organization, assigned to the workspace's project, or assigned to the
 * workspace: the same sets the workspace's list of variable sets shows (`reachingIds`).
 */
export async function loadCandidates(db: Kysely<Database>, workspace: WorkspaceLocation): Promise<Candidates> {
  const workspaceVariables = await listVariables(db, workspace.id);
  const assignedToWorkspace = db.selectFrom('varset_workspaces').select('varset_workspaces.varset_id').where('varset_workspaces.workspace_id', '=', workspace.id);
  const assignedToProject = db.selectFrom('varset_projects').select('varset_projects.varset_id').where('varset_projects.project_id', '=', workspace.project_id);
  const sets = await db
    .selectFrom('varsets')
    .select(['varsets.id', 'varsets.name', 'varsets.project_id', 'varsets.global', 'varsets.priority'])
    .select((eb) => [eb('varsets.id', 'in', assignedToWorkspace).as('on_workspace'), eb('varsets.id', 'in', assignedToProject).as('on_project')])
    .where('varsets.organization_id', '=', workspace.organization_id)
    .where((eb) =>
      eb.or([
        eb('varsets.global', '=', true),
        eb('varsets.id', 'in', reachingIds(eb, { kind: 'workspace', organizationId: workspace.organization_id, projectId: workspace.project_id, workspaceId: workspace.id })),
      ]),
    )
    .execute();
  if (!sets.length) return { workspaceVariables, varsets: [] };

  const variables = await db.selectFrom('varset_variables').selectAll().where('varset_id', 'in', sets.map((s) => s.id)).execute();
  const bySet = new Map<string, VarsetVariable[]>();
  for (const variable of variables) {
    const list = bySet.get(variable.varset_id);
    if (list) list.push(variable);
    else bySet.set(variable.varset_id, [variable]);
  }
  return {
    workspaceVariables,
    varsets: sets.map((set) => {
      const scopes: VarsetScope[] = [];
      // PostgreSQL answers booleans, SQLite 0 or 1.
      if (set.global) scopes.push('global');
      if (Boolean(set.on_project)) scopes.push('project');
      if (Boolean(set.on_workspace)) scopes.push('workspace');
      return {
        id: set.id,
        name: set.name,
        owner: set.project_id === null ? 'organization' : 'project',
        priority: set.priority,
        scopes,
        variables: bySet.get(set.id) ?? [],
      };
    }),
  };
}
