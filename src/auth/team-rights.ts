import type { Target, VarsetApplicability } from './actions.js';
import type { Level, TeamRights, WorkspaceRights } from './subject.js';

// What a team's organization access and grants add up to: the rights `teamCan` (decisions.ts) decides by.

const FULL_WORKSPACE: WorkspaceRights = {
  runs: 3,
  variables: 2,
  admin: true,
  delete: true,
  lock: true,
  runTasks: true,
};
const READ_WORKSPACE: WorkspaceRights = {
  runs: 1,
  variables: 1,
  admin: false,
  delete: false,
  lock: false,
  runTasks: false,
};

function greatest(a: WorkspaceRights | null, b: WorkspaceRights | undefined): WorkspaceRights | null {
  if (!b) return a;
  if (!a) return b;
  return {
    runs: Math.max(a.runs, b.runs) as WorkspaceRights['runs'],
    variables: Math.max(a.variables, b.variables) as Level,
    admin: a.admin || b.admin,
    delete: a.delete || b.delete,
    lock: a.lock || b.lock,
    runTasks: a.runTasks || b.runTasks,
  };
}

/** What a team may do on a workspace, or null when it may not even see it. */
export function workspaceRights(
  team: TeamRights,
  workspaceId: string,
  projectId: string | null,
): WorkspaceRights | null {
  if (team.manageWorkspaces) return FULL_WORKSPACE;
  let rights: WorkspaceRights | null = team.readWorkspaces ? READ_WORKSPACE : null;
  rights = greatest(rights, team.workspaces.get(workspaceId)?.rights);
  if (projectId !== null) rights = greatest(rights, team.projects.get(projectId)?.workspaces);
  return rights;
}

export function projectVisible(team: TeamRights, projectId: string): boolean {
  if (team.manageWorkspaces || team.readProjects || team.readWorkspaces || team.projects.has(projectId)) return true;
  for (const grant of team.workspaces.values()) if (grant.projectId === projectId) return true;
  return false;
}

/** Every team sees a team whose visibility is `organization`; a secret team is seen by itself, owners and access-secret-teams. */
export function teamVisible(teamId: string, team: TeamRights, target: Target): boolean {
  return (
    target.team !== undefined &&
    (team.owners || team.accessSecretTeams || target.team.visibility === 'organization' || target.team.id === teamId)
  );
}

/** Only owners manage the owners team: a team managing teams cannot give itself the owners' token. */
export function otherTeamThanOwners(target: Target): boolean {
  return target.team !== undefined && !target.team.owners;
}

/** Read variables on every workspace, current and future: the organization's whole list of sets is visible. */
export function organizationWideVariableRead(team: TeamRights): boolean {
  return team.manageWorkspaces || team.readWorkspaces;
}

/** Read variables through a project: on its workspaces, or on the sets it owns. */
function projectVarsetRead(team: TeamRights, projectId: string): boolean {
  const grant = team.projects.get(projectId);
  return grant !== undefined && (grant.varsets >= 1 || grant.workspaces.variables >= 1);
}

/**
 * A set is readable with Read variables on at least one workspace or project where it
 * applies (a global set applies everywhere), or through the project that owns it.
 */
export function varsetReadable(team: TeamRights, set: VarsetApplicability): boolean {
  if (organizationWideVariableRead(team)) return true;
  const scope = teamVarsetScope(team);
  if (set.ownerProjectId !== null && scope.ownerProjectIds.includes(set.ownerProjectId)) return true;
  if (set.global && scope.global) return true;
  if (set.workspaces?.some((w) => scope.workspaceIds.includes(w.id) || scope.workspaceProjectIds.includes(w.projectId)))
    return true;
  return set.projectIds?.some((p) => scope.projectIds.includes(p)) ?? false;
}

/** Creating, changing, deleting, assigning a set and its variables: manage-workspaces, or write on the sets of the owning project. */
export function varsetWritable(team: TeamRights, set: VarsetApplicability): boolean {
  if (team.manageWorkspaces) return true;
  return set.ownerProjectId !== null && team.projects.get(set.ownerProjectId)?.varsets === 2;
}

/**
 * Variable sets a team may read, as the store's list condition: global sets when it reads
 * variables anywhere; sets assigned to `workspaceIds`, to any workspace of
 * `workspaceProjectIds`, or to `projectIds`; sets owned by `ownerProjectIds`.
 */
export interface VarsetReadScope {
  global: boolean;
  workspaceIds: string[];
  workspaceProjectIds: string[];
  projectIds: string[];
  ownerProjectIds: string[];
}

const varsetScopes = new WeakMap<TeamRights, VarsetReadScope>();

export function teamVarsetScope(team: TeamRights): VarsetReadScope {
  let scope = varsetScopes.get(team);
  if (scope) return scope;
  const workspaceIds: string[] = [];
  const workspaceProjectIds: string[] = [];
  const projectIds = new Set<string>();
  const ownerProjectIds: string[] = [];
  for (const [id, grant] of team.workspaces) {
    if (grant.rights.variables < 1) continue;
    workspaceIds.push(id);
    projectIds.add(grant.projectId);
  }
  for (const [id, grant] of team.projects) {
    if (grant.workspaces.variables >= 1) {
      workspaceProjectIds.push(id);
      projectIds.add(id);
    }
    if (projectVarsetRead(team, id)) ownerProjectIds.push(id);
  }
  scope = {
    global: workspaceIds.length > 0 || workspaceProjectIds.length > 0,
    workspaceIds,
    workspaceProjectIds,
    projectIds: [...projectIds],
    ownerProjectIds,
  };
  varsetScopes.set(team, scope);
  return scope;
}
