import type { Context } from '../auth/context.js';
import { PROJECT_ACCESS, PROJECT_LEVELS, WORKSPACE_ACCESS, WORKSPACE_LEVELS } from '../auth/levels.js';
import { ensure } from '../auth/decisions.js';
import { teamAccessListScope } from '../auth/list-scopes.js';
import type { Target } from '../auth/actions.js';
import { recordAuditEvent } from '../audit/service.js';
import { transaction, type Trx } from '../db/transaction.js';
import { newId, now } from '../common/ids.js';
import { NotFound, Invalid, Unprocessable } from '../common/errors.js';
import type { Page } from '../common/page.js';
import { getProject } from '../projects/service.js';
import type { Team } from '../teams/model.js';
import { getTeam } from '../teams/service.js';
import { getWorkspace } from '../workspaces/service.js';
import type { GrantPlace, TeamProject, TeamProjectChanges, TeamWorkspace, TeamWorkspaceChanges } from './model.js';
import * as store from './store.js';
import { locationOfWorkspace } from '../common/location.js';

/**
 * The complete permission set of a grant: a fixed level's own set (a fine-grained value that
 * disagrees with it is refused), or for `custom` the given values over `start`. `at` is the
 * attribute the permissions are under (`project-access`), or '' for the top level.
 */
function resolve<T extends object>(access: string, fixed: T | undefined, start: T, given: Partial<T>, at: string): T {
  if (fixed === undefined) return { ...start, ...given };
  for (const [name, value] of Object.entries(given)) {
    // HCP Terraform's words, which go-tfe's tests compare (the attribute humanized: `state-versions` is "State versions").
    const label = name.charAt(0).toUpperCase() + name.slice(1).replace(/-/g, ' ');
    if (fixed[name as keyof T] !== value)
      throw new Invalid(
        at === '' ? name : `${at}.${name}`,
        `${label} is read-only when access level is '${access}'; use the 'custom' access level to set this attribute.`,
      );
  }
  return fixed;
}

function required<T>(value: T | undefined, relationship: string): T {
  if (value === undefined) throw new Invalid(relationship, `the ${relationship} relationship is required`);
  return value;
}

function requiredAccess<A extends string>(access: A | undefined, allowed: readonly A[]): A {
  if (access === undefined) throw new Invalid('access', `access can't be blank; it is one of ${allowed.join(', ')}`);
  return access;
}

const alreadyGranted = (what: string) => new Invalid('team', `Team already has access to this ${what}`);
const ownersHaveAll = () =>
  new Unprocessable('the owners team has every permission already; its access cannot be changed', 'team');

/** A team of the resource's organization, visible to the caller; anything else is a 404. */
async function teamOf(ctx: Context, teamId: string, organizationId: string): Promise<Team> {
  const { team } = await getTeam(ctx, teamId);
  if (team.organization_id !== organizationId) throw new NotFound();
  return team;
}

function grantTarget(place: GrantPlace, teamId: string, workspaceId?: string): Target {
  return {
    organizationId: place.organization_id,
    projectId: place.project_id,
    ...(workspaceId ? { workspaceId } : {}),
    team: { id: teamId, visibility: place.team_visibility },
  };
}

/** Which grants a list shows: those of a team, those on one workspace or project, or both. */
export type GrantListFilter =
  { teamId: string; resourceId?: undefined } | { teamId?: string | undefined; resourceId: string };

// ---------------------------------------------------------------------------------------
// Team access to workspaces

export interface NewTeamWorkspace extends TeamWorkspaceChanges {
  teamId?: string | undefined;
  workspaceId?: string | undefined;
}

export async function createTeamWorkspace(ctx: Context, command: NewTeamWorkspace): Promise<TeamWorkspace> {
  const teamId = required(command.teamId, 'team');
  const workspaceId = required(command.workspaceId, 'workspace');
  const { workspace } = await getWorkspace(ctx, { id: workspaceId });
  const team = await teamOf(ctx, teamId, workspace.organization_id);
  ensure(
    ctx.subject,
    'team-workspace:manage',
    grantTarget({ ...workspace, team_visibility: team.visibility }, team.id, workspace.id),
  );
  if (team.is_owners) throw ownersHaveAll();
  const access = requiredAccess(command.access, WORKSPACE_ACCESS);
  const permissions = resolve(
    access,
    access === 'custom' ? undefined : WORKSPACE_LEVELS[access],
    WORKSPACE_LEVELS.custom,
    command.permissions,
    '',
  );
  const grant: TeamWorkspace = {
    id: newId('tws'),
    team_id: team.id,
    workspace_id: workspace.id,
    access,
    permissions,
    created_at: now(),
  };
  await transaction(ctx.store, async (trx) => {
    if (await store.teamHasWorkspaceGrant(trx, team.id, workspace.id)) throw alreadyGranted('workspace');
    await store.insertTeamWorkspace(trx, grant);
    recordWorkspaceGrant(trx, ctx, workspace.organization_id, grant, 'add_team');
  });
  return grant;
}

async function findTeamWorkspace(
  ctx: Context,
  id: string,
  action: 'team-workspace:read' | 'team-workspace:manage',
): Promise<{ grant: TeamWorkspace; place: GrantPlace }> {
  const found = await store.findTeamWorkspace(ctx.store.db, id);
  if (!found) throw new NotFound();
  ensure(ctx.subject, action, grantTarget(found.place, found.grant.team_id, found.grant.workspace_id));
  return found;
}

export const getTeamWorkspace = async (ctx: Context, id: string): Promise<TeamWorkspace> =>
  (await findTeamWorkspace(ctx, id, 'team-workspace:read')).grant;

/** HCP Terraform's words: a workspace gains a team, has its permissions changed, loses it. */
function recordWorkspaceGrant(
  trx: Trx,
  ctx: Context,
  organizationId: string,
  grant: TeamWorkspace,
  action: 'add_team' | 'update_team_permissions' | 'remove_team',
): void {
  const meta = { team: grant.team_id, access: grant.access, team_workspace_id: grant.id };
  recordAuditEvent(trx, ctx, { organizationId, type: 'workspace', id: grant.workspace_id, action, meta });
}

export async function updateTeamWorkspace(
  ctx: Context,
  id: string,
  changes: TeamWorkspaceChanges,
): Promise<TeamWorkspace> {
  const { grant: current, place } = await findTeamWorkspace(ctx, id, 'team-workspace:manage');
  const access = changes.access ?? current.access;
  const permissions = resolve(
    access,
    access === 'custom' ? undefined : WORKSPACE_LEVELS[access],
    current.permissions,
    changes.permissions,
    '',
  );
  const grant: TeamWorkspace = { ...current, access, permissions };
  await transaction(ctx.store, async (trx) => {
    await store.updateTeamWorkspace(trx, grant);
    recordWorkspaceGrant(trx, ctx, place.organization_id, grant, 'update_team_permissions');
  });
  return grant;
}

export async function deleteTeamWorkspace(ctx: Context, id: string): Promise<void> {
  const { grant, place } = await findTeamWorkspace(ctx, id, 'team-workspace:manage');
  await transaction(ctx.store, async (trx) => {
    await store.deleteTeamWorkspace(trx, id);
    recordWorkspaceGrant(trx, ctx, place.organization_id, grant, 'remove_team');
  });
}

/** Grants on one workspace, of one team, or both. */
export async function listTeamWorkspaceGrants(ctx: Context, filter: GrantListFilter, page: Page) {
  if (filter.resourceId !== undefined) {
    const { workspace } = await getWorkspace(ctx, { id: filter.resourceId });
    const target = locationOfWorkspace(workspace);
    const scope = teamAccessListScope(ctx.subject, 'team-workspace:read', target);
    if (scope === 'none') throw new NotFound();
    return store.listTeamWorkspaces(ctx.store.db, { teamId: filter.teamId, resourceId: workspace.id, scope }, page);
  }
  const { team } = await getTeam(ctx, filter.teamId, 'team:read-access');
  return store.listTeamWorkspaces(ctx.store.db, { teamId: team.id, scope: 'all' }, page);
}

// ---------------------------------------------------------------------------------------
// Team access to projects

export interface NewTeamProject extends TeamProjectChanges {
  teamId?: string | undefined;
  projectId?: string | undefined;
}

function resolveProject(
  access: TeamProject['access'],
  start: Pick<TeamProject, 'project' | 'workspace'>,
  changes: TeamProjectChanges,
): Pick<TeamProject, 'project' | 'workspace'> {
  const fixed = access === 'custom' ? undefined : PROJECT_LEVELS[access];
  return {
    project: resolve(access, fixed?.project, start.project, changes.project, 'project-access'),
    workspace: resolve(access, fixed?.workspace, start.workspace, changes.workspace, 'workspace-access'),
  };
}

export async function createTeamProject(ctx: Context, command: NewTeamProject): Promise<TeamProject> {
  const teamId = required(command.teamId, 'team');
  const projectId = required(command.projectId, 'project');
  const { project } = await getProject(ctx, projectId);
  const team = await teamOf(ctx, teamId, project.organization_id);
  ensure(
    ctx.subject,
    'team-project:manage',
    grantTarget(
      { organization_id: project.organization_id, project_id: project.id, team_visibility: team.visibility },
      team.id,
    ),
  );
  if (team.is_owners) throw ownersHaveAll();
  const access = requiredAccess(command.access, PROJECT_ACCESS);
  const grant: TeamProject = {
    id: newId('tprj'),
    team_id: team.id,
    project_id: project.id,
    access,
    ...resolveProject(access, PROJECT_LEVELS.custom, command),
    created_at: now(),
  };
  await transaction(ctx.store, async (trx) => {
    if (await store.teamHasProjectGrant(trx, team.id, project.id)) throw alreadyGranted('project');
    await store.insertTeamProject(trx, grant);
    recordProjectGrant(trx, ctx, project.organization_id, grant, 'add_team');
  });
  return grant;
}

async function findTeamProject(
  ctx: Context,
  id: string,
  action: 'team-project:read' | 'team-project:manage',
): Promise<{ grant: TeamProject; place: GrantPlace }> {
  const found = await store.findTeamProject(ctx.store.db, id);
  if (!found) throw new NotFound();
  ensure(ctx.subject, action, grantTarget(found.place, found.grant.team_id));
  return found;
}

export const getTeamProject = async (ctx: Context, id: string): Promise<TeamProject> =>
  (await findTeamProject(ctx, id, 'team-project:read')).grant;

function recordProjectGrant(
  trx: Trx,
  ctx: Context,
  organizationId: string,
  grant: TeamProject,
  action: 'add_team' | 'update_team_permissions' | 'remove_team',
): void {
  const meta = { team: grant.team_id, access: grant.access, team_project_id: grant.id };
  recordAuditEvent(trx, ctx, { organizationId, type: 'project', id: grant.project_id, action, meta });
}

export async function updateTeamProject(ctx: Context, id: string, changes: TeamProjectChanges): Promise<TeamProject> {
  const { grant: current, place } = await findTeamProject(ctx, id, 'team-project:manage');
  const access = changes.access ?? current.access;
  const grant: TeamProject = { ...current, access, ...resolveProject(access, current, changes) };
  await transaction(ctx.store, async (trx) => {
    await store.updateTeamProject(trx, grant);
    recordProjectGrant(trx, ctx, place.organization_id, grant, 'update_team_permissions');
  });
  return grant;
}

export async function deleteTeamProject(ctx: Context, id: string): Promise<void> {
  const { grant, place } = await findTeamProject(ctx, id, 'team-project:manage');
  await transaction(ctx.store, async (trx) => {
    await store.deleteTeamProject(trx, id);
    recordProjectGrant(trx, ctx, place.organization_id, grant, 'remove_team');
  });
}

/** Grants on one project, of one team, or both. */
export async function listTeamProjectGrants(ctx: Context, filter: GrantListFilter, page: Page) {
  if (filter.resourceId !== undefined) {
    const { project } = await getProject(ctx, filter.resourceId);
    const scope = teamAccessListScope(ctx.subject, 'team-project:read', {
      organizationId: project.organization_id,
      projectId: project.id,
    });
    if (scope === 'none') throw new NotFound();
    return store.listTeamProjects(ctx.store.db, { teamId: filter.teamId, resourceId: project.id, scope }, page);
  }
  const { team } = await getTeam(ctx, filter.teamId, 'team:read-access');
  return store.listTeamProjects(ctx.store.db, { teamId: team.id, scope: 'all' }, page);
}
