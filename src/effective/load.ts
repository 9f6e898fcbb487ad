import type { Db } from '../db/transaction.js';
import type { WorkspacePlace } from '../workspaces/model.js';
import type { Variable } from '../variables/model.js';
import { listVariables, variablesOfSets } from '../variables/service.js';
import { varsetsReachingWorkspace } from '../varsets/service.js';
import type { ReachingVarset } from '../varsets/model.js';
import type { ApplicableVarset, VarsetScope } from './resolve.js';
import {
  findAssignmentsOfWorkspacesReachedBy,
  findSetsReachingWorkspacesReachedBy,
  findVariablesOfSetsReachingWorkspacesReachedBy,
  findVariablesOfWorkspacesReachedBy,
  findWorkspacesReachedBy,
  type ReachedWorkspace,
} from './reach-store.js';

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

  const bySet = groupBy(await variablesOfSets(db, sets.map((s) => s.id)), (v) => v.owner.id);
  return { workspaceVariables, varsets: sets.map((set) => applicableVarset(set, bySet.get(set.id) ?? [])) };
}

/** A set that reaches a workspace, as the resolver takes it. */
export function applicableVarset(set: ReachingVarset, variables: Variable[]): ApplicableVarset<Variable> {
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
    variables,
  };
}

/** Items grouped by a key. */
function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** A workspace a set reaches, with every stored candidate value of it. */
export interface WorkspaceCandidates {
  workspace: ReachedWorkspace;
  candidates: Candidates;
}

/**
 * Every stored candidate value of each workspace a set reaches, by workspace id, in six
 * statements whatever the number of workspaces, sets and variables: the workspaces; their
 * variables; the sets reaching any of them; which of those are assigned to the workspaces and
 * to their projects; those sets' variables. Each workspace gets the sets `loadCandidates`
 * would give it, with their versions left out (null).
 */
export async function loadCandidatesOfReach(db: Db, varsetId: string): Promise<Map<string, WorkspaceCandidates>> {
  const workspaces = await findWorkspacesReachedBy(db, varsetId);
  if (!workspaces.length) return new Map();
  const organizationId = workspaces[0]!.organization_id;
  const workspaceVariables = groupBy(await findVariablesOfWorkspacesReachedBy(db, varsetId), (v) => v.owner.id);
  const sets = await findSetsReachingWorkspacesReachedBy(db, organizationId, varsetId);
  const assignments = await findAssignmentsOfWorkspacesReachedBy(db, varsetId);
  const setVariables = groupBy(await findVariablesOfSetsReachingWorkspacesReachedBy(db, organizationId, varsetId), (v) => v.owner.id);

  const onWorkspace = groupBy(assignments.workspaces, (a) => a.targetId);
  const onProject = groupBy(assignments.projects, (a) => a.targetId);
  const setsById = new Map(sets.map((set) => [set.id, set]));
  const globals = sets.filter((set) => set.global).map((set) => set.id);
  const result = new Map<string, WorkspaceCandidates>();
  for (const workspace of workspaces) {
    const assignedHere = new Set((onWorkspace.get(workspace.id) ?? []).map((a) => a.varsetId));
    const assignedToProject = new Set((onProject.get(workspace.project_id) ?? []).map((a) => a.varsetId));
    const varsets = [...new Set([...globals, ...assignedHere, ...assignedToProject])].map((id) => {
      const set = setsById.get(id)!;
      const reaching: ReachingVarset = { ...set, onProject: assignedToProject.has(id), onWorkspace: assignedHere.has(id), version: null };
      return applicableVarset(reaching, setVariables.get(id) ?? []);
    });
    result.set(workspace.id, { workspace, candidates: { workspaceVariables: workspaceVariables.get(workspace.id) ?? [], varsets } });
  }
  return result;
}
