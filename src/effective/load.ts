import type { Db } from '../db/transaction.js';
import type { WorkspacePlace } from '../workspaces/model.js';
import type { Variable } from '../variables/model.js';
import { listVariables, variablesOfSets } from '../variables/service.js';
import { varsetsReachingWorkspace } from '../varsets/service.js';
import type { ApplicableVarset, VarsetScope } from './resolve.js';

export interface Candidates {
  workspaceVariables: Variable[];
  varsets: ApplicableVarset<Variable>[];
}

/**
 * Every stored candidate value for a workspace, in three queries whatever the number of
 * sets and variables: the workspace's variables; the sets that reach it, each with every
 * way it does; the variables of those sets. A set reaches a workspace when it is global in
 * the workspace's organization, assigned to the workspace's project, or assigned to the
 * workspace: the same sets the workspace's list of variable sets shows.
 */
export async function loadCandidates(db: Db, workspace: WorkspacePlace): Promise<Candidates> {
  const workspaceVariables = await listVariables(db, { kind: 'workspace', id: workspace.id });
  const sets = await varsetsReachingWorkspace(db, workspace);
  if (!sets.length) return { workspaceVariables, varsets: [] };

  const bySet = new Map<string, Variable[]>();
  for (const variable of await variablesOfSets(db, sets.map((s) => s.id))) {
    const list = bySet.get(variable.owner.id);
    if (list) list.push(variable);
    else bySet.set(variable.owner.id, [variable]);
  }
  return {
    workspaceVariables,
    varsets: sets.map((set) => {
      const scopes: VarsetScope[] = [];
      if (set.global) scopes.push('global');
      if (set.onProject) scopes.push('project');
      if (set.onWorkspace) scopes.push('workspace');
      return {
        id: set.id,
        name: set.name,
        owner: set.ownerProjectId === null ? 'organization' : 'project',
        priority: set.priority,
        version: set.version,
        scopes,
        variables: bySet.get(set.id) ?? [],
      };
    }),
  };
}
