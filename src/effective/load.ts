import type { Db } from '../db/transaction.js';
import type { WorkspacePlace } from '../workspaces/model.js';
import type { Variable } from '../variables/model.js';
import { listVariables, variablesOfSets } from '../variables/service.js';
import { varsetsReachingWorkspace } from '../varsets/service.js';
import type { ReachingVarset } from '../varsets/model.js';
import type { ApplicableVarset, VarsetScope } from './resolve.js';
import {
  findAssignmentsOfWorkspacesReachedBy,
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

  const bySet = groupBy(
    await variablesOfSets(
      db,
      sets.map((s) => s.id),
    ),
    (v) => v.owner.id,
  );
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

/** A variable's identity among effective variables: its category and key together. */
export const variableIdentity = (v: { key: string; category: string }) => `${v.category}\u0000${v.key}`;

/** What a set reaches: its workspaces, and the stored candidate values of each. */
export interface Reach {
  workspaces: Map<string, ReachedWorkspace>;
  /** The variables of a set that reaches any of the workspaces (none for another). */
  variablesOf(varsetId: string): Variable[];
  /**
   * The candidates of a workspace, of the variables with these identities only: the resolver
   * settles each identity on its own, so their winners are those of all the candidates.
   */
  candidates(identities: ReadonlySet<string>): (workspaceId: string) => Candidates;
}

/**
 * Every stored candidate value of each workspace a set reaches, in five statements whatever the
 * number of workspaces, sets and variables: the workspaces; their variables; which sets are
 * assigned to the workspaces and to their projects; the variables of every set reaching any of
 * them (globally or so assigned), with their sets. Each workspace gets the sets `loadCandidates` would give it, with their versions
 * left out (null).
 */
export async function loadCandidatesOfReach(db: Db, varsetId: string): Promise<Reach> {
  const found = await findWorkspacesReachedBy(db, varsetId);
  const workspaces = new Map(found.map((w) => [w.id, w]));
  if (!found.length)
    return { workspaces, variablesOf: () => [], candidates: () => () => ({ workspaceVariables: [], varsets: [] }) };
  const organizationId = found[0]!.organization_id;
  const workspaceVariables = groupBy(await findVariablesOfWorkspacesReachedBy(db, varsetId), (v) => v.owner.id);
  const assignments = await findAssignmentsOfWorkspacesReachedBy(db, varsetId);
  const held = await findVariablesOfSetsReachingWorkspacesReachedBy(db, organizationId, varsetId);
  const sets = new Map(held.map(({ set }) => [set.id, set]));
  const setVariables = groupBy(
    held.map(({ variable }) => variable),
    (v) => v.owner.id,
  );
  const onWorkspace = groupBy(assignments.workspaces, (a) => a.targetId);
  const onProject = groupBy(assignments.projects, (a) => a.targetId);

  return {
    workspaces,
    variablesOf: (id) => setVariables.get(id) ?? [],
    candidates(identities) {
      const kept = (variables: Variable[] = []) => variables.filter((v) => identities.has(variableIdentity(v)));
      // Only the sets holding one of the variables count; each set's variables are filtered once.
      const holding = new Map(
        [...sets.values()].flatMap((set) => {
          const variables = kept(setVariables.get(set.id));
          return variables.length ? [[set.id, { set, variables }] as const] : [];
        }),
      );
      const globals = [...holding.keys()].filter((id) => holding.get(id)!.set.global);
      const holdingOf = (assigned: { varsetId: string }[] = []) =>
        new Set(assigned.map((a) => a.varsetId).filter((id) => holding.has(id)));
      return (workspaceId) => {
        const workspace = workspaces.get(workspaceId)!;
        const assignedHere = holdingOf(onWorkspace.get(workspace.id));
        const assignedToProject = holdingOf(onProject.get(workspace.project_id));
        const varsets = [...new Set([...globals, ...assignedHere, ...assignedToProject])].map((id) => {
          const { set, variables } = holding.get(id)!;
          return applicableVarset(
            { ...set, onProject: assignedToProject.has(id), onWorkspace: assignedHere.has(id), version: null },
            variables,
          );
        });
        return { workspaceVariables: kept(workspaceVariables.get(workspace.id)), varsets };
      };
    },
  };
}
