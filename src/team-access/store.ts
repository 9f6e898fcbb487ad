import type { Scope } from '../auth/list-scopes.js';
import { fetchPage } from '../db/page.js';
import type { Db, Trx } from '../db/transaction.js';
import type { Page } from '../common/page.js';
import type { GrantPlace, TeamProject, TeamWorkspace } from './model.js';

const WORKSPACE_GRANT_COLUMNS = [
  'team_workspaces.id',
  'team_workspaces.team_id',
  'team_workspaces.workspace_id',
  'team_workspaces.access',
  'team_workspaces.runs',
  'team_workspaces.variables',
  'team_workspaces.state_versions',
  'team_workspaces.sentinel_mocks',
  'team_workspaces.workspace_locking',
  'team_workspaces.run_tasks',
  'team_workspaces.policy_overrides',
  'team_workspaces.created_at',
] as const;

const PROJECT_GRANT_COLUMNS = [
  'team_projects.id',
  'team_projects.team_id',
  'team_projects.project_id',
  'team_projects.access',
  'team_projects.settings',
  'team_projects.teams',
  'team_projects.variable_sets',
  'team_projects.workspace_create',
  'team_projects.workspace_move',
  'team_projects.workspace_locking',
  'team_projects.workspace_delete',
  'team_projects.workspace_runs',
  'team_projects.workspace_variables',
  'team_projects.workspace_state_versions',
  'team_projects.workspace_sentinel_mocks',
  'team_projects.workspace_run_tasks',
  'team_projects.workspace_policy_overrides',
  'team_projects.created_at',
] as const;

type WorkspaceGrantRow = Omit<TeamWorkspace, 'permissions'> & ReturnType<typeof workspaceColumns>;
type ProjectGrantRow = Omit<TeamProject, 'project' | 'workspace'> & ReturnType<typeof projectColumns>;

function workspaceColumns(p: TeamWorkspace['permissions']) {
  return {
    runs: p.runs,
    variables: p.variables,
    state_versions: p['state-versions'],
    sentinel_mocks: p['sentinel-mocks'],
    workspace_locking: p['workspace-locking'],
    run_tasks: p['run-tasks'],
    policy_overrides: p['policy-overrides'],
  };
}

function toTeamWorkspace({
  runs,
  variables,
  state_versions,
  sentinel_mocks,
  workspace_locking,
  run_tasks,
  policy_overrides,
  ...grant
}: WorkspaceGrantRow): TeamWorkspace {
  return {
    ...grant,
    permissions: {
      runs,
      variables,
      'state-versions': state_versions,
      'sentinel-mocks': sentinel_mocks,
      'workspace-locking': workspace_locking,
      'run-tasks': run_tasks,
      'policy-overrides': policy_overrides,
    },
  };
}

function projectColumns(project: TeamProject['project'], workspace: TeamProject['workspace']) {
  return {
    settings: project.settings,
    teams: project.teams,
    variable_sets: project['variable-sets'],
    workspace_create: workspace.create,
    workspace_move: workspace.move,
    workspace_locking: workspace.locking,
    workspace_delete: workspace.delete,
    workspace_runs: workspace.runs,
    workspace_variables: workspace.variables,
    workspace_state_versions: workspace['state-versions'],
    workspace_sentinel_mocks: workspace['sentinel-mocks'],
    workspace_run_tasks: workspace['run-tasks'],
    workspace_policy_overrides: workspace['policy-overrides'],
  };
}

function toTeamProject(row: ProjectGrantRow): TeamProject {
  return {
    id: row.id,
    team_id: row.team_id,
    project_id: row.project_id,
    access: row.access,
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
      'policy-overrides': row.workspace_policy_overrides,
    },
    created_at: row.created_at,
  };
}

// ---------------------------------------------------------------------------------------
// Team access to workspaces

export async function findTeamWorkspace(
  db: Db,
  id: string,
): Promise<{ grant: TeamWorkspace; place: GrantPlace } | undefined> {
  const row = await db
    .selectFrom('team_workspaces')
    .innerJoin('workspaces', 'workspaces.id', 'team_workspaces.workspace_id')
    .innerJoin('teams', 'teams.id', 'team_workspaces.team_id')
    .select(WORKSPACE_GRANT_COLUMNS)
    .select(['workspaces.organization_id', 'workspaces.project_id', 'teams.visibility as team_visibility'])
    .where('team_workspaces.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { organization_id, project_id, team_visibility, ...grant } = row;
  return { grant: toTeamWorkspace(grant), place: { organization_id, project_id, team_visibility } };
}

export async function teamHasWorkspaceGrant(db: Db, teamId: string, workspaceId: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('team_workspaces')
      .select('id')
      .where('team_id', '=', teamId)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst()) !== undefined
  );
}

export async function insertTeamWorkspace(trx: Trx, grant: TeamWorkspace): Promise<void> {
  const { permissions, ...columns } = grant;
  await trx
    .insertInto('team_workspaces')
    .values({ ...columns, ...workspaceColumns(permissions) })
    .execute();
}

export async function updateTeamWorkspace(trx: Trx, grant: TeamWorkspace): Promise<void> {
  await trx
    .updateTable('team_workspaces')
    .set({ access: grant.access, ...workspaceColumns(grant.permissions) })
    .where('id', '=', grant.id)
    .execute();
}

export async function deleteTeamWorkspace(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('team_workspaces').where('id', '=', id).execute();
}

export interface GrantFilter {
  teamId?: string | undefined;
  /** A workspace id for team-workspaces, a project id for team-projects. */
  resourceId?: string | undefined;
  scope: Exclude<Scope<{ teamId: string }>, 'none'>;
}

export async function listTeamWorkspaces(
  db: Db,
  filter: GrantFilter,
  page: Page,
): Promise<{ rows: TeamWorkspace[]; total: number }> {
  let base = db.selectFrom('team_workspaces');
  if (filter.resourceId !== undefined) base = base.where('workspace_id', '=', filter.resourceId);
  if (filter.teamId !== undefined) base = base.where('team_id', '=', filter.teamId);
  if (filter.scope !== 'all') base = base.where('team_id', '=', filter.scope.teamId);
  const { rows, total } = await fetchPage(db, base, page, (q) =>
    q.select(WORKSPACE_GRANT_COLUMNS).orderBy('created_at').orderBy('id'),
  );
  return { rows: rows.map(toTeamWorkspace), total };
}

// ---------------------------------------------------------------------------------------
// Team access to projects

export async function findTeamProject(
  db: Db,
  id: string,
): Promise<{ grant: TeamProject; place: GrantPlace } | undefined> {
  const row = await db
    .selectFrom('team_projects')
    .innerJoin('projects', 'projects.id', 'team_projects.project_id')
    .innerJoin('teams', 'teams.id', 'team_projects.team_id')
    .select(PROJECT_GRANT_COLUMNS)
    .select(['projects.organization_id', 'teams.visibility as team_visibility'])
    .where('team_projects.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { organization_id, team_visibility, ...grant } = row;
  return { grant: toTeamProject(grant), place: { organization_id, project_id: grant.project_id, team_visibility } };
}

export async function teamHasProjectGrant(db: Db, teamId: string, projectId: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('team_projects')
      .select('id')
      .where('team_id', '=', teamId)
      .where('project_id', '=', projectId)
      .executeTakeFirst()) !== undefined
  );
}

export async function insertTeamProject(trx: Trx, grant: TeamProject): Promise<void> {
  const { project, workspace, ...columns } = grant;
  await trx
    .insertInto('team_projects')
    .values({ ...columns, ...projectColumns(project, workspace) })
    .execute();
}

export async function updateTeamProject(trx: Trx, grant: TeamProject): Promise<void> {
  await trx
    .updateTable('team_projects')
    .set({ access: grant.access, ...projectColumns(grant.project, grant.workspace) })
    .where('id', '=', grant.id)
    .execute();
}

export async function deleteTeamProject(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('team_projects').where('id', '=', id).execute();
}

/** The same as `listTeamWorkspaces`, for projects. */
export async function listTeamProjects(
  db: Db,
  filter: GrantFilter,
  page: Page,
): Promise<{ rows: TeamProject[]; total: number }> {
  let base = db.selectFrom('team_projects');
  if (filter.resourceId !== undefined) base = base.where('project_id', '=', filter.resourceId);
  if (filter.teamId !== undefined) base = base.where('team_id', '=', filter.teamId);
  if (filter.scope !== 'all') base = base.where('team_id', '=', filter.scope.teamId);
  const { rows, total } = await fetchPage(db, base, page, (q) =>
    q.select(PROJECT_GRANT_COLUMNS).orderBy('created_at').orderBy('id'),
  );
  return { rows: rows.map(toTeamProject), total };
}
