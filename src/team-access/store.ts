import type { Kysely, Selectable } from 'kysely';
import type { ProjectPermissionSet, ProjectWorkspacePermissionSet, WorkspacePermissionSet } from '../auth/levels.js';
import type { Scope } from '../auth/policy.js';
import type { Database, TeamProjectTable, TeamWorkspaceTable } from '../db/schema.js';
import type { Page } from '../jsonapi/query.js';
import { fetchPage } from '../db/page.js';

export type TeamWorkspace = Selectable<TeamWorkspaceTable>;
export type TeamProject = Selectable<TeamProjectTable>;

/** The fine-grained permissions a team-workspaces row holds. */
export const workspacePermissionsOf = (row: TeamWorkspace): WorkspacePermissionSet => ({
  runs: row.runs,
  variables: row.variables,
  'state-versions': row.state_versions,
  'sentinel-mocks': row.sentinel_mocks,
  'workspace-locking': row.workspace_locking,
  'run-tasks': row.run_tasks,
});

/** The `project-access` and `workspace-access` a team-projects row holds. */
export const projectPermissionsOf = (row: TeamProject): { project: ProjectPermissionSet; workspace: ProjectWorkspacePermissionSet } => ({
  project: { settings: row.settings, teams: row.teams, 'variable-sets': row.variable_sets },
  workspace: {
    create: row.workspace_create,
    move: row.workspace_move,
    locking: row.workspace_locking,
    delete: row.workspace_delete,
    runs: row.workspace_runs,
    variables: row.workspace_variables,
    'state-versions': row.workspace_state_versions,
    'sentinel-mocks': row.workspace_sentinel_mocks,
    'run-tasks': row.workspace_run_tasks,
  },
});

/** Where a grant sits, for the permission decision on it. */
export interface GrantContext {
  organization_id: string;
  project_id: string;
  team_visibility: 'secret' | 'organization';
}

export function findTeamWorkspace(db: Kysely<Database>, id: string): Promise<(TeamWorkspace & GrantContext) | undefined> {
  return db
    .selectFrom('team_workspaces')
    .innerJoin('workspaces', 'workspaces.id', 'team_workspaces.workspace_id')
    .innerJoin('teams', 'teams.id', 'team_workspaces.team_id')
    .selectAll('team_workspaces')
    .select(['workspaces.organization_id', 'workspaces.project_id', 'teams.visibility as team_visibility'])
    .where('team_workspaces.id', '=', id)
    .executeTakeFirst();
}

export function findTeamProject(db: Kysely<Database>, id: string): Promise<(TeamProject & GrantContext) | undefined> {
  return db
    .selectFrom('team_projects')
    .innerJoin('projects', 'projects.id', 'team_projects.project_id')
    .innerJoin('teams', 'teams.id', 'team_projects.team_id')
    .selectAll('team_projects')
    .select(['projects.organization_id', 'teams.visibility as team_visibility'])
    .where('team_projects.id', '=', id)
    .executeTakeFirst();
}

export interface GrantFilter {
  teamId?: string | undefined;
  /** A workspace id for team-workspaces, a project id for team-projects. */
  resourceId?: string | undefined;
  scope: Exclude<Scope<{ teamId: string }>, 'none'>;
}

export async function listTeamWorkspaces(db: Kysely<Database>, filter: GrantFilter, page: Page): Promise<{ rows: TeamWorkspace[]; total: number }> {
  let base = db.selectFrom('team_workspaces');
  if (filter.resourceId !== undefined) base = base.where('workspace_id', '=', filter.resourceId);
  if (filter.teamId !== undefined) base = base.where('team_id', '=', filter.teamId);
  if (filter.scope !== 'all') base = base.where('team_id', '=', filter.scope.teamId);
  return fetchPage(db, base, page, (q) => q.selectAll().orderBy('created_at').orderBy('id'));
}

/** The same as `listTeamWorkspaces`, for projects. */
export async function listTeamProjects(db: Kysely<Database>, filter: GrantFilter, page: Page): Promise<{ rows: TeamProject[]; total: number }> {
  let base = db.selectFrom('team_projects');
  if (filter.resourceId !== undefined) base = base.where('project_id', '=', filter.resourceId);
  if (filter.teamId !== undefined) base = base.where('team_id', '=', filter.teamId);
  if (filter.scope !== 'all') base = base.where('team_id', '=', filter.scope.teamId);
  return fetchPage(db, base, page, (q) => q.selectAll().orderBy('created_at').orderBy('id'));
}
